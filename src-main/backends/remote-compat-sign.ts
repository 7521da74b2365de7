// Signing for the few requests the remote S3 backend sends itself (remote-compat-direct.ts):
// AWS Signature Version 4 with the connection's credentials and region, header-signed with
// UNSIGNED-PAYLOAD (the body is protected by Content-MD5 instead). Written here rather than taken
// from the SDK's signer: that one derives the signing key's cache key with two HMACs and wraps
// every hash in objects and promises, a fifth of the client's CPU per 4 KiB request; this one
// keeps the day's signing key and costs one SHA-256 and one HMAC a request. A test signs the
// same requests with the SDK's signer and compares (tests/backends/remote-compat-sign.test.ts).
import { createHash, createHmac } from 'node:crypto';

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

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
}

/** `20261126T033839Z`: the request's time to the second, as x-amz-date carries it. */
const amzDateOf = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * A signer for one connection: returns the request's headers with x-amz-date,
 * x-amz-content-sha256 (UNSIGNED-PAYLOAD), the session token if any, and Authorization. Every
 * header given is signed, `host` among them; `now` is for tests.
 */
export function signerFor(creds: SigningCredentials): (request: UnsignedRequest, now?: Date) => Record<string, string> {
  let keyDay = '';
  let key: Buffer = Buffer.alloc(0);
  return (request, now = new Date()) => {
    const amzDate = amzDateOf(now);
    const day = amzDate.slice(0, 8);
    if (day !== keyDay) {
      key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), 's3'), 'aws4_request');
      keyDay = day;
    }
    const headers: Record<string, string> = { ...request.headers, 'x-amz-content-sha256': UNSIGNED_PAYLOAD, 'x-amz-date': amzDate };
    if (creds.sessionToken) headers['x-amz-security-token'] = creds.sessionToken;
    const names = Object.keys(headers).sort();
    const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}\n`).join('');
    const signedHeaders = names.join(';');
    const canonical = [request.method, request.path, queryString(request.query), canonicalHeaders, signedHeaders, UNSIGNED_PAYLOAD].join('\n');
    const scope = `${day}/${creds.region}/s3/aws4_request`;
    const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`;
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
    return headers;
  };
}
