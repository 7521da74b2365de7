import { uploadChecksum, verifyBytes, type ChecksumAlgorithm, type Checksums, type UploadChecksum } from '../../engine/index.js';
import type { IncomingMessage } from 'node:http';
import { decodeAwsChunked } from './aws-chunked.js';
import { SIGNED_HASH } from './canonical.js';
import { S3Error } from './errors.js';
import type { DocumentCheck, PayloadSpec } from './operation.js';
import { headerOf, type RequestHeaders } from './params.js';
import type { SigV4Context } from './sigv4.js';

const ALGORITHMS: Record<string, ChecksumAlgorithm> = { crc32: 'crc32', crc32c: 'crc32c', crc64nvme: 'crc64nvme', sha1: 'sha1', sha256: 'sha256' };
const KNOWN_CHECKSUMS = Object.keys(ALGORITHMS);

/** A request body ready for the engine: the decoded bytes and what they must hash to. */
export interface RequestPayload {
  body: AsyncIterable<Uint8Array>;
  size?: number;
  expectedMd5?: string;
  /** Filled as late as the aws-chunked trailer; the engine reads it after the last byte. */
  expectedChecksums: Checksums;
  checksumAlgorithms: ChecksumAlgorithm[];
  /** The signed payload hash (lowercase hex) the engine checks as it receives the bytes. */
  contentSha256?: string;
}

/** `x-amz-checksum-*` given (at most one), with what the SDK declares it will send (header or trailer). */
function checksumHeaders(headers: RequestHeaders): { expected: Checksums; algorithms: ChecksumAlgorithm[] } {
  const expected: Checksums = {};
  const algorithms: ChecksumAlgorithm[] = [];
  const given = KNOWN_CHECKSUMS.filter((a) => headerOf(headers, `x-amz-checksum-${a}`) !== undefined);
  if (given.length > 1) throw new S3Error(400, 'InvalidRequest', 'Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.');
  for (const a of given) {
    const alg = ALGORITHMS[a];
    if (alg) expected[alg] = headerOf(headers, `x-amz-checksum-${a}`)!;
  }
  const declared = headerOf(headers, 'x-amz-sdk-checksum-algorithm')?.toLowerCase();
  if (declared && ALGORITHMS[declared]) algorithms.push(ALGORITHMS[declared]);
  const trailer = headerOf(headers, 'x-amz-trailer')?.toLowerCase().replace(/^x-amz-checksum-/, '');
  if (trailer && ALGORITHMS[trailer]) algorithms.push(ALGORITHMS[trailer]);
  return { expected, algorithms };
}

/** CreateMultipartUpload's x-amz-checksum-algorithm and -type, by AWS's rules (the engine's). */
export function uploadChecksumOf(h: (name: string) => string | undefined): UploadChecksum | undefined {
  const name = h('x-amz-checksum-algorithm');
  const type = h('x-amz-checksum-type')?.toUpperCase();
  if (type !== undefined && type !== 'COMPOSITE' && type !== 'FULL_OBJECT') throw new S3Error(400, 'InvalidRequest', 'Value for x-amz-checksum-type header is invalid.');
  if (name === undefined) {
    if (type !== undefined) throw new S3Error(400, 'InvalidRequest', 'The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.');
    return undefined;
  }
  const algorithm = ALGORITHMS[name.toLowerCase()];
  if (!algorithm) throw new S3Error(400, 'InvalidRequest', 'Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]');
  const chosen = uploadChecksum(algorithm, type);
  if ('problem' in chosen) throw new S3Error(400, 'InvalidRequest', chosen.problem);
  return chosen;
}

function contentMd5(headers: RequestHeaders): string | undefined {
  const v = headerOf(headers, 'content-md5');
  if (v === undefined) return undefined;
  const bytes = Buffer.from(v, 'base64');
  if (bytes.length !== 16 || bytes.toString('base64') !== v.trim()) throw new S3Error(400, 'InvalidDigest', 'The Content-MD5 you specified was invalid.');
  return bytes.toString('hex');
}

