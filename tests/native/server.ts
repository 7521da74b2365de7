import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { Engine, EngineOptions } from '../../src-main/engine/index.js';

export const ACCOUNT = 'test$tester';
export const SWIFT_USER = `${ACCOUNT}:swift`;
export const SWIFT_KEY = 'tester-secret-key';
export const OTHER_ACCOUNT = 'test$other';
export const OTHER_USER = `${OTHER_ACCOUNT}:swift`;
export const OTHER_KEY = 'other-secret-key';

export interface TestServer {
  app: AppContext;
  engine: Engine;
  dataDir: string;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** v1 auth endpoint. */
  authUrl: string;
  /** X-Storage-Url from v1 auth (with a literal `$`). */
  storageUrl: string;
  token: string;
  /** A second user's token (same tenant), for 403 checks. */
  otherToken: string;
  otherStorageUrl: string;
  close(): Promise<void>;
}

export function tempDir(label = 'coffer-native-'): string {
  return mkdtempSync(join(tmpdir(), label));
}

/** v1 auth; throws unless it succeeds. */
export async function v1Auth(url: string, user: string, key: string): Promise<{ storageUrl: string; token: string }> {
  const res = await fetch(`${url}/auth/1.0`, { headers: { 'X-Auth-User': user, 'X-Auth-Key': key } });
  await res.arrayBuffer();
  if (res.status !== 200 && res.status !== 204) throw new Error(`v1 auth for ${user}: ${res.status}`);
  return { storageUrl: res.headers.get('x-storage-url')!, token: res.headers.get('x-auth-token')! };
}

/** A server on a fresh data directory (port 0, loopback) with two users, and a token for each; `engine` adds engine options (limits). */
export async function startTestServer(engine: Partial<EngineOptions> = {}): Promise<TestServer> {
  const dataDir = tempDir();
  const app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine: { noSync: true, expirySweepMs: 0, ...engine } });
  try {
    const { engine } = app;
    await engine.createAccount({ id: ACCOUNT, swiftKeys: [{ sub: 'swift', secretKey: SWIFT_KEY }] });
    await engine.createAccount({ id: OTHER_ACCOUNT, swiftKeys: [{ sub: 'swift', secretKey: OTHER_KEY }] });
    const url = app.server.url;
    const me = await v1Auth(url, SWIFT_USER, SWIFT_KEY);
    const other = await v1Auth(url, OTHER_USER, OTHER_KEY);
    return {
      app,
      engine,
      dataDir,
      url,
      port: app.server.port,
      authUrl: `${url}/auth/1.0`,
      storageUrl: me.storageUrl,
      token: me.token,
      otherToken: other.token,
      otherStorageUrl: other.storageUrl,
      async close() {
        await app.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: string | Buffer | Uint8Array;
  /** Defaults to the tester's token; null sends none. */
  token?: string | null;
  /** Absolute base instead of the tester's storage URL. */
  base?: string;
}

/** One native request relative to the storage URL (`path` starts with `/` or is empty). */
export async function call(s: TestServer, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? s.token : opts.token;
  if (token !== null) headers['X-Auth-Token'] = token;
  const res = await fetch(`${opts.base ?? s.storageUrl}${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: opts.body as BodyInit } : {}),
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, text: body.toString('utf8') };
}

/** Creates an extra user and signs it in. */
export async function addUser(s: TestServer, id: string, key = `${id}-key`): Promise<{ account: string; token: string; storageUrl: string }> {
  await s.engine.createAccount({ id, swiftKeys: [{ sub: 'swift', secretKey: key }] });
  const r = await v1Auth(s.url, `${id}:swift`, key);
  return { account: id, ...r };
}

export interface RawReply {
  status: number;
  head: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends raw bytes on a fresh TCP connection and reads until the server closes it or `waitMs`
 * passes. Parses the first response (status line and headers).
 */
export async function rawRequest(port: number, data: string | Buffer, waitMs = 2000): Promise<RawReply> {
  const { connect } = await import('node:net');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let finished = false;
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const head = end < 0 ? text : text.slice(0, end);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      resolve({ status, head, headers, body: end < 0 ? '' : text.slice(end + 4) });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (c) => {
      chunks.push(c);
      // Done once a complete response (headers and Content-Length bytes of body) is in.
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1];
      const bodyless = /^HEAD /.test(typeof data === 'string' ? data : data.toString('latin1')) || / (204|304) /.test(text.slice(0, text.indexOf('\r\n')));
      if (bodyless || (length !== undefined && text.length - end - 4 >= Number(length))) done();
    });
    socket.on('end', done);
    socket.on('error', (err) => (chunks.length ? done() : reject(err)));
  });
}

/** The path part of the tester's storage URL (`/v1/AUTH_test$tester`). */
export function storagePath(s: TestServer): string {
  return new URL(s.storageUrl).pathname;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000, stepMs = 100): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
