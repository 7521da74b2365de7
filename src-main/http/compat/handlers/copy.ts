import { type ContainerRef, Engine } from '../../../engine/index.js';
import { allowed, segmentReader } from '../../common/access.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { isoMillis } from '../../common/dates.js';
import { parseRange } from '../../common/range.js';
import { decodeStrict } from '../../common/url.js';
import { el } from '../../common/xml.js';
import { S3Error, s3 } from '../errors.js';
import { s3Root, sendXml, type BucketCall } from '../respond.js';
import { objectFields } from './object.js';
import { partNumberOf } from './multipart.js';

interface CopySource {
  ref: ContainerRef;
  key: string;
  versionId?: string;
}

/** `x-amz-copy-source`: URL-encoded `bucket/key[?versionId=v]`, leading `/` optional, `tenant:bucket` allowed. */
function copySource(call: BucketCall): CopySource {
  const raw = call.x.header('x-amz-copy-source') ?? '';
  const q = raw.indexOf('?');
  const path = decodeStrict(q < 0 ? raw : raw.slice(0, q));
  const query = q < 0 ? '' : raw.slice(q + 1);
  const m = /^\/?([^/]+)\/(.+)$/s.exec(path ?? '');
  if (!m) throw s3.invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey', { ArgumentName: 'x-amz-copy-source' });
  const [, bucketPart = '', key = ''] = m;
  const colon = bucketPart.indexOf(':');
  const tenant = colon < 0 ? Engine.ref(call.who.account ?? '', '').tenant : bucketPart.slice(0, colon);
  const version = /(?:^|&)versionId=([^&]*)/.exec(query)?.[1];
  return { ref: { tenant, container: colon < 0 ? bucketPart : bucketPart.slice(colon + 1) }, key, ...(version !== undefined ? { versionId: decodeStrict(version) ?? version } : {}) };
}

/**
 * Reads the source with the caller's rights and the copy-source conditions (§23). A caller who
 * may not read the bucket learns nothing of its keys: a missing key (or version) is AccessDenied
 * for them, as a key that exists but is not public.
 */
function checkSource(call: BucketCall, src: CopySource) {
  const { engine } = call.ctx;
  const bucket = engine.getContainer(src.ref);
  const readable = allowed(bucket, call.who, 'read-object');
  let info;
  try {
    info = engine.headObject(src.ref, src.key, src.versionId, segmentReader(call.who));
  } catch (err) {
    if (!readable) throw s3.accessDenied();
    throw err;
  }
  if (!readable && !info.publicRead) throw s3.accessDenied();
  const h = (n: string) => call.x.header(`x-amz-copy-source-${n}`);
  const verdict = evaluateConditions(
    { ifMatch: h('if-match'), ifNoneMatch: h('if-none-match'), ifModifiedSince: h('if-modified-since'), ifUnmodifiedSince: h('if-unmodified-since') },
    { etag: info.etag, lastModified: info.lastModified },
    true,
  );
  if (verdict !== 'ok') throw new S3Error(412, 'PreconditionFailed', 'At least one of the preconditions you specified did not hold.');
  return info;
}

/** CopyObject (§23): COPY keeps the source's metadata, REPLACE takes the request's; copying onto itself needs REPLACE. */
export async function copyObject(call: BucketCall): Promise<void> {
  const src = copySource(call);
  const source = checkSource(call, src);
  const directive = (call.x.header('x-amz-metadata-directive') ?? 'COPY').toUpperCase();
  if (directive !== 'COPY' && directive !== 'REPLACE') throw s3.invalidArgument('Unknown metadata directive.', { ArgumentName: 'x-amz-metadata-directive' });
  const key = call.address.key!;
  const same = src.ref.tenant === call.ref.tenant && src.ref.container === call.ref.container && src.key === key && src.versionId === undefined;
  if (same && directive === 'COPY') {
    throw s3.invalidRequest(
      'This copy request is illegal because it is trying to copy an object to itself without changing the object\'s metadata, storage class, website redirect location or encryption attributes.',
    );
  }
  const fields = objectFields(call);
  const { object } = await call.ctx.engine.copyObject(
    { ref: src.ref, name: src.key },
    { ref: call.ref, name: key },
    directive === 'REPLACE'
      ? { metadata: 'replace', ...fields, sourceVersionId: source.versionId, sourceEtag: source.etag, canRead: segmentReader(call.who) }
      : { metadata: 'copy', meta: {}, ...(fields.publicRead !== undefined ? { publicRead: fields.publicRead } : {}), sourceVersionId: source.versionId, sourceEtag: source.etag, canRead: segmentReader(call.who) },
  );
  sendXml(call.x, 200, s3Root('CopyObjectResult', [el('LastModified', isoMillis(object.lastModified)), el('ETag', `"${object.etag}"`)]), {
    ...(object.versionId !== null ? { 'x-amz-version-id': object.versionId } : {}),
    ...(source.versionId !== null ? { 'x-amz-copy-source-version-id': source.versionId } : {}),
  });
}

/** UploadPartCopy (§23): a part made of the source, or of `x-amz-copy-source-range` (inclusive, inside the source). */
export async function uploadPartCopy(call: BucketCall): Promise<void> {
  const src = copySource(call);
  const source = checkSource(call, src);
  const rangeHeader = call.x.header('x-amz-copy-source-range');
  const range = parseRange(rangeHeader);
  if (rangeHeader !== undefined && (!range || !('start' in range) || range.end === undefined || range.end >= source.size)) {
    throw s3.invalidArgument('The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy', { ArgumentName: 'x-amz-copy-source-range' });
  }
  const read = await call.ctx.engine.getObject(src.ref, src.key, { versionId: source.versionId ?? 'null', ...(range ? { range } : {}), canRead: segmentReader(call.who) });
  const size = read.range ? read.range.end - read.range.start + 1 : source.size;
  const part = await call.ctx.engine.uploadPart(call.ref, call.address.key!, call.x.param('uploadId') ?? '', partNumberOf(call), read.body, { size });
  sendXml(call.x, 200, s3Root('CopyPartResult', [el('LastModified', isoMillis(part.lastModified)), el('ETag', `"${part.etag}"`)]), {
    ...(source.versionId !== null ? { 'x-amz-copy-source-version-id': source.versionId } : {}),
  });
}
