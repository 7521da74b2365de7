// Signing for the few requests the remote S3 backend sends itself (remote-compat-direct.ts):
// AWS Signature Version 4 with the connection's credentials and region, header-signed with
// UNSIGNED-PAYLOAD (the body is protected by Content-MD5 instead). Written here rather than taken
// from the SDK's signer: that one derives the signing key's cache key with two HMACs and wraps
// every hash in objects and promises, a fifth of the client's CPU per 4 KiB request; this one
// keeps the day's signing key and costs one SHA-256 and one HMAC a request. A test signs the
// same requests with the SDK's signer and compares (tests/backends/remote-compat-sign.test.ts).
import { createHmac, hash } from 'node:crypto';

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

/** A header value as SigV4 signs it: trimmed, runs of spaces made one (most values have none to fold). */
const signedValue = (v: string) => (FOLDABLE.test(v) ? v.trim().replace(/\s+/g, ' ') : v);
const FOLDABLE = /^\s|\s$|\s\s|[\t\n\r\v\f]/;

/**
 * A signer for one connection: returns the request's headers with x-amz-date,
 * x-amz-content-sha256 (UNSIGNED-PAYLOAD), the session token if any, and Authorization. Every
 * header given is signed, `host` among them; `now` is for tests. The day's signing key and the
 * second's x-amz-date are kept: a folder of small files signs thousands of requests a second.
 */
export function signerFor(creds: SigningCredentials): (request: UnsignedRequest, now?: Date) => Record<string, string> {
  let keyDay = '';
  let key: Buffer = Buffer.alloc(0);
  let second = NaN;
  let amzDate = '';
  return (request, now = new Date()) => {
    const at = Math.floor(now.getTime() / 1000);
    if (at !== second) {
      amzDate = amzDateOf(now);
      second = at;
    }
    const day = amzDate.slice(0, 8);
    if (day !== keyDay) {
      key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), 's3'), 'aws4_request');
      keyDay = day;
    }
    // Copied key by key: an object spread of the same measured 3 µs more a request, most of the signing.
    const headers: Record<string, string> = {};
    for (const n in request.headers) headers[n] = request.headers[n]!;
    headers['x-amz-content-sha256'] = UNSIGNED_PAYLOAD;
    headers['x-amz-date'] = amzDate;
    if (creds.sessionToken) headers['x-amz-security-token'] = creds.sessionToken;
    const names = Object.keys(headers).sort();
    let canonicalHeaders = '';
    for (const n of names) canonicalHeaders += `${n}:${signedValue(headers[n]!)}\n`;
    const signedHeaders = names.join(';');
    const canonical = `${request.method}\n${request.path}\n${queryString(request.query)}\n${canonicalHeaders}\n${signedHeaders}\n${UNSIGNED_PAYLOAD}`;
    const scope = `${day}/${creds.region}/s3/aws4_request`;
    const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${hash('sha256', canonical, 'hex')}`;
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
    return headers;
  };
}
