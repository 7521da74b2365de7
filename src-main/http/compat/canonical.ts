import { createHmac, hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { decodeStrict } from '../common/url.js';

/** SigV4 URI encoding: every byte but A-Z a-z 0-9 - _ . ~ as %XY (upper-case); `/` kept in paths. */
export function awsEncode(s: string, keepSlash: boolean): string {
  const out = encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? out.replace(/%2F/g, '/') : out;
}

const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/;

/** Canonical URI candidates: re-encoded after one decode (the rule), then the path exactly as sent. */
export function canonicalUris(rawPath: string): string[] {
  // Unreserved characters and `/` only: decoding and re-encoding give the path back unchanged.
  if (PLAIN_PATH.test(rawPath)) return [rawPath || '/'];
  const decoded = decodeStrict(rawPath);
  const encoded = decoded === undefined ? rawPath : awsEncode(decoded, true);
  const first = encoded || '/';
  return first === (rawPath || '/') ? [first] : [first, rawPath || '/'];
}

/** Canonical query string (§16.3): decode each name and value (`+` stays `+`), re-encode, sort. */
export function canonicalQuery(rawQuery: string, omit?: string): string {
  if (!rawQuery) return '';
  const pairs: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const name = decodeStrict(rawName);
    if (name === omit) continue;
    const value = decodeStrict(rawValue);
    pairs.push([name === undefined ? rawName : awsEncode(name, false), value === undefined ? rawValue : awsEncode(value, false)]);
  }
  pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** `name:value\n` for each signed header: values trimmed, inner space runs collapsed, repeats joined by `,`. */
export function canonicalHeaders(req: IncomingMessage, signed: string[]): string {
  // Read from rawHeaders: building headersDistinct for every request cost more than this scan.
  const raw = req.rawHeaders;
  let out = '';
  for (const name of signed) {
    out += `${name}:`;
    let first = true;
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]!.length !== name.length || raw[i]!.toLowerCase() !== name) continue;
      out += `${first ? '' : ','}${raw[i + 1]!.trim().replace(/\s+/g, ' ')}`;
      first = false;
    }
    out += '\n';
  }
  return out;
}

export const sha256Hex = (data: string | Buffer) => hash('sha256', data, 'hex');
export const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

const signingKeys = new Map<string, Buffer>();

/** kSigning of §16.4, cached per secret, day and region (clients sign thousands of requests a day). */
export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const id = `${secret}\0${date}\0${region}\0${service}`;
  let key = signingKeys.get(id);
  if (!key) {
    key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
    if (signingKeys.size > 1000) signingKeys.clear();
    signingKeys.set(id, key);
  }
  return key;
}

export interface CanonicalInput {
  method: string;
  uri: string;
  query: string;
  headers: string;
  signedHeaders: string;
  payload: string;
}

export function canonicalRequest(c: CanonicalInput): string {
  return [c.method, c.uri, c.query, c.headers, c.signedHeaders, c.payload].join('\n');
}

export function stringToSign(amzDate: string, scope: string, canonical: string): string {
  return ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
}
