import { createHash } from 'node:crypto';
import { CofferError } from '../../../src-shared/errors.js';
import { combineCrcs, crcOf, type CombinableCrc } from '../blobs/crc.js';
import { CHECKSUM_NAMES } from '../blobs/digests.js';
import type { PartRecord } from '../index/store.js';
import type { ChecksumAlgorithm, ChecksumType, Checksums } from '../types.js';

/** The checksum a multipart upload was created with (x-amz-checksum-algorithm / -type). */
export interface UploadChecksum {
  algorithm: ChecksumAlgorithm;
  type: ChecksumType;
}

const CRCS: readonly ChecksumAlgorithm[] = ['crc32', 'crc32c', 'crc64nvme'];

/**
 * AWS's rules: SHA checksums can only be COMPOSITE, CRC64NVME only FULL_OBJECT, the 32-bit CRCs
 * either (COMPOSITE unless asked). Returns the upload's checksum, or what is wrong (AWS's words).
 */
export function uploadChecksum(algorithm: ChecksumAlgorithm, type: ChecksumType | undefined): UploadChecksum | { problem: string } {
  const chosen = type ?? (algorithm === 'crc64nvme' ? 'FULL_OBJECT' : 'COMPOSITE');
  if (chosen === 'FULL_OBJECT' && !CRCS.includes(algorithm)) return { problem: `The FULL_OBJECT checksum type cannot be used with the ${algorithm} checksum algorithm.` };
  if (chosen === 'COMPOSITE' && algorithm === 'crc64nvme') return { problem: 'The COMPOSITE checksum type cannot be used with the crc64nvme checksum algorithm.' };
  return { algorithm, type: chosen };
}

/** Checks the checksums a CompleteMultipartUpload lists for its parts against those stored: InvalidPart otherwise. */
export function checkListedPartChecksums(parts: PartRecord[], listed: (Checksums | undefined)[]): void {
  parts.forEach((p, i) => {
    for (const [alg, value] of Object.entries(listed[i] ?? {}) as [ChecksumAlgorithm, string][]) {
      if (p.checksums?.[alg] !== value) {
        throw new CofferError('InvalidPart', `One or more of the specified parts could not be found. The part may not have been uploaded, or the specified ${CHECKSUM_NAMES[alg]} checksum may not have matched the part's checksum.`, { partNumber: p.partNumber });
      }
    }
  });
}

function digestOf(alg: ChecksumAlgorithm, bytes: Buffer): Buffer {
  if (alg === 'sha1' || alg === 'sha256') return createHash(alg).update(bytes).digest();
  return crcOf(alg as CombinableCrc, bytes);
}

/**
 * The object's checksum from its parts': COMPOSITE, the checksum of the parts' binary checksums
 * then `-<parts>`; FULL_OBJECT, the parts' CRCs combined into the CRC of all the bytes. A part
 * without the upload's checksum (uploaded before... never: uploadPart computes it) is InvalidPart.
 */
export function objectChecksum(c: UploadChecksum, parts: PartRecord[]): Checksums {
  const raw = parts.map((p) => {
    const value = p.checksums?.[c.algorithm];
    if (!value) throw new CofferError('InvalidPart', `Part ${p.partNumber} has no ${CHECKSUM_NAMES[c.algorithm]} checksum.`);
    return Buffer.from(value, 'base64');
  });
  if (c.type === 'COMPOSITE') return { [c.algorithm]: `${digestOf(c.algorithm, Buffer.concat(raw)).toString('base64')}-${parts.length}` };
  const pieces = parts.map((p, i) => ({ crc: raw[i]!, size: p.size }));
  return { [c.algorithm]: combineCrcs(c.algorithm as CombinableCrc, pieces).toString('base64') };
}

/** A whole-object checksum sent with the completion (FULL_OBJECT uploads): BadDigest when it differs. */
export function checkCompletionChecksum(got: Checksums, expected: Checksums | undefined): void {
  for (const [alg, value] of Object.entries(expected ?? {}) as [ChecksumAlgorithm, string][]) {
    if (got[alg] !== undefined && got[alg] !== value) {
      throw new CofferError('BadDigest', `The ${CHECKSUM_NAMES[alg]} you specified did not match the calculated checksum.`, { checksum: CHECKSUM_NAMES[alg] });
    }
  }
}
