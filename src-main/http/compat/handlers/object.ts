import { CofferError } from '../../../../src-shared/errors.js';
import { segmentReader, type ObjectInfo } from '../../../engine/index.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { abortedBy, type HeaderValues } from '../../common/exchange.js';
import { readOptionsFor, readPlain } from '../../common/plain-read.js';
import { S3Error } from '../errors.js';
import { addChecksumHeaders, objectHeaders } from '../metadata.js';
import type { OpOf } from '../operation.js';
import { openPayload } from '../payload.js';
import { s3Headers, sendEmpty, type BucketCall } from '../respond.js';
import { uploadGrants } from './acl.js';
import { addExpirationHeader } from './lifecycle.js';
import { checkLockRequest, requireBypassApplicable, requireUploadIntegrity } from '../lock-input.js';
import { addLockHeaders, mayBypass } from './object-lock.js';

/** PutObject (C2, §22.1): every payload mode, Content-MD5 and checksum verification, conditional create. */
export async function putObject(call: BucketCall<OpOf<'PutObject'>>): Promise<void> {
  const { x, ctx, op } = call;
  checkLockRequest(call.bucket, op.lock);
  if (op.lock || call.bucket.objectLock?.defaultRetention) requireUploadIntegrity(op.payload);
  const payload = openPayload(x.req, op.payload, call.signing);
  const fields = op.fields;
  // Every option named, undefined where not given: conditional spreads here cost V8 a slow,
  // uncached object copy on every upload.
  const info = await ctx.engine.putObject(call.ref, op.address.key!, payload.body, {
    meta: fields.meta,
    headers: fields.headers,
    contentType: fields.contentType,
    publicRead: undefined,
    grants: uploadGrants(call, op.acl),
    tags: fields.tags,
    size: payload.size,
    expectedMd5: payload.expectedMd5,
    expectedChecksums: payload.expectedChecksums,
    checksumAlgorithms: payload.checksumAlgorithms,
    contentSha256: payload.contentSha256,
    ifNoneMatch: op.conditions.ifNoneMatch,
    ifMatch: op.conditions.ifMatch,
    signal: abortedBy(x.req),
    lock: op.lock,
  });
  // Undefined values are left out of the response: no conditional spreads on every upload.
  // Accept-Ranges as the seed's C2 lists it (RGW sends it too): the object just stored can be read by ranges.
  const headers = addChecksumHeaders(info.checksums, { ETag: `"${info.etag}"`, 'Accept-Ranges': 'bytes', 'x-amz-version-id': info.versionId ?? undefined });
  sendEmpty(x, 200, addExpirationHeader(call.bucket, info, ctx.engine.options.lifecycleDayMs, headers));
}

/**
 * `?partNumber=N` (§22.2): the byte range of part N of an object made by a multipart upload
 * (with `x-amz-mp-parts-count`); any other object is one part.
 */
function partNumberRange(n: number | undefined, info: ObjectInfo): { start: number; end: number; parts: number } | undefined {
  if (n === undefined) return undefined;
  const sizes = info.partSizes ?? [info.size];
  // AWS: 416 InvalidPartNumber (Swift's s3api tests, written against AWS, check it), not a 400.
  if (n > sizes.length) throw new S3Error(416, 'InvalidPartNumber', 'The requested partnumber is not satisfiable', { PartNumberRequested: String(n), ActualPartCount: String(sizes.length) });
  const start = sizes.slice(0, n - 1).reduce((t, x) => t + x, 0);
  const size = sizes[n - 1]!;
  return size > 0 ? { start, end: start + size - 1, parts: sizes.length } : undefined;
}

