import type { RequestFields } from '../../../engine/ops/put-object.js';
import type { ObjectInfo } from '../../../engine/types.js';
import { segmentReader } from '../../common/access.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { abortedBy } from '../../common/exchange.js';
import { readOptionsFor, readPlain } from '../../common/plain-read.js';
import { parseRange } from '../../common/range.js';
import { S3Error } from '../errors.js';
import { addChecksumHeaders, checkStorageClass, hasResponseOverrides, objectHeaders, readStandard, readUserMeta } from '../metadata.js';
import { requestPayload } from '../payload.js';
import { s3Headers, sendEmpty, type BucketCall } from '../respond.js';
import { cannedAcl } from './acl.js';

/** Object fields from PutObject / CreateMultipartUpload / CopyObject(REPLACE) headers. */
export function objectFields(call: BucketCall): RequestFields {
  checkStorageClass(call.x.header('x-amz-storage-class'));
  const publicRead = cannedAcl(call.x);
  const contentType = call.x.header('content-type');
  const fields: RequestFields = { meta: readUserMeta(call.x.req.headers), headers: readStandard(call.x.req.headers) };
  if (contentType) fields.contentType = contentType;
  if (publicRead !== undefined) fields.publicRead = publicRead;
  return fields;
}

/** PutObject (C2, §22.1): every payload mode, Content-MD5 and checksum verification, conditional create. */
export async function putObject(call: BucketCall): Promise<void> {
  const { x, ctx } = call;
  const payload = requestPayload(x, call.signing);
  const ifNoneMatch = x.header('if-none-match');
  const ifMatch = x.header('if-match');
  const fields = objectFields(call);
  // Every option named, undefined where not given: conditional spreads here cost V8 a slow,
  // uncached object copy on every upload.
  const info = await ctx.engine.putObject(call.ref, call.address.key!, payload.body, {
    meta: fields.meta,
    headers: fields.headers,
    contentType: fields.contentType,
    publicRead: fields.publicRead,
    size: payload.size,
    expectedMd5: payload.expectedMd5,
    expectedChecksums: payload.expectedChecksums,
    checksumAlgorithms: payload.checksumAlgorithms,
    contentSha256: payload.contentSha256,
    ifNoneMatch: ifNoneMatch?.trim() === '*' ? '*' : undefined,
    ifMatch: ifMatch || undefined,
    signal: abortedBy(x.req),
  });
  // Undefined values are left out of the response: no conditional spreads on every upload.
  sendEmpty(x, 200, addChecksumHeaders(info.checksums, { ETag: `"${info.etag}"`, 'x-amz-version-id': info.versionId ?? undefined }));
}

/**
 * `?partNumber=N` (§22.2): the byte range of part N of an object made by a multipart upload
 * (with `x-amz-mp-parts-count`); any other object is one part.
 */
function partNumberRange(raw: string | undefined, info: ObjectInfo): { start: number; end: number; parts: number } | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 10000) throw new S3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
  const sizes = info.partSizes ?? [info.size];
  const n = Number(raw);
  if (n > sizes.length) throw new S3Error(416, 'InvalidPartNumber', 'The requested partnumber is not satisfiable');
  const start = sizes.slice(0, n - 1).reduce((t, x) => t + x, 0);
  const size = sizes[n - 1]!;
  return size > 0 ? { start, end: start + size - 1, parts: sizes.length } : undefined;
}

/** GetObject / HeadObject (C3, §22.2): versions, conditionals, one range, response-* overrides. */
export async function getObject(call: BucketCall): Promise<void> {
  const { x, ctx } = call;
  const versionId = x.param('versionId');
  if (versionId === '') throw new S3Error(400, 'InvalidArgument', 'Version id cannot be the empty string');
  const param = (n: string) => x.param(n);
  if (!call.who.account && hasResponseOverrides(param)) {
    throw new S3Error(400, 'InvalidRequest', 'Request specific response headers cannot be used for anonymous GET requests.');
  }
  // A plain GET without partNumber reads first and judges the conditionals on what it read (one
  // lookup, not two); large objects, HEAD and unsatisfiable ranges take the general path.
  const plain = x.method === 'GET' && x.param('partNumber') === undefined;
  const early = plain ? await readPlain(ctx.engine, call.ref, call.address.key!, readOptionsFor(call.who, parseRange(x.header('range')), versionId)) : undefined;
  const info = early?.info ?? ctx.engine.headObject(call.ref, call.address.key!, versionId, segmentReader(call.who));
  const cond = { ifMatch: x.header('if-match'), ifNoneMatch: x.header('if-none-match'), ifModifiedSince: x.header('if-modified-since'), ifUnmodifiedSince: x.header('if-unmodified-since') };
  const verdict = evaluateConditions(cond, { etag: info.etag, lastModified: info.lastModified }, true);
  if (verdict !== 'ok') early?.body.destroy();
  if (verdict === 304) return sendEmpty(x, 304, { ETag: `"${info.etag}"`, 'Last-Modified': new Date(Math.floor(info.lastModified / 1000) * 1000).toUTCString() });
  if (verdict === 412) throw new S3Error(412, 'PreconditionFailed', 'At least one of the preconditions you specified did not hold.');
  const part = partNumberRange(x.param('partNumber'), info);
  const range = part ? { start: part.start, end: part.end } : parseRange(x.header('range'));
  if (x.method === 'HEAD' && !range) {
    // The headers are all in `info`: opening the body only to drop it cost as much as a GET.
    const headers = objectHeaders(info, param, x.header('x-amz-checksum-mode')?.toUpperCase() === 'ENABLED');
    return x.sendHead(200, headers, s3Headers(x), info.size);
  }
  const read = early ?? (await ctx.engine.getObject(call.ref, call.address.key!, readOptionsFor(call.who, range, versionId)));
  const checksumMode = x.header('x-amz-checksum-mode')?.toUpperCase() === 'ENABLED' && !read.range;
  const headers = objectHeaders(read.info, param, checksumMode);
  if (part) headers['x-amz-mp-parts-count'] = part.parts;
  if (read.range) {
    const { start, end } = read.range;
    headers['Content-Range'] = `bytes ${start}-${end}/${read.info.size}`;
    return x.stream(206, headers, read.body, s3Headers(x), end - start + 1);
  }
  await x.stream(200, headers, read.body, s3Headers(x), read.info.size);
}

/** DeleteObject (C4, §22.3): 204 whether or not the key existed; delete markers when versioned. */
export async function deleteObject(call: BucketCall): Promise<void> {
  const versionId = call.x.param('versionId');
  const r = await call.ctx.engine.deleteObject(call.ref, call.address.key!, { versionId, missingOk: true });
  if (r.missing) return sendEmpty(call.x, 204);
  sendEmpty(call.x, 204, {
    ...(r.deleteMarker ? { 'x-amz-delete-marker': 'true' } : {}),
    ...(r.versionId !== null || versionId !== undefined ? { 'x-amz-version-id': r.versionId ?? 'null' } : {}),
  });
}
