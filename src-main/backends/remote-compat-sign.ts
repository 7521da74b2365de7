// Signing for the few requests the remote S3 backend sends itself (remote-compat-direct.ts): the
// SDK's own SigV4 signer (@smithy/signature-v4) with the S3 client's own credentials, region and
// SHA-256, header-signed with UNSIGNED-PAYLOAD (the body is protected by Content-MD5 instead).
import { SignatureV4 } from '@smithy/signature-v4';
import type { S3Client } from '@aws-sdk/client-s3';

export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** S3's URI encoding: everything but the unreserved characters (and `/` in a path). */
export function s3Encode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

/** `a=1&b=2`, names and values encoded, sorted by name: the query as sent. */
export function queryString(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${s3Encode(k)}=${s3Encode(params[k]!)}`)
    .join('&');
}

export interface UnsignedRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  /** Already URI-encoded as S3 signs it (S3 paths are not encoded a second time). */
  path: string;
  query: Record<string, string>;
  /** Names lower-case, `host` among them. */
  headers: Record<string, string>;
}

/** A signer bound to one S3 client: the credentials, region and hash the SDK itself signs with. */
export function signerFor(client: S3Client): (request: UnsignedRequest) => Promise<Record<string, string>> {
  const signer = new SignatureV4({
    credentials: client.config.credentials,
    region: client.config.region,
    service: 's3',
    sha256: client.config.sha256,
    // As the S3 client signs: the path as sent, not encoded again.
    uriEscapePath: false,
    applyChecksum: false,
  });
  return async (request) => {
    const signed = await signer.sign({ ...request, headers: { ...request.headers, 'x-amz-content-sha256': UNSIGNED_PAYLOAD } });
    return signed.headers;
  };
}