/** GetObject / HeadObject (C3, §22.2): versions, conditionals, one range, response-* overrides. */
export async function getObject(call: BucketCall<OpOf<'GetObject' | 'HeadObject'>>): Promise<void> {
  const { x, ctx, op } = call;
  const key = op.address.key!;
  const { versionId, overrides } = op;
  if (!call.who.account && overrides.length) {
    throw new S3Error(400, 'InvalidRequest', 'Request specific response headers cannot be used for anonymous GET requests.');
  }
  // A plain GET without partNumber reads first and judges the conditionals on what it read (one
  // lookup, not two); large objects, HEAD and unsatisfiable ranges take the general path.
  if (op.partNumber !== undefined && op.range) throw new S3Error(400, 'InvalidRequest', 'Cannot specify both Range header and partNumber query parameter');
  const plain = op.name === 'GetObject' && op.partNumber === undefined;
  const early = plain ? await readPlain(ctx.engine, call.ref, key, readOptionsFor(call.who, op.range, versionId)) : undefined;
  const info = early?.info ?? ctx.engine.headObject(call.ref, key, versionId, segmentReader(call.who));
  const verdict = evaluateConditions(op.conditions, { etag: info.etag, lastModified: info.lastModified }, true);
  if (verdict !== 'ok') early?.body.destroy();
  if (verdict === 304) return sendEmpty(x, 304, { ETag: `"${info.etag}"`, 'Last-Modified': new Date(Math.floor(info.lastModified / 1000) * 1000).toUTCString() });
  if (verdict === 412) throw new CofferError('PreconditionFailed');
  const part = partNumberRange(op.partNumber, info);
  const range = part ? { start: part.start, end: part.end } : op.range;
  // A read of ?versionId=null names the version it read, as AWS answers it.
  const nullVersion = (h: HeaderValues): HeaderValues => {
    if (versionId === 'null' && h['x-amz-version-id'] === undefined) h['x-amz-version-id'] = 'null';
    return h;
  };
  if (op.name === 'HeadObject' && (!range || part)) {
    // The headers are all in `info` (a part's range too): opening the body only to drop it cost as much as a GET.
    const head = nullVersion(addExpirationHeader(call.bucket, info, ctx.engine.options.lifecycleDayMs, addLockHeaders(call, info, objectHeaders(info, overrides, op.checksumMode && !part))));
    if (!part) return x.sendHead(200, head, s3Headers(x), info.size);
    head['x-amz-mp-parts-count'] = part.parts;
    head['Content-Range'] = `bytes ${part.start}-${part.end}/${info.size}`;
    return x.sendHead(206, head, s3Headers(x), part.end - part.start + 1);
  }
  const read = early ?? (await ctx.engine.getObject(call.ref, key, readOptionsFor(call.who, range, versionId)));
  const headers = nullVersion(addExpirationHeader(call.bucket, read.info, ctx.engine.options.lifecycleDayMs, addLockHeaders(call, read.info, objectHeaders(read.info, overrides, op.checksumMode && !read.range))));
  if (part) headers['x-amz-mp-parts-count'] = part.parts;
  if (read.range) {
    const { start, end } = read.range;
    headers['Content-Range'] = `bytes ${start}-${end}/${read.info.size}`;
    return x.stream(206, headers, read, s3Headers(x), end - start + 1);
  }
  await x.stream(200, headers, read, s3Headers(x), read.info.size);
}

/** DeleteObject (C4, §22.3): 204 whether or not the key existed; delete markers when versioned. */
export async function deleteObject(call: BucketCall<OpOf<'DeleteObject'>>): Promise<void> {
  const { versionId } = call.op;
  const key = call.op.address.key!;
  requireBypassApplicable(call.bucket, call.op.bypassGovernance);
  const bypassGovernance = mayBypass(call, call.op.bypassGovernance, key);
  const r = await call.ctx.engine.deleteObject(call.ref, key, { versionId, missingOk: true, bypassGovernance });
  if (r.missing) return sendEmpty(call.x, 204);
  // As AWS: the version removed or made, `null` included (a suspended bucket's null delete
  // marker), but never in a bucket that was never versioned, where versions are not a thing.
  const versioned = call.bucket.versioning !== 'unversioned';
  sendEmpty(call.x, 204, {
    ...(r.deleteMarker ? { 'x-amz-delete-marker': 'true' } : {}),
    ...(versioned && (r.versionId !== null || versionId !== undefined || r.deleteMarker) ? { 'x-amz-version-id': r.versionId ?? 'null' } : {}),
  });
}
