import { CofferError } from '../../../../src-shared/errors.js';
import { CHECKSUM_ALGORITHMS, CHECKSUM_NAMES, decide, effectiveGrants, Engine, segmentReader, type ContainerRef, type ObjectInfo } from '../../../engine/index.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { isoMillis } from '../../common/dates.js';
import { el } from '../../common/xml.js';
import { S3Error, s3 } from '../errors.js';
import type { CopyRange, CopySource, OpOf } from '../operation.js';
import { s3Root, sendXml, type BucketCall } from '../respond.js';
import { uploadGrants } from './acl.js';
import { addExpirationHeader } from './lifecycle.js';
import { checkLockRequest } from '../lock-input.js';

/** The source's bucket: named with its tenant, else in the caller's. */
function sourceRef(call: BucketCall, src: CopySource): ContainerRef {
  return { tenant: src.tenant ?? Engine.ref(call.who.account ?? '', '').tenant, container: src.bucket };
}

/**
 * Reads the source with the caller's rights and the copy-source conditions (§23), decided by the
 * access module as any read is. A caller who may not read the bucket learns nothing of its keys: a
 * missing key (or version) is AccessDenied for them, as a key that exists but is not public.
 */
function checkSource(call: BucketCall<OpOf<'CopyObject' | 'UploadPartCopy'>>, ref: ContainerRef): ObjectInfo {
  const { engine } = call.ctx;
  const src = call.op.source;
  const bucket = engine.getContainer(ref);
  let info: ObjectInfo | undefined;
  let missing: unknown;
  try {
    info = engine.headObject(ref, src.key, src.versionId, segmentReader(call.who));
  } catch (err) {
    missing = err;
  }
  const grants = info && effectiveGrants(bucket.owner, info.grants, info.publicRead);
  const facts = { action: src.versionId === undefined ? 's3:GetObject' : 's3:GetObjectVersion', key: src.key };
  if (!decide({ who: call.who, container: bucket, action: 'read-object', facts, objectGrants: () => grants })) throw new CofferError('AccessDenied');
  if (!info) throw missing;
  if (evaluateConditions(call.op.sourceConditions, { etag: info.etag, lastModified: info.lastModified }, true) !== 'ok') throw new CofferError('PreconditionFailed');
  return info;
}

/** CopyObject (§23): COPY keeps the source's metadata, REPLACE takes the request's; copying onto itself needs REPLACE. */
export async function copyObject(call: BucketCall<OpOf<'CopyObject'>>): Promise<void> {
  const { op } = call;
  const src = op.source;
  const ref = sourceRef(call, src);
  const source = checkSource(call, ref);
  checkLockRequest(call.bucket, op.lock);
  const directive = op.directive;
  const key = op.address.key!;
  const same = ref.tenant === call.ref.tenant && ref.container === call.ref.container && src.key === key && src.versionId === undefined;
  if (same && directive === 'COPY') {
    throw s3.invalidRequest(
      'This copy request is illegal because it is trying to copy an object to itself without changing the object\'s metadata, storage class, website redirect location or encryption attributes.',
    );
  }
  const fields = { ...op.fields, grants: uploadGrants(call, op.acl, true), lock: op.lock };
  // The tagging directive is independent of the metadata one: REPLACE takes x-amz-tagging (none: no tags).
  const tagging = op.taggingDirective === 'REPLACE' ? { tagging: 'replace' as const, tags: fields.tags ?? [] } : { tagging: 'copy' as const };
  const common = { ...tagging, sourceVersionId: source.versionId, sourceEtag: source.etag, canRead: segmentReader(call.who), destination: op.conditions };
  const { object } = await call.ctx.engine.copyObject(
    { ref, name: src.key },
    { ref: call.ref, name: key },
    directive === 'REPLACE' ? { metadata: 'replace', ...fields, ...common } : { metadata: 'copy', meta: {}, grants: fields.grants, lock: op.lock, ...common },
  );
  const headers = {
    ...(object.versionId !== null ? { 'x-amz-version-id': object.versionId } : {}),
    ...(source.versionId !== null ? { 'x-amz-copy-source-version-id': source.versionId } : {}),
  };
  // x-amz-expiration when a lifecycle rule will expire the copy, as AWS says on CopyObject.
  const expiring = addExpirationHeader(call.bucket, object, call.ctx.engine.options.lifecycleDayMs, headers);
  sendXml(call.x, 200, s3Root('CopyObjectResult', [el('LastModified', isoMillis(object.lastModified)), el('ETag', `"${object.etag}"`)]), expiring);
}

/**
 * The part of the source an UploadPartCopy takes: a malformed value is InvalidArgument, a range the
 * source cannot satisfy (past its end, or reversed) InvalidRange, as AWS and RGW answer.
 */
function copyRangeOf(range: CopyRange | undefined, size: number): { start: number; end: number } | undefined {
  if (range && 'malformed' in range) {
    throw s3.invalidArgument('The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy', {
      ArgumentName: 'x-amz-copy-source-range',
      ArgumentValue: range.malformed,
    });
  }
  if (range && (range.end >= size || range.start > range.end)) throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable');
  return range;
}

/** UploadPartCopy (§23): a part made of the source, or of `x-amz-copy-source-range` (inclusive, inside the source). */
export async function uploadPartCopy(call: BucketCall<OpOf<'UploadPartCopy'>>): Promise<void> {
  const { op } = call;
  const src = op.source;
  const ref = sourceRef(call, src);
  const source = checkSource(call, ref);
  const range = copyRangeOf(op.sourceRange, source.size);
  const read = await call.ctx.engine.getObject(ref, src.key, { versionId: source.versionId ?? 'null', ...(range ? { range } : {}), canRead: segmentReader(call.who) });
  const size = read.range ? read.range.end - read.range.start + 1 : source.size;
  const part = await call.ctx.engine.uploadPart(call.ref, op.address.key!, op.uploadId, op.partNumber, read.body, { size });
  // The part's checksum when the upload has an algorithm (the engine computes it for every part), as AWS's CopyPartResult.
  const checksums = CHECKSUM_ALGORITHMS.filter((a) => part.checksums?.[a]).map((a) => el(`Checksum${CHECKSUM_NAMES[a]}`, part.checksums![a]!));
  sendXml(call.x, 200, s3Root('CopyPartResult', [el('LastModified', isoMillis(part.lastModified)), el('ETag', `"${part.etag}"`), ...checksums]), {
    ...(source.versionId !== null ? { 'x-amz-copy-source-version-id': source.versionId } : {}),
  });
}
