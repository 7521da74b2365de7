// Shared fixture of the S3 (compatible API) tests: a real server on a temp data directory,
// users with S3 and Swift keys, SDK clients in both addressing styles, and a raw SigV4 signer
// (the SDK's own @smithy/signature-v4, independent of the server's canonical.ts) for requests the
// SDK cannot be made to send.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { lookup as dnsLookup, type LookupOptions } from 'node:dns';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import { XMLParser } from 'fast-xml-parser';
import type { Engine, EngineOptions } from '../../src-main/engine/index.js';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';

/** The hash constructor @smithy/signature-v4 wants (HMAC when given a secret), over node:crypto. */
export class Sha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key = secret === undefined || typeof secret === 'string' ? secret : ArrayBuffer.isView(secret) ? Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength) : Buffer.from(secret);
    this.h = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  }
  update(data: string | Uint8Array): void {
    this.h.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.h.digest()));
  }
}

export interface User {
  account: string;
  accessKey: string;
  secretKey: string;
  swiftUser: string;
  swiftKey: string;
}

/** Alice and Bob share a tenant (one bucket namespace); Carol lives in another tenant. */
export const ALICE: User = user('test$alice', 'ALICEACCESSKEY000001', 'alice/secret+key/0123456789abcdefghijk');
export const BOB: User = user('test$bob', 'BOBACCESSKEY00000002', 'bob-secret-key-0123456789abcdefghijklmn');
export const CAROL: User = user('other$carol', 'CAROLACCESSKEY000003', 'carol-secret-key-0123456789abcdefghijk');

function user(account: string, accessKey: string, secretKey: string): User {
  return { account, accessKey, secretKey, swiftUser: `${account}:swift`, swiftKey: `${account}-swift-key` };
}

export interface S3TestServer {
  app: AppContext;
  engine: Engine;
  dataDir: string;
  url: string;
  port: number;
  /** Path-style client for a user. */
  client(u?: User, extra?: Partial<S3ClientConfig>): S3Client;
  /** Virtual-host client: requests go to `<bucket>.localhost:PORT`, resolved to 127.0.0.1. */
  vhostClient(u?: User, extra?: Partial<S3ClientConfig>): S3Client;
  close(): Promise<void>;
}

/** Node's resolver does not map `*.localhost` to loopback here, so the test agent does it (as Chromium would). */
function loopbackLookup(host: string, opts: LookupOptions, cb: (...args: never[]) => void): void {
  if (host === 'localhost' || host.endsWith('.localhost')) {
    const done = cb as unknown as (e: null, a: string | { address: string; family: number }[], f?: number) => void;
    return opts.all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4);
  }
  dnsLookup(host, opts, cb as never);
}

const agent = new Agent({ keepAlive: true, lookup: loopbackLookup } as never);

export function clientFor(endpoint: string, u: User, extra: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: u.accessKey, secretAccessKey: u.secretKey },
    requestHandler: new NodeHttpHandler({ httpAgent: agent }),
    maxAttempts: 1,
    ...extra,
  });
}

/** A server and, in it, one bucket of the default user's named after `prefix`: most API suites' setting. */
export async function startWithBucket(prefix: string): Promise<{ s: S3TestServer; c: S3Client; b: string }> {
  const s = await startS3Server();
  const c = s.client();
  const b = bucketName(prefix);
  await c.send(new CreateBucketCommand({ Bucket: b }));
  return { s, c, b };
}

