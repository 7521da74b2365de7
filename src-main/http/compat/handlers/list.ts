import type { ListedObject, ListEntry } from '../../../engine/index.js';
import { isoMillis } from '../../common/dates.js';
import { el, escapeXml, rawXml, xmlFragment, type XmlNode } from '../../common/xml.js';
import { awsEncode } from '../canonical.js';
import { s3 } from '../errors.js';
import { s3Root, sendXml, type BucketCall } from '../respond.js';

export const MAX_KEYS = 1000;
/** AWS reads these parameters as 32-bit integers: a larger value is InvalidArgument, not capped. */
const INT32_MAX = 2 ** 31 - 1;

/** An integer query parameter within AWS's int32 range, or InvalidArgument in AWS's words. */
export function int32Param(raw: string, name: string): number {
  const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= -INT32_MAX - 1 && n <= INT32_MAX)) throw s3.invalidArgument(`Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: raw });
  return n;
}

/** `max-keys` (§21.1): default 1000, capped at 1000, 0 allowed; anything else is InvalidArgument. */
export function maxKeys(raw: string | undefined, name = 'max-keys'): number {
  if (raw === undefined || raw === '') return MAX_KEYS;
  const n = int32Param(raw, name);
  if (n < 0) throw s3.invalidArgument(`Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: raw });
  return Math.min(n, MAX_KEYS);
}

/** With `encoding-type=url`, names go out percent-encoded (`+` as %2B, `%` as %25), as boto3 and aws-cli expect. */
function encoder(call: BucketCall): (s: string) => string {
  const type = call.x.param('encoding-type');
  if (type === undefined || type === '') return (s) => s;
  if (type !== 'url') throw s3.invalidArgument('Invalid Encoding Method specified in Request', { ArgumentName: 'encoding-type', ArgumentValue: type });
  return (s) => awsEncode(s, true);
}

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

function entriesXml(entries: ListEntry[], enc: (s: string) => string, owner: XmlNode | undefined): XmlNode[] {
  const ownerMarkup = owner ? xmlFragment(owner) : '';
  // Appended to one string: cheaper than mapping a 1,000-entry page to an array and joining it.
  let objects = '';
  const prefixes: XmlNode[] = [];
  for (const e of entries) {
    if (e.kind === 'object') objects += contents(e.object, enc, ownerMarkup);
    else prefixes.push(el('CommonPrefixes', [el('Prefix', enc(e.prefix))]));
  }
  return [rawXml(objects), ...prefixes];
}

function page(call: BucketCall, marker: string | undefined, limit: number) {
  const p = (n: string) => call.x.param(n);
  return call.ctx.engine.listObjects(call.ref, {
    limit,
    ...(p('prefix') ? { prefix: p('prefix') } : {}),
    ...(p('delimiter') ? { delimiter: p('delimiter') } : {}),
    ...(marker ? { marker } : {}),
  });
}

function head(call: BucketCall, enc: (s: string) => string, limit: number): XmlNode[] {
  const p = (n: string) => call.x.param(n);
  return [
    ...(call.bucket.tenant ? [el('Tenant', call.bucket.tenant)] : []),
    el('Name', call.bucket.name),
    el('Prefix', enc(p('prefix') ?? '')),
    el('MaxKeys', limit),
    ...(p('delimiter') ? [el('Delimiter', enc(p('delimiter')!))] : []),
  ];
}

/** ListObjects (v1, §21.2). */
export function listObjectsV1(call: BucketCall): void {
  const enc = encoder(call);
  const limit = maxKeys(call.x.param('max-keys'));
  const marker = call.x.param('marker');
  const result = page(call, marker, limit);
  sendXml(
    call.x,
    200,
    s3Root('ListBucketResult', [
      ...head(call, enc, limit),
      el('Marker', enc(marker ?? '')),
      el('IsTruncated', result.truncated ? 'true' : 'false'),
      ...(result.truncated && result.nextMarker ? [el('NextMarker', enc(result.nextMarker))] : []),
      ...entriesXml(result.entries, enc, ownerNode(call)),
      ...(call.x.param('encoding-type') ? [el('EncodingType', 'url')] : []),
    ]),
  );
}

