import { isoMillis } from '../../common/dates.js';
import { awsEncode } from '../canonical.js';
import { el } from '../../common/xml.js';
import { s3 } from '../errors.js';
import { addChecksumHeaders } from '../metadata.js';
import { requestPayload } from '../payload.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';
import { int32Param, maxKeys, quoted } from './list.js';
import { objectFields } from './object.js';

export function partNumberOf(call: BucketCall): number {
  const raw = call.x.param('partNumber');
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 10000) {
    throw s3.invalidArgument('Part number must be an integer between 1 and 10000, inclusive', { ArgumentName: 'partNumber', ArgumentValue: raw ?? '' });
  }
  return Number(raw);
}

function uploadIdOf(call: BucketCall): string {
  return call.x.param('uploadId') ?? '';
}

export async function createMultipartUpload(call: BucketCall): Promise<void> {
  const key = call.address.key!;
  const upload = await call.ctx.engine.createUpload(call.ref, key, objectFields(call));
  sendXml(
    call.x,
    200,
    s3Root('InitiateMultipartUploadResult', [
      ...(call.bucket.tenant ? [el('Tenant', call.bucket.tenant)] : []),
      el('Bucket', call.bucket.name),
      el('Key', key),
      el('UploadId', upload.uploadId),
    ]),
  );
}

export async function uploadPart(call: BucketCall): Promise<void> {
  const partNumber = partNumberOf(call);
  const payload = requestPayload(call.x, call.signing);
  const aborted = new AbortController();
  call.x.req.once('aborted', () => aborted.abort());
  const part = await call.ctx.engine.uploadPart(call.ref, call.address.key!, uploadIdOf(call), partNumber, payload.body, {
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
export async function completeMultipartUpload(call: BucketCall): Promise<void> {
  const doc = await readXml(call.x);
  const root = doc?.CompleteMultipartUpload as { Part?: unknown[] } | undefined;
  if (!root || !Array.isArray(root.Part) || root.Part.length === 0) throw s3.malformedXml();
  const parts = root.Part.map((p) => {
    const n = text(p, 'PartNumber');
    const etag = text(p, 'ETag');
    if (!n || !/^\d+$/.test(n) || etag === undefined) throw s3.malformedXml();
    return { partNumber: Number(n), etag };
  });
  const key = call.address.key!;
  const info = await call.ctx.engine.completeUpload(call.ref, key, uploadIdOf(call), parts);
  const host = call.x.header('host') ?? '127.0.0.1';
  const bucketPath = call.bucket.tenant ? `${call.bucket.tenant}:${call.bucket.name}` : call.bucket.name;
  sendXml(
    call.x,
    200,
    s3Root('CompleteMultipartUploadResult', [
      el('Location', `http://${host}/${bucketPath}/${awsEncode(key, true)}`),
      el('Bucket', call.bucket.name),
      el('Key', key),
      el('ETag', quoted(info.etag)),
    ]),
    info.versionId !== null ? { 'x-amz-version-id': info.versionId } : {},
  );
}

export async function abortMultipartUpload(call: BucketCall): Promise<void> {
  await call.ctx.engine.abortUpload(call.ref, call.address.key!, uploadIdOf(call));
  sendEmpty(call.x, 204);
}

export function listParts(call: BucketCall): void {
  const marker = call.x.param('part-number-marker');
  const max = maxKeys(call.x.param('max-parts'), 'max-parts');
  // RGW refuses a marker that is no integer (strict_strtol); a negative one lists from the start.
  const after = marker ? Math.max(0, int32Param(marker, 'part-number-marker')) : undefined;
  const { parts, truncated } = call.ctx.engine.listParts(call.ref, call.address.key!, uploadIdOf(call), {
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
      el('Key', call.address.key!),
      el('UploadId', uploadIdOf(call)),
      el('Initiator', who),
      el('Owner', who),
      el('StorageClass', 'STANDARD'),
      el('PartNumberMarker', marker ?? '0'),
      ...(parts.length ? [el('NextPartNumberMarker', parts.at(-1)!.partNumber)] : []),
      el('MaxParts', max),
      el('IsTruncated', truncated ? 'true' : 'false'),
      ...parts.map((p) => el('Part', [el('PartNumber', p.partNumber), el('LastModified', isoMillis(p.lastModified)), el('ETag', quoted(p.etag)), el('Size', p.size)])),
    ]),
  );
}