export async function startS3Server(opts: { users?: User[]; engine?: Partial<EngineOptions> } = {}): Promise<S3TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coffer-s3-'));
  const app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine: { noSync: true, expirySweepMs: 0, ...opts.engine } });
  for (const u of opts.users ?? [ALICE, BOB, CAROL]) {
    await app.engine.createAccount({ id: u.account, keys: [{ accessKey: u.accessKey, secretKey: u.secretKey }], swiftKeys: [{ sub: 'swift', secretKey: u.swiftKey }] });
  }
  const { url, port } = app.server;
  const clients: S3Client[] = [];
  const make = (c: S3Client) => (clients.push(c), c);
  return {
    app,
    engine: app.engine,
    dataDir,
    url,
    port,
    client: (u = ALICE, extra = {}) => make(clientFor(url, u, { forcePathStyle: true, ...extra })),
    vhostClient: (u = ALICE, extra = {}) => make(clientFor(`http://localhost:${port}`, u, extra)),
    async close() {
      for (const c of clients) c.destroy();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sign as this user (default: anonymous). */
  as?: User;
  /** Host header (default 127.0.0.1:PORT); the connection always goes to 127.0.0.1. */
  host?: string;
  /** Sign with this clock instead of now. */
  signingDate?: Date;
  /** Payload hash to sign and send (default: SHA-256 of the body). */
  payloadHash?: string;
  /** Send no Content-Length (for 411 tests). */
  noContentLength?: boolean;
  /** Mangle the signed request before it is sent. */
  tamper?: (headers: Record<string, string>) => void;
  /** Headers sent but left out of SignedHeaders (lower-case names). */
  unsigned?: string[];
  /** Send the body's Content-MD5 (the integrity header DeleteObjects, PutBucketCors and PutBucketLifecycle need). */
  md5?: boolean;
}

/** Splits `/path?query` into the pieces the signer wants. */
function splitPath(pathAndQuery: string): { path: string; query: Record<string, string | string[]> } {
  const q = pathAndQuery.indexOf('?');
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const query: Record<string, string> = {};
  if (q >= 0) {
    for (const part of pathAndQuery.slice(q + 1).split('&').filter(Boolean)) {
      const eq = part.indexOf('=');
      query[decodeURIComponent(eq < 0 ? part : part.slice(0, eq))] = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
    }
  }
  return { path, query };
}

/** The headers (and body) of a request, signed with SigV4 header auth when `as` is given. */
export async function signRequest(s: { port: number }, method: string, pathAndQuery: string, o: RawOptions = {}): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const body = o.body === undefined ? Buffer.alloc(0) : Buffer.from(o.body);
  const host = o.host ?? `127.0.0.1:${s.port}`;
  let headers: Record<string, string> = { host, ...(o.headers ?? {}) };
  if (o.md5) headers['content-md5'] ??= createHash('md5').update(body).digest('base64');
  if ((body.length || ['PUT', 'POST'].includes(method)) && !headers['content-length'] && !o.noContentLength) headers['content-length'] = String(body.length);
  if (o.as) {
    const { path, query } = splitPath(pathAndQuery);
    headers['x-amz-content-sha256'] ??= o.payloadHash ?? sha256Hex(body);
    const signer = new SignatureV4({ service: 's3', region: 'us-east-1', credentials: { accessKeyId: o.as.accessKey, secretAccessKey: o.as.secretKey }, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
    const signed = await signer.sign(
      { method, protocol: 'http:', hostname: host.replace(/:\d+$/, ''), port: s.port, path: encodePath(path), query, headers, body },
      { signingDate: o.signingDate ?? new Date(), ...(o.unsigned ? { unsignableHeaders: new Set(o.unsigned) } : {}) },
    );
    headers = signed.headers as Record<string, string>;
  }
  o.tamper?.(headers);
  return { headers, body };
}

/** One HTTP request to the server (always to 127.0.0.1), signed when `as` is given. */
export async function raw(s: { port: number }, method: string, pathAndQuery: string, o: RawOptions = {}): Promise<RawResponse> {
  const { headers, body } = await signRequest(s, method, pathAndQuery, o);
  return send(s.port, method, pathAndQuery.replace(/^[^?]*/, (p) => encodePath(p)), headers, body);
}

/** Percent-encodes a path the way the SDK does (segment-wise, `/` kept). */
export function encodePath(p: string): string {
  return p
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

export function send(port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const b = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b, text: b.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

const xml = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false });

/** The `<Error>` document of an S3 error response. */
export function errorOf(r: RawResponse): { Code?: string; Message?: string; RequestId?: string; [k: string]: unknown } {
  return (xml.parse(r.text) as { Error?: Record<string, string> }).Error ?? {};
}

export function parseXml(text: string): Record<string, unknown> {
  return xml.parse(text) as Record<string, unknown>;
}

/** Runs an SDK call that must fail and returns the service error (name, status, request id). */
export async function sdkError(p: Promise<unknown>): Promise<{ name: string; status: number; message: string; requestId?: string; extendedRequestId?: string; raw: unknown }> {
  try {
    await p;
  } catch (err) {
    const e = err as { name: string; message: string; $metadata?: { httpStatusCode?: number; requestId?: string; extendedRequestId?: string }; Code?: string };
    return {
      name: e.name,
      status: e.$metadata?.httpStatusCode ?? 0,
      message: e.message,
      ...(e.$metadata?.requestId ? { requestId: e.$metadata.requestId } : {}),
      ...(e.$metadata?.extendedRequestId ? { extendedRequestId: e.$metadata.extendedRequestId } : {}),
      raw: err,
    };
  }
  throw new Error('expected the call to fail');
}

let counter = 0;
/** A fresh, valid bucket name (tests share one server per file). */
export function bucketName(label = 'b'): string {
  return `${label}-${process.pid}-${++counter}`.toLowerCase();
}

export async function readAll(body: unknown): Promise<Buffer> {
  const b = body as { transformToByteArray?: () => Promise<Uint8Array> };
  return Buffer.from(await b.transformToByteArray!());
}
