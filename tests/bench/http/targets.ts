/**
 * How the load generator addresses each server: the S3 API (Coffer's compatible API, s3rver)
 * with SigV4 signatures from the SDK's own @smithy/signature-v4, the native API with a v1 token,
 * and the floor server without auth. Each target turns an operation into a ready-to-send request.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { LoadGenerator, Req } from './load.js';

/** The hash constructor @smithy/signature-v4 wants (HMAC when given a secret), over node:crypto. */
class Sha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key =
      secret === undefined || typeof secret === 'string'
        ? secret
        : ArrayBuffer.isView(secret)
          ? Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength)
          : Buffer.from(secret);
    this.h = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  }
  update(data: string | Uint8Array): void {
    this.h.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.h.digest()));
  }
}

export type Query = Record<string, string>;
export type Body = Buffer | { size: number; stream: NonNullable<Exclude<Req['body'], Buffer>> };

export interface ListPage {
  keys: number;
  prefixes: number;
  /** What to send for the next page; undefined when this was the last one. */
  next?: Query;
}

export interface Target {
  readonly label: string;
  createContainer(c: string): Promise<Req>;
  put(c: string, name: string, body: Body): Promise<Req>;
  get(c: string, name: string): Promise<Req>;
  head(c: string, name: string): Promise<Req>;
  del(c: string, name: string): Promise<Req>;
  /** One listing page (1000 entries at most) of `c`; `params` carries prefix/delimiter and the follow-on marker. */
  list?(c: string, params: Query): Promise<Req>;
  parseList?(body: Buffer, params: Query): ListPage;
}

