import { isoMillis } from '../../common/dates.js';
import { awsEncode } from '../canonical.js';
import { CHECKSUM_ALGORITHMS, CHECKSUM_NAMES, type Checksums } from '../../../engine/index.js';
import { el, type XmlNode } from '../../common/xml.js';
import { s3 } from '../errors.js';
import { addChecksumHeaders } from '../metadata.js';
import type { OpOf } from '../operation.js';
import { openPayload } from '../payload.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';
import { uploadGrants } from './acl.js';
import { addExpirationHeader } from './lifecycle.js';
import { quoted } from './list.js';
import { checkLockRequest, requireUploadIntegrity } from '../lock-input.js';

export async function createMultipartUpload(call: BucketCall<OpOf<'CreateMultipartUpload'>>): Promise<void> {
  const key = call.op.address.key!;
  const checksum = call.op.checksum;
  checkLockRequest(call.bucket, call.op.lock);
  const upload = await call.ctx.engine.createUpload(call.ref, key, { ...call.op.fields, grants: uploadGrants(call, call.op.acl), lock: call.op.lock }, checksum);
  sendXml(
    call.x,
    200,
    s3Root('InitiateMultipartUploadResult', [
      ...(call.bucket.tenant ? [el('Tenant', call.bucket.tenant)] : []),
      el('Bucket', call.bucket.name),
      el('Key', key),
      el('UploadId', upload.uploadId),
    ]),
    checksum ? { 'x-amz-checksum-algorithm': CHECKSUM_NAMES[checksum.algorithm], 'x-amz-checksum-type': checksum.type } : {},
  );
}

/** `<ChecksumCRC32>…` elements, one per checksum, as CompleteMultipartUpload and ListParts show them. */
function checksumElements(checksums: Checksums | undefined): XmlNode[] {
  return CHECKSUM_ALGORITHMS.filter((a) => checksums?.[a]).map((a) => el(`Checksum${CHECKSUM_NAMES[a]}`, checksums![a]!));
}

/** The `<ChecksumCRC32>…` a completion lists for a part. */
function listedChecksums(part: unknown): Checksums | undefined {
  const out: Checksums = {};
  for (const a of CHECKSUM_ALGORITHMS) {
    const v = text(part, `Checksum${CHECKSUM_NAMES[a]}`);
    if (v) out[a] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

export async function uploadPart(call: BucketCall<OpOf<'UploadPart'>>): Promise<void> {
  const { op } = call;
  // A part of an object that will be locked needs an integrity header, as a PutObject does (AWS).
  if (call.bucket.objectLock) {
    const lock = call.ctx.engine.uploadLock(call.ref, op.address.key!, op.uploadId);
    if (lock.retention || lock.legalHold !== undefined || call.bucket.objectLock.defaultRetention) requireUploadIntegrity(op.payload, 'Put Part');
  }
  const payload = openPayload(call.x.req, op.payload, call.signing);
  const aborted = new AbortController();
  call.x.req.once('aborted', () => aborted.abort());
  const part = await call.ctx.engine.uploadPart(call.ref, op.address.key!, op.uploadId, op.partNumber, payload.body, {
    ...(payload.size !== undefined ? { size: payload.size } : {}),
    ...(payload.expectedMd5 ? { expectedMd5: payload.expectedMd5 } : {}),
    expectedChecksums: payload.expectedChecksums,
    checksumAlgorithms: payload.checksumAlgorithms,
    ...(payload.contentSha256 ? { contentSha256: payload.contentSha256 } : {}),
    signal: aborted.signal,
  });
  sendEmpty(call.x, 200, addChecksumHeaders(part.checksums, { ETag: quoted(part.etag) }));
}

/** CompleteMultipartUpload (§24): the part list must be well-formed XML in ascending order. */
export async function completeMultipartUpload(call: BucketCall<OpOf<'CompleteMultipartUpload'>>): Promise<void> {
  const { op } = call;
  const doc = await readXml(call.x.req, op.document);
  const root = doc?.CompleteMultipartUpload as { Part?: unknown[] } | undefined;
  if (!root || !Array.isArray(root.Part) || root.Part.length === 0) throw s3.malformedXml();
  const parts = root.Part.map((p) => {
    const n = text(p, 'PartNumber');
    const etag = text(p, 'ETag');
    if (!n || !/^\d+$/.test(n) || etag === undefined) throw s3.malformedXml();
    const checksums = listedChecksums(p);
    return { partNumber: Number(n), etag, ...(checksums ? { checksums } : {}) };
  });
  const key = op.address.key!;
  const info = await call.ctx.engine.completeUpload(call.ref, key, op.uploadId, parts, op.objectChecksums, op.conditions);
  const checksummed = Object.keys(info.checksums).length > 0;
  const host = op.host ?? '127.0.0.1';
  const bucketPath = call.bucket.tenant ? `${call.bucket.tenant}:${call.bucket.name}` : call.bucket.name;
  sendXml(
    call.x,
    200,
    s3Root('CompleteMultipartUploadResult', [
      el('Location', `http://${host}/${bucketPath}/${awsEncode(key, true)}`),
      el('Bucket', call.bucket.name),
      el('Key', key),
      el('ETag', quoted(info.etag)),
      ...checksumElements(info.checksums),
      ...(checksummed ? [el('ChecksumType', info.checksumType)] : []),
    ]),
    // x-amz-expiration when a lifecycle rule will expire the object made, as AWS says on the completion.
    addExpirationHeader(call.bucket, info, call.ctx.engine.options.lifecycleDayMs, info.versionId !== null ? { 'x-amz-version-id': info.versionId } : {}),
  );
}

export async function abortMultipartUpload(call: BucketCall<OpOf<'AbortMultipartUpload'>>): Promise<void> {
  await call.ctx.engine.abortUpload(call.ref, call.op.address.key!, call.op.uploadId);
  sendEmpty(call.x, 204);
}

export function listParts(call: BucketCall<OpOf<'ListParts'>>): void {
  const { op } = call;
  const { partNumberMarker: marker, maxParts: max, after } = op;
  const { parts, truncated, upload } = call.ctx.engine.listParts(call.ref, op.address.key!, op.uploadId, {
    maxParts: max,
    ...(after !== undefined ? { partNumberMarker: after } : {}),
  });
  const a = call.ctx.engine.getAccount(call.bucket.owner);
  const who = [el('ID', a.id), el('DisplayName', a.displayName)];
  sendXml(
    call.x,
    200,
    s3Root('ListPartsResult', [
      el('Bucket', call.bucket.name),
      el('Key', op.address.key!),
      el('UploadId', op.uploadId),
      el('Initiator', who),
      el('Owner', who),
      el('StorageClass', 'STANDARD'),
      ...(upload.checksumAlgorithm ? [el('ChecksumAlgorithm', CHECKSUM_NAMES[upload.checksumAlgorithm]), el('ChecksumType', upload.checksumType ?? 'COMPOSITE')] : []),
      el('PartNumberMarker', marker ?? '0'),
      // The last part listed, 0 for none, as RGW and Swift's s3api (written against AWS) say it.
      el('NextPartNumberMarker', parts.at(-1)?.partNumber ?? 0),
      el('MaxParts', max),
      el('IsTruncated', truncated ? 'true' : 'false'),
      ...parts.map((p) => el('Part', [el('PartNumber', p.partNumber), el('LastModified', isoMillis(p.lastModified)), el('ETag', quoted(p.etag)), el('Size', p.size), ...checksumElements(p.checksums)])),
    ]),
  );
}
