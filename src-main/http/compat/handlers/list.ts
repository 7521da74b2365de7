import type { ListedObject, ListEntry } from '../../../engine/index.js';
import { isoMillis } from '../../common/dates.js';
import { el, escapeXml, rawXml, xmlFragment, type XmlNode } from '../../common/xml.js';
import { awsEncode } from '../canonical.js';
import type { ListParams, OpOf } from '../operation.js';
import { s3Root, sendXml, sendXmlStreamed, type BucketCall } from '../respond.js';

/** With `encoding-type=url`, names go out percent-encoded (`+` as %2B, `%` as %25), as boto3 and aws-cli expect. */
function encoder(list: ListParams): (s: string) => string {
  return list.encodingType === 'url' ? (s) => awsEncode(s, true) : (s) => s;
}

const encodingType = (list: ListParams) => (list.encodingType ? [el('EncodingType', 'url')] : []);

export const quoted = (etag: string) => `"${etag}"`;

function ownerFields(call: BucketCall): XmlNode[] {
  const a = call.ctx.engine.getAccount(call.bucket.owner);
  return [el('ID', a.id), el('DisplayName', a.displayName)];
}

function ownerNode(call: BucketCall): XmlNode {
  return el('Owner', ownerFields(call));
}

/** One `<Contents>` as markup: a page holds up to 1,000 of them, and building element nodes for each cost more than the listing itself. */
function contents(o: ListedObject, enc: (s: string) => string, owner: string): string {
  // The quotes around the ETag are written escaped rather than escaped per entry.
  return (
    `<Contents><Key>${escapeXml(enc(o.name))}</Key><LastModified>${isoMillis(o.lastModified)}</LastModified>` +
    `<ETag>&quot;${escapeXml(o.etag)}&quot;</ETag><Size>${o.size}</Size><StorageClass>STANDARD</StorageClass>${owner}<Type>Normal</Type></Contents>`
  );
}

/** Entries per piece of a streamed page: each piece leaves as soon as it is serialized. */
const PIECE_ENTRIES = 100;

/**
 * A page's entries as ListBucketResult carries them in the seed's order (2.8): the common
 * prefixes, then the objects. Objects go as raw markup in runs of PIECE_ENTRIES (building element
 * nodes for each cost more than the listing itself), each run one piece of a streamed answer.
 */
function entriesXml(entries: ListEntry[], enc: (s: string) => string, owner: XmlNode | undefined): XmlNode[] {
  const ownerMarkup = owner ? xmlFragment(owner) : '';
  const prefixes: XmlNode[] = [];
  const runs: XmlNode[] = [];
  let run = '';
  let inRun = 0;
  for (const e of entries) {
    if (e.kind === 'prefix') {
      prefixes.push(el('CommonPrefixes', [el('Prefix', enc(e.prefix))]));
      continue;
    }
    run += contents(e.object, enc, ownerMarkup);
    if (++inRun === PIECE_ENTRIES) {
      runs.push(rawXml(run));
      run = '';
      inRun = 0;
    }
  }
  if (run) runs.push(rawXml(run));
  return [...prefixes, ...runs];
}

function page(call: BucketCall, list: ListParams, marker: string | undefined) {
  return call.ctx.engine.listObjects(call.ref, {
    limit: list.maxKeys,
    ...(list.prefix ? { prefix: list.prefix } : {}),
    ...(list.delimiter ? { delimiter: list.delimiter } : {}),
    ...(marker ? { marker } : {}),
  });
}

/**
 * The echoed request. `encodePrefix` false for ListObjects v1: AWS encodes Delimiter, Marker,
 * NextMarker and the keys there but gives Prefix back as sent (botocore's decode_list_object
 * decodes no top-level Prefix for v1, only for V2 and versions).
 */
function head(call: BucketCall, enc: (s: string) => string, list: ListParams, encodePrefix = true): XmlNode[] {
  return [
    ...(call.bucket.tenant ? [el('Tenant', call.bucket.tenant)] : []),
    el('Name', call.bucket.name),
    el('Prefix', (encodePrefix ? enc : String)(list.prefix ?? '')),
    el('MaxKeys', list.maxKeys),
    ...(list.delimiter ? [el('Delimiter', enc(list.delimiter))] : []),
  ];
}

/**
 * ListObjects (v1, §21.2; the seed's C1): streamed with chunked transfer encoding, children in the
 * seed's order (2.8: Tenant, Name, Prefix, MaxKeys, Delimiter, IsTruncated, CommonPrefixes,
 * Contents, Marker). NextMarker as AWS sends it: only when a delimiter was given ("returned only
 * if you have the delimiter request parameter specified"); without one, clients go on from the
 * last Key. The page is read from the index first: IsTruncated comes before the entries.
 */
export function listObjectsV1(call: BucketCall<OpOf<'ListObjects'>>): void {
  const { list, marker } = call.op;
  const enc = encoder(list);
  const result = page(call, list, marker);
  const next = result.truncated && list.delimiter && result.nextMarker ? [el('NextMarker', enc(result.nextMarker))] : [];
  sendXmlStreamed(call.x, 200, 'ListBucketResult', [
    ...head(call, enc, list, false),
    el('IsTruncated', result.truncated ? 'true' : 'false'),
    ...entriesXml(result.entries, enc, ownerNode(call)),
    el('Marker', enc(marker ?? '')),
    ...next,
    ...encodingType(list),
  ]);
}