/** Percent-encodes each path segment (RFC 3986 unreserved kept), `/` kept. */
export function encodePath(p: string): string {
  return p
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

function queryString(q: Query): string {
  const parts = Object.entries(q).map(([k, v]) => `${encodeURIComponent(k)}=${encodePath(v).replace(/\//g, '%2F')}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

const bodyOf = (b: Body): Req['body'] => (Buffer.isBuffer(b) ? b : b.stream);
const sizeOf = (b: Body) => (Buffer.isBuffer(b) ? b.length : b.size);

export class S3Target implements Target {
  private readonly signer: SignatureV4;

  constructor(
    readonly label: string,
    private readonly port: number,
    accessKey: string,
    secretKey: string,
  ) {
    this.signer = new SignatureV4({
      service: 's3',
      region: 'us-east-1',
      credentials: { accessKeyId: accessKey, secretAccessKey: secretKey },
      sha256: Sha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
  }

  /** Signs with header auth; small bodies carry their SHA-256 (as the SDK sends over http), streamed ones UNSIGNED-PAYLOAD. */
  private async sign(method: string, path: string, query: Query = {}, body?: Body): Promise<Req> {
    const headers: Record<string, string> = {
      host: `127.0.0.1:${this.port}`,
      'x-amz-content-sha256': body === undefined || Buffer.isBuffer(body) ? createHash('sha256').update(body ?? '').digest('hex') : 'UNSIGNED-PAYLOAD',
    };
    if (body !== undefined) headers['content-length'] = String(sizeOf(body));
    const encoded = encodePath(path);
    const signed = await this.signer.sign({ method, protocol: 'http:', hostname: '127.0.0.1', port: this.port, path: encoded, query, headers });
    return { method, path: `${encoded}${queryString(query)}`, headers: signed.headers as Record<string, string>, ...(body !== undefined ? { body: bodyOf(body) } : {}) };
  }

  createContainer = (c: string) => this.sign('PUT', `/${c}`, {}, Buffer.alloc(0));
  put = (c: string, name: string, body: Body) => this.sign('PUT', `/${c}/${name}`, {}, body);
  get = (c: string, name: string) => this.sign('GET', `/${c}/${name}`);
  head = (c: string, name: string) => this.sign('HEAD', `/${c}/${name}`);
  del = (c: string, name: string) => this.sign('DELETE', `/${c}/${name}`);
  /** ListObjects v1 with markers: s3rver's v2 continuation tokens use DES, which Node 20's OpenSSL 3 refuses (HTTP 500). */
  list = (c: string, params: Query) => this.sign('GET', `/${c}`, { 'max-keys': '1000', ...params });

  parseList(body: Buffer, params: Query): ListPage {
    const text = body.toString('utf8');
    const keys = occurrences(text, '<Key>');
    const prefixes = occurrences(text, '<CommonPrefixes>');
    const truncated = text.includes('<IsTruncated>true</IsTruncated>');
    // NextMarker comes only with a delimiter; otherwise the last key is the marker (S3's rule).
    const lastKey = text.lastIndexOf('<Key>');
    const marker = /<NextMarker>([^<]*)<\/NextMarker>/.exec(text)?.[1] ?? (lastKey >= 0 ? text.slice(lastKey + 5, text.indexOf('</Key>', lastKey)) : undefined);
    if (truncated && !marker) throw new Error('truncated listing without a marker');
    const unescaped = marker?.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
    return { keys, prefixes, ...(truncated ? { next: { ...params, marker: unescaped! } } : {}) };
  }
}

/** How often `needle` occurs in `text` (the generator's own parsing stays light next to the servers' work). */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

export class NativeTarget implements Target {
  readonly label: string;
  private constructor(
    label: string,
    private readonly base: string,
    private readonly token: string,
  ) {
    this.label = label;
  }

  /** Logs in with v1 auth (`authPath`: Coffer and RGW serve /auth/1.0, Swift's tempauth /auth/v1.0) and keeps the token and the storage URL's path. */
  static async login(label: string, gen: LoadGenerator, user: string, key: string, authPath = '/auth/1.0'): Promise<NativeTarget> {
    const res = await gen.send({ method: 'GET', path: authPath, headers: { 'x-auth-user': user, 'x-auth-key': key } });
    const token = res.headers['x-auth-token'];
    const url = res.headers['x-storage-url'];
    if (res.status >= 300 || typeof token !== 'string' || typeof url !== 'string') throw new Error(`v1 auth failed: HTTP ${res.status}`);
    return new NativeTarget(label, new URL(url).pathname, token);
  }

  private req(method: string, path: string, query: Query = {}, body?: Body): Promise<Req> {
    const headers: Record<string, string> = { 'x-auth-token': this.token };
    if (body !== undefined) headers['content-length'] = String(sizeOf(body));
    return Promise.resolve({ method, path: `${this.base}${encodePath(path)}${queryString(query)}`, headers, ...(body !== undefined ? { body: bodyOf(body) } : {}) });
  }

  createContainer = (c: string) => this.req('PUT', `/${c}`, {}, Buffer.alloc(0));
  put = (c: string, name: string, body: Body) => this.req('PUT', `/${c}/${name}`, {}, body);
  get = (c: string, name: string) => this.req('GET', `/${c}/${name}`);
  head = (c: string, name: string) => this.req('HEAD', `/${c}/${name}`);
  del = (c: string, name: string) => this.req('DELETE', `/${c}/${name}`);
  list = (c: string, params: Query) => this.req('GET', `/${c}`, { format: 'json', limit: '1000', ...params });

  /**
   * Counts entries rather than parsing the page (as the S3 side counts `<Key>`): JSON.parse of a
   * 1,000-entry page took the generator about a millisecond, a fifth of Coffer's listing time.
   * Only the last entry (flat: no braces inside) is parsed, for the marker. Keys are counted in
   * any order and spacing: Swift writes `{"hash": …, "name": …}`, Coffer and RGW `{"name":…`.
   */
  parseList(body: Buffer, params: Query): ListPage {
    const text = body.toString('utf8');
    const keys = occurrences(text, '"name":');
    const prefixes = occurrences(text, '"subdir":');
    const lastAt = text.lastIndexOf('{');
    const last = lastAt >= 0 ? (JSON.parse(text.slice(lastAt, text.lastIndexOf('}') + 1)) as { name?: string; subdir?: string }) : undefined;
    // As Swift's clients (and seed 4.1.1): on until a page comes back empty. A short page is not the
    // end: RGW's Swift API answered 991 entries to a limit of 1,000 with more to come.
    const next = keys + prefixes > 0 && last ? { ...params, marker: last.subdir ?? last.name! } : undefined;
    return { keys, prefixes, ...(next ? { next } : {}) };
  }
}

/** The floor server: plain paths, no auth, no listing. */
export class FloorTarget implements Target {
  readonly label = 'floor';
  private req(method: string, path: string, body?: Body): Promise<Req> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-length'] = String(sizeOf(body));
    return Promise.resolve({ method, path: encodePath(path), headers, ...(body !== undefined ? { body: bodyOf(body) } : {}) });
  }
  createContainer = (c: string) => this.req('PUT', `/${c}`, Buffer.alloc(0));
  put = (c: string, name: string, body: Body) => this.req('PUT', `/${c}/${name}`, body);
  get = (c: string, name: string) => this.req('GET', `/${c}/${name}`);
  head = (c: string, name: string) => this.req('HEAD', `/${c}/${name}`);
  del = (c: string, name: string) => this.req('DELETE', `/${c}/${name}`);
}
