import { RETENTION_MODES, type ContainerInfo, type LockSettings, type RetentionMode } from '../../engine/index.js';
import { S3Error, s3 } from './errors.js';
import type { DocumentCheck, PayloadSpec } from './operation.js';

/** An ISO 8601 date-time as AWS takes it in a lock header or document; NaN when it is none. */
export function isoDateTime(s: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) ? Date.parse(s) : NaN;
}

export const isRetentionMode = (s: string | undefined): s is RetentionMode => (RETENTION_MODES as readonly (string | undefined)[]).includes(s);

/**
 * `x-amz-object-lock-mode`, `-retain-until-date` and `-legal-hold` of PutObject, CopyObject and
 * CreateMultipartUpload (undefined: none given), refused as AWS words it. Whether the bucket
 * has object lock, and whether the date is ahead, are the handler's (checkLockRequest).
 */
export function lockHeaders(h: (name: string) => string | undefined): LockSettings | undefined {
  const mode = h('x-amz-object-lock-mode');
  const date = h('x-amz-object-lock-retain-until-date');
  const hold = h('x-amz-object-lock-legal-hold');
  if (mode === undefined && date === undefined && hold === undefined) return undefined;
  const out: LockSettings = {};
  if (hold !== undefined) {
    if (hold !== 'ON' && hold !== 'OFF') throw s3.invalidArgument("Legal Hold must be either of 'ON' or 'OFF'");
    out.legalHold = hold === 'ON';
  }
  if ((mode === undefined) !== (date === undefined)) throw s3.invalidArgument('x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both be supplied');
  if (mode !== undefined && date !== undefined) {
    if (!isRetentionMode(mode)) throw s3.invalidArgument('Unknown wormMode directive.');
    const until = isoDateTime(date);
    if (Number.isNaN(until)) throw s3.invalidArgument('The retain until date must be provided in ISO 8601 format');
    out.retention = { mode, until };
  }
  return out;
}

/** `x-amz-bypass-governance-retention: true` (what the SDKs send; any other value asks nothing). */
export const bypassAsked = (h: (name: string) => string | undefined): boolean => h('x-amz-bypass-governance-retention')?.trim().toLowerCase() === 'true';

const MISSING_LOCK = 'Bucket is missing Object Lock Configuration';

/** Object lock asked of a bucket without it: AWS's 400 InvalidRequest (retention, legal hold, lock headers). */
export function requireLockBucket(bucket: ContainerInfo): void {
  if (!bucket.objectLock) throw s3.invalidRequest(MISSING_LOCK);
}

/**
 * `x-amz-bypass-governance-retention` where there is no governance to bypass: AWS refuses the
 * request (400 InvalidArgument, its words) rather than ignoring the header, so a client that
 * thought the bucket locked learns it is not before anything is deleted.
 */
export function requireBypassApplicable(bucket: ContainerInfo, asked: boolean): void {
  if (asked && !bucket.objectLock) throw s3.invalidArgument('x-amz-bypass-governance-retention is only applicable to Object Lock enabled buckets.');
}

/** A retention must end in the future (AWS checks it when the request arrives). */
export function requireFuture(until: number): void {
  if (until <= Date.now()) throw s3.invalidArgument('The retain until date must be in the future!');
}

/** A write's lock headers against its bucket: object lock enabled there, a retention date ahead. */
export function checkLockRequest(bucket: ContainerInfo, lock: LockSettings | undefined): void {
  if (!lock) return;
  requireLockBucket(bucket);
  if (lock.retention) requireFuture(lock.retention.until);
}

/**
 * AWS wants an upload that will be locked (lock headers, or a bucket with a default retention)
 * to carry Content-MD5 or an x-amz-checksum-* (sent, or promised in the aws-chunked trailer);
 * each part of a multipart upload too ('Put Part'), x-amz-content-sha256 not being enough.
 */
export function requireUploadIntegrity(payload: PayloadSpec, request: 'Put Object' | 'Put Part' = 'Put Object'): void {
  if (payload.expectedMd5 !== undefined || Object.keys(payload.expectedChecksums).length > 0 || payload.checksumAlgorithms.length > 0) return;
  throw s3.invalidRequest(`Content-MD5 OR x-amz-checksum- HTTP header is required for ${request} requests with Object Lock parameters`);
}

/** PutObjectLockConfiguration, -Retention and -LegalHold need Content-MD5 or an x-amz-checksum-* (AWS; SDKs send one). */
export function requireDocumentIntegrity(doc: DocumentCheck): void {
  const checksums = doc.checksums instanceof S3Error || Object.keys(doc.checksums).length > 0;
  if (doc.md5 !== undefined || checksums) return;
  throw s3.invalidRequest('Missing required header for this request: Content-MD5 OR x-amz-checksum-*');
}