/** Works out the body framing from x-amz-content-sha256 (§18.1) and the integrity headers (§18.4). */
export function payloadSpec(headers: RequestHeaders): PayloadSpec {
  const mode = headerOf(headers, 'x-amz-content-sha256') ?? 'UNSIGNED-PAYLOAD';
  const expectedMd5 = contentMd5(headers);
  const { expected, algorithms } = checksumHeaders(headers);
  const spec: PayloadSpec = { size: undefined, expectedMd5, expectedChecksums: expected, checksumAlgorithms: algorithms, contentSha256: undefined, chunked: undefined };
  if (mode.startsWith('STREAMING-')) {
    if (mode.includes('ECDSA')) throw new S3Error(501, 'NotImplemented', 'SigV4a (ECDSA) streaming signatures are not supported.');
    const decoded = headerOf(headers, 'x-amz-decoded-content-length');
    if (decoded === undefined || !/^\d+$/.test(decoded)) throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
    const signed = mode === 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' || mode === 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER';
    if (!signed && mode !== 'STREAMING-UNSIGNED-PAYLOAD-TRAILER') throw new S3Error(400, 'InvalidRequest', `Unknown payload mode ${mode}`);
    spec.size = Number(decoded);
    spec.chunked = { signed, trailer: mode.endsWith('-TRAILER') };
    return spec;
  }
  const length = headerOf(headers, 'content-length');
  if (length === undefined && !/chunked/i.test(headerOf(headers, 'transfer-encoding') ?? '')) {
    throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
  }
  if (length !== undefined) spec.size = Number(length);
  if (SIGNED_HASH.test(mode)) spec.contentSha256 = mode.toLowerCase();
  else if (mode !== 'UNSIGNED-PAYLOAD') throw new S3Error(400, 'InvalidArgument', `Invalid x-amz-content-sha256: ${mode}`);
  return spec;
}

/** The request body as the engine reads it: aws-chunked decoded (its chunk signatures checked), else as sent. */
export function openPayload(req: IncomingMessage, spec: PayloadSpec, signing: SigV4Context | undefined): RequestPayload {
  // A copy per request: the trailer fills in the checksums it carries.
  const p: RequestPayload = { body: req, expectedChecksums: { ...spec.expectedChecksums }, checksumAlgorithms: spec.checksumAlgorithms };
  if (spec.expectedMd5) p.expectedMd5 = spec.expectedMd5;
  if (spec.size !== undefined) p.size = spec.size;
  if (spec.contentSha256) p.contentSha256 = spec.contentSha256;
  const chunked = spec.chunked;
  if (!chunked) return p;
  if (chunked.signed && !signing) throw new S3Error(400, 'InvalidRequest', 'Signed streaming payloads need SigV4 header authentication.');
  p.body = decodeAwsChunked(req, {
    ...(chunked.signed ? { signing: signing! } : {}),
    signedTrailer: chunked.trailer,
    decodedLength: spec.size!,
    onTrailer: (name, value) => {
      const alg = ALGORITHMS[name.replace(/^x-amz-checksum-/, '')];
      if (alg) p.expectedChecksums[alg] = value;
    },
  });
  return p;
}

function orError<T>(read: () => T): T | S3Error {
  try {
    return read();
  } catch (err) {
    if (err instanceof S3Error) return err;
    throw err;
  }
}

/**
 * The operations whose document AWS takes only with an integrity header (DeleteObjects,
 * PutBucketCors, PutBucketLifecycleConfiguration): Content-MD5 or, as current SDKs send instead,
 * an x-amz-checksum-*. Without either, AWS answers InvalidRequest with these words.
 */
export function requireIntegrityHeader(headers: RequestHeaders): void {
  if (headerOf(headers, 'content-md5') !== undefined) return;
  if (KNOWN_CHECKSUMS.some((a) => headerOf(headers, `x-amz-checksum-${a}`) !== undefined)) return;
  throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: Content-MD5 OR x-amz-checksum-*');
}

/** The integrity headers of a document body, read before the body arrives; checked by verifyDocument. */
export function documentCheck(headers: RequestHeaders): DocumentCheck {
  const mode = headerOf(headers, 'x-amz-content-sha256');
  return {
    streaming: mode?.startsWith('STREAMING-') ?? false,
    sha256: mode && SIGNED_HASH.test(mode) ? mode.toLowerCase() : undefined,
    checksums: orError(() => checksumHeaders(headers).expected),
    md5: orError(() => contentMd5(headers)),
  };
}

/**
 * Checks a small document body (XML, policy JSON) read whole: against the signed
 * x-amz-content-sha256 (else a valid signature would cover any body) and against Content-MD5 or
 * the x-amz-checksum-* that SDKs send on DeleteObjects (§22.5), by the engine's rule for object
 * bytes (verifyBytes). Object bytes go through openPayload instead; aws-chunked framing is only
 * accepted there (as RGW does). A malformed Content-MD5 or two checksum headers are told before a
 * signed SHA-256 mismatch, as for objects.
 */
export function verifyDocument(check: DocumentCheck, body: Buffer): void {
  if (check.streaming) throw new S3Error(400, 'InvalidRequest', 'aws-chunked payloads are only accepted for object data.');
  if (check.checksums instanceof S3Error) throw check.checksums;
  if (check.md5 instanceof S3Error) throw check.md5;
  verifyBytes(body, {
    expectedChecksums: check.checksums,
    ...(check.md5 !== undefined ? { expectedMd5: check.md5 } : {}),
    ...(check.sha256 !== undefined ? { contentSha256: check.sha256 } : {}),
  });
}