/** ListObjectsV2 (§21.3) with an opaque continuation token (base64url of the last name or prefix), streamed as v1. */
export function listObjectsV2(call: BucketCall<OpOf<'ListObjectsV2'>>): void {
  const { list, continuationToken: token, startAfter, fetchOwner } = call.op;
  const enc = encoder(list);
  const result = page(call, list, call.op.marker);
  sendXmlStreamed(call.x, 200, 'ListBucketResult', [
    ...head(call, enc, list),
    el('KeyCount', result.entries.length),
    el('IsTruncated', result.truncated ? 'true' : 'false'),
    ...(token !== undefined ? [el('ContinuationToken', token)] : []),
    ...(result.truncated && result.nextMarker ? [el('NextContinuationToken', Buffer.from(result.nextMarker, 'utf8').toString('base64url'))] : []),
    ...(startAfter !== undefined ? [el('StartAfter', enc(startAfter))] : []),
    ...entriesXml(result.entries, enc, fetchOwner ? ownerNode(call) : undefined),
    ...encodingType(list),
  ]);
}

/** ListObjectVersions (§21.4): versions and delete markers by key, newest first. */
export function listObjectVersions(call: BucketCall<OpOf<'ListObjectVersions'>>): void {
  const { list, keyMarker, versionIdMarker } = call.op;
  const enc = encoder(list);
  const result = call.ctx.engine.listVersions(call.ref, {
    limit: list.maxKeys,
    ...(list.prefix ? { prefix: list.prefix } : {}),
    ...(list.delimiter ? { delimiter: list.delimiter } : {}),
    ...(keyMarker ? { keyMarker } : {}),
    ...(versionIdMarker ? { versionIdMarker } : {}),
  });
  const owner = ownerNode(call);
  const items = result.entries.map((e) => {
    if (e.kind === 'prefix') return el('CommonPrefixes', [el('Prefix', enc(e.prefix))]);
    const v = e.version;
    const common = [el('Key', enc(v.name)), el('VersionId', v.versionId ?? 'null'), el('IsLatest', v.isLatest ? 'true' : 'false'), el('LastModified', isoMillis(v.lastModified))];
    if (v.deleteMarker) return el('DeleteMarker', [...common, owner]);
    return el('Version', [...common, el('ETag', quoted(v.etag)), el('Size', v.size), el('StorageClass', 'STANDARD'), owner]);
  });
  sendXml(
    call.x,
    200,
    s3Root('ListVersionsResult', [
      ...head(call, enc, list),
      el('KeyMarker', enc(keyMarker ?? '')),
      el('VersionIdMarker', versionIdMarker ?? ''),
      el('IsTruncated', result.truncated ? 'true' : 'false'),
      ...(result.nextKeyMarker !== undefined ? [el('NextKeyMarker', enc(result.nextKeyMarker))] : []),
      ...(result.nextVersionIdMarker !== undefined ? [el('NextVersionIdMarker', result.nextVersionIdMarker)] : []),
      ...items,
      ...encodingType(list),
    ]),
  );
}

/** ListMultipartUploads (§24). */
export function listMultipartUploads(call: BucketCall<OpOf<'ListMultipartUploads'>>): void {
  const { list, keyMarker, uploadIdMarker } = call.op;
  const enc = encoder(list);
  const result = call.ctx.engine.listUploads(call.ref, {
    limit: list.maxKeys,
    ...(list.prefix ? { prefix: list.prefix } : {}),
    ...(keyMarker ? { keyMarker } : {}),
    ...(uploadIdMarker ? { uploadIdMarker } : {}),
    ...(list.delimiter ? { delimiter: list.delimiter } : {}),
  });
  const who = ownerFields(call);
  // The next markers name the last upload of the page, truncated or not, as RGW and Swift's s3api
  // (written against AWS) give them; a page without uploads has none.
  const last = result.uploads.at(-1);
  const nextKey = result.nextKeyMarker ?? last?.name;
  const nextUploadId = result.nextUploadIdMarker ?? last?.uploadId;
  const next = [
    ...(nextKey !== undefined ? [el('NextKeyMarker', enc(nextKey))] : []),
    ...(nextUploadId !== undefined ? [el('NextUploadIdMarker', nextUploadId)] : []),
  ];
  sendXml(
    call.x,
    200,
    s3Root('ListMultipartUploadsResult', [
      el('Bucket', call.bucket.name),
      el('KeyMarker', enc(keyMarker ?? '')),
      el('UploadIdMarker', uploadIdMarker ?? ''),
      ...next,
      el('Prefix', enc(list.prefix ?? '')),
      ...(list.delimiter ? [el('Delimiter', enc(list.delimiter))] : []),
      el('MaxUploads', list.maxKeys),
      el('IsTruncated', result.truncated ? 'true' : 'false'),
      ...result.uploads.map((u) =>
        el('Upload', [
          el('Key', enc(u.name)),
          el('UploadId', u.uploadId),
          el('Initiator', who),
          el('Owner', who),
          el('StorageClass', 'STANDARD'),
          el('Initiated', isoMillis(u.initiated)),
        ]),
      ),
      ...result.prefixes.map((cp) => el('CommonPrefixes', [el('Prefix', enc(cp))])),
      ...encodingType(list),
    ]),
  );
}