/** ListObjectsV2 (§21.3) with an opaque continuation token (base64url of the last name or prefix). */
export function listObjectsV2(call: BucketCall): void {
  const enc = encoder(call);
  const limit = maxKeys(call.x.param('max-keys'));
  const token = call.x.param('continuation-token');
  let marker = call.x.param('start-after');
  if (token !== undefined) {
    const decoded = Buffer.from(token, 'base64url').toString('utf8');
    if (!token || Buffer.from(decoded, 'utf8').toString('base64url') !== token) throw s3.invalidArgument('The continuation token provided is incorrect', { ArgumentName: 'continuation-token' });
    marker = decoded;
  }
  const result = page(call, marker, limit);
  const fetchOwner = call.x.param('fetch-owner') === 'true';
  sendXml(
    call.x,
    200,
    s3Root('ListBucketResult', [
      ...head(call, enc, limit),
      el('KeyCount', result.entries.length),
      el('IsTruncated', result.truncated ? 'true' : 'false'),
      ...(token !== undefined ? [el('ContinuationToken', token)] : []),
      ...(result.truncated && result.nextMarker ? [el('NextContinuationToken', Buffer.from(result.nextMarker, 'utf8').toString('base64url'))] : []),
      ...(call.x.param('start-after') !== undefined ? [el('StartAfter', enc(call.x.param('start-after')!))] : []),
      ...entriesXml(result.entries, enc, fetchOwner ? ownerNode(call) : undefined),
      ...(call.x.param('encoding-type') ? [el('EncodingType', 'url')] : []),
    ]),
  );
}

/** ListObjectVersions (§21.4): versions and delete markers by key, newest first. */
export function listObjectVersions(call: BucketCall): void {
  const enc = encoder(call);
  const p = (n: string) => call.x.param(n);
  const limit = maxKeys(p('max-keys'));
  const result = call.ctx.engine.listVersions(call.ref, {
    limit,
    ...(p('prefix') ? { prefix: p('prefix') } : {}),
    ...(p('delimiter') ? { delimiter: p('delimiter') } : {}),
    ...(p('key-marker') ? { keyMarker: p('key-marker') } : {}),
    ...(p('version-id-marker') ? { versionIdMarker: p('version-id-marker') } : {}),
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
      ...head(call, enc, limit),
      el('KeyMarker', enc(p('key-marker') ?? '')),
      el('VersionIdMarker', p('version-id-marker') ?? ''),
      el('IsTruncated', result.truncated ? 'true' : 'false'),
      ...(result.nextKeyMarker !== undefined ? [el('NextKeyMarker', enc(result.nextKeyMarker))] : []),
      ...(result.nextVersionIdMarker !== undefined ? [el('NextVersionIdMarker', result.nextVersionIdMarker)] : []),
      ...items,
      ...(p('encoding-type') ? [el('EncodingType', 'url')] : []),
    ]),
  );
}

/** ListMultipartUploads (§24). */
export function listMultipartUploads(call: BucketCall): void {
  const enc = encoder(call);
  const p = (n: string) => call.x.param(n);
  const limit = maxKeys(p('max-uploads'), 'max-uploads');
  const result = call.ctx.engine.listUploads(call.ref, {
    limit,
    ...(p('prefix') ? { prefix: p('prefix') } : {}),
    ...(p('key-marker') ? { keyMarker: p('key-marker') } : {}),
    ...(p('upload-id-marker') ? { uploadIdMarker: p('upload-id-marker') } : {}),
    ...(p('delimiter') ? { delimiter: p('delimiter') } : {}),
  });
  const who = ownerFields(call);
  const next = [
    ...(result.nextKeyMarker !== undefined ? [el('NextKeyMarker', enc(result.nextKeyMarker))] : []),
    ...(result.nextUploadIdMarker !== undefined ? [el('NextUploadIdMarker', result.nextUploadIdMarker)] : []),
  ];
  sendXml(
    call.x,
    200,
    s3Root('ListMultipartUploadsResult', [
      el('Bucket', call.bucket.name),
      el('KeyMarker', enc(p('key-marker') ?? '')),
      el('UploadIdMarker', p('upload-id-marker') ?? ''),
      ...next,
      el('Prefix', enc(p('prefix') ?? '')),
      ...(p('delimiter') ? [el('Delimiter', enc(p('delimiter')!))] : []),
      el('MaxUploads', limit),
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
      ...(p('encoding-type') ? [el('EncodingType', 'url')] : []),
    ]),
  );
}
