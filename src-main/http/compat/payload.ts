import { verifyBytes, type ChecksumAlgorithm, type Checksums } from '../../engine/index.js';
import type { Exchange } from '../common/exchange.js';
import { decodeAwsChunked } from './aws-chunked.js';
import { SIGNED_HASH } from './canonical.js';
import { S3Error } from './errors.js';
import type { SigV4Context } from './sigv4.js';

const ALGORITHMS: Record<string, ChecksumAlgorithm> = { crc32: 'crc32', crc32c: 'crc32c', sha1: 'sha1', sha256: 'sha256' };
const KNOWN_CHECKSUMS = [...Object.keys(ALGORITHMS), 'crc64nvme'];

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

function checksumHeaders(x: Exchange, p: RequestPayload): void {
  const given = KNOWN_CHECKSUMS.filter((a) => x.header(`x-amz-checksum-${a}`) !== undefined);
  if (given.length > 1) throw new S3Error(400, 'InvalidRequest', 'Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.');
  for (const a of given) {
    const alg = ALGORITHMS[a];
    if (alg) p.expectedChecksums[alg] = x.header(`x-amz-checksum-${a}`)!;
  }
  const declared = x.header('x-amz-sdk-checksum-algorithm')?.toLowerCase();
  if (declared && ALGORITHMS[declared]) p.checksumAlgorithms.push(ALGORITHMS[declared]);
  const trailer = x.header('x-amz-trailer')?.toLowerCase().replace(/^x-amz-checksum-/, '');
  if (trailer && ALGORITHMS[trailer]) p.checksumAlgorithms.push(ALGORITHMS[trailer]);
}

function contentMd5(x: Exchange): string | undefined {
  const v = x.header('content-md5');
  if (v === undefined) return undefined;
  const bytes = Buffer.from(v, 'base64');
  if (bytes.length !== 16 || bytes.toString('base64') !== v.trim()) throw new S3Error(400, 'InvalidDigest', 'The Content-MD5 you specified was invalid.');
  return bytes.toString('hex');
}

/** Works out the body framing from x-amz-content-sha256 (§18.1) and the integrity headers (§18.4). */
export function requestPayload(x: Exchange, signing: SigV4Context | undefined): RequestPayload {
  const mode = x.header('x-amz-content-sha256') ?? 'UNSIGNED-PAYLOAD';
  const md5 = contentMd5(x);
  const p: RequestPayload = {
    body: x.req,
    expectedChecksums: {},
    checksumAlgorithms: [],
    ...(md5 ? { expectedMd5: md5 } : {}),
  };
  checksumHeaders(x, p);
  if (mode.startsWith('STREAMING-')) {
    if (mode.includes('ECDSA')) throw new S3Error(501, 'NotImplemented', 'SigV4a (ECDSA) streaming signatures are not supported.');
    const decoded = x.header('x-amz-decoded-content-length');
    if (decoded === undefined || !/^\d+$/.test(decoded)) throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
    const signed = mode === 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' || mode === 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER';
    if (signed && !signing) throw new S3Error(400, 'InvalidRequest', 'Signed streaming payloads need SigV4 header authentication.');
    if (!signed && mode !== 'STREAMING-UNSIGNED-PAYLOAD-TRAILER') throw new S3Error(400, 'InvalidRequest', `Unknown payload mode ${mode}`);
    p.size = Number(decoded);
    p.body = decodeAwsChunked(x.req, {
      ...(signed ? { signing: signing! } : {}),
      signedTrailer: mode.endsWith('-TRAILER'),
      decodedLength: p.size,
      onTrailer: (name, value) => {
        const alg = ALGORITHMS[name.replace(/^x-amz-checksum-/, '')];
        if (alg) p.expectedChecksums[alg] = value;
      },
    });
    return p;
  }
  const length = x.header('content-length');
  if (length === undefined && !/chunked/i.test(x.header('transfer-encoding') ?? '')) {
    throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
  }
  if (length !== undefined) p.size = Number(length);
  if (SIGNED_HASH.test(mode)) p.contentSha256 = mode.toLowerCase();
  else if (mode !== 'UNSIGNED-PAYLOAD') throw new S3Error(400, 'InvalidArgument', `Invalid x-amz-content-sha256: ${mode}`);
  return p;
}

/**
 * Checks a small document body (XML, policy JSON) read whole: against the signed
 * x-amz-content-sha256 (else a valid signature would cover any body) and against Content-MD5 or
 * the x-amz-checksum-* that SDKs send on DeleteObjects (§22.5), by the engine's rule for object
 * bytes (verifyBytes). Object bytes go through requestPayload instead; aws-chunked framing is
 * only accepted there (as RGW does).
 */
export function verifyDocument(x: Exchange, body: Buffer): void {
  const mode = x.header('x-amz-content-sha256');
  if (mode?.startsWith('STREAMING-')) throw new S3Error(400, 'InvalidRequest', 'aws-chunked payloads are only accepted for object data.');
  const p: RequestPayload = { body: x.req, expectedChecksums: {}, checksumAlgorithms: [] };
  checksumHeaders(x, p);
  const md5 = contentMd5(x);
  verifyBytes(body, {
    expectedChecksums: p.expectedChecksums,
    ...(md5 !== undefined ? { expectedMd5: md5 } : {}),
    ...(mode && SIGNED_HASH.test(mode) ? { contentSha256: mode.toLowerCase() } : {}),
  });
}
