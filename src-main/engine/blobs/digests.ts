import { CofferError } from '../../../src-shared/errors.js';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm, type Checksums } from '../types.js';
import { BodyHasher } from './hashing.js';

/** What a body must hash to, as its sender said: each digest given is checked. */
export interface DigestExpectations {
  /** Lowercase hex MD5 (S3's Content-MD5, Swift's ETag): BadDigest otherwise. */
  expectedMd5?: string;
  /** Checksums (base64) the bytes must have: BadDigest otherwise, naming the checksum in details. */
  expectedChecksums?: Checksums;
  /** Lowercase hex SHA-256 the bytes must have (the payload hash a SigV4 signature covers): ContentSha256Mismatch otherwise. */
  contentSha256?: string;
}

export const CHECKSUM_NAMES: Record<ChecksumAlgorithm, string> = { crc32: 'CRC32', crc32c: 'CRC32C', crc64nvme: 'CRC64NVME', sha1: 'SHA1', sha256: 'SHA256' };

/** The checksums to compute (besides MD5, always) to judge `want`, and those to keep. */
export function algorithmsFor(want: DigestExpectations, keep: Iterable<ChecksumAlgorithm> = []): Set<ChecksumAlgorithm> {
  const algorithms = new Set(keep);
  for (const a of CHECKSUM_ALGORITHMS) if (want.expectedChecksums?.[a]) algorithms.add(a);
  if (want.contentSha256 !== undefined) algorithms.add('sha256');
  return algorithms;
}

/**
 * Judges the digests computed over a body against what it had to hash to: the signed SHA-256
 * first (a mismatch there means another body than the one signed), then the MD5, then each
 * checksum. The one rule for object bytes and for the small documents a front end reads whole.
 */
export function checkDigests(got: { md5: string; checksums: Checksums }, want: DigestExpectations): void {
  if (want.contentSha256 !== undefined && Buffer.from(got.checksums.sha256 ?? '', 'base64').toString('hex') !== want.contentSha256) {
    throw new CofferError('ContentSha256Mismatch', 'The body does not match the SHA-256 it was sent with');
  }
  if (want.expectedMd5 !== undefined && want.expectedMd5.toLowerCase() !== got.md5) {
    throw new CofferError('BadDigest', 'The Content-MD5 or ETag you specified did not match what we received', { md5: got.md5 });
  }
  for (const a of CHECKSUM_ALGORITHMS) {
    const expected = want.expectedChecksums?.[a];
    if (expected !== undefined && expected !== got.checksums[a]) {
      throw new CofferError('BadDigest', `The ${CHECKSUM_NAMES[a]} you specified did not match the calculated checksum.`, { checksum: CHECKSUM_NAMES[a] });
    }
  }
}

/** Checks bytes held whole (a document read in full, not stored) against what they must hash to. */
export function verifyBytes(bytes: Uint8Array, want: DigestExpectations): void {
  const hasher = new BodyHasher(algorithmsFor(want));
  hasher.update(bytes);
  checkDigests(hasher.finish(), want);
}
