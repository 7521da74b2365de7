// Shared set-up of the remote Swift backend's tests: Coffer's own server on a temp directory,
// a user with a Swift key, the server's request log (to count what reached it), and small helpers.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { RemoteNativeBackend, type RemoteNativeOptions } from '../../src-main/backends/remote-native.js';

export const ACCOUNT = 'test$tester';
export const USER = `${ACCOUNT}:swift`;
export const KEY = 'tester-secret-key';

export interface Coffer {
  app: AppContext;
  url: string;
  authUrl: string;
  /** One line per request the server answered: `<time> <id> <METHOD> <url> <status> <ms>ms`. */
  log: string[];
  close(): Promise<void>;
}

export async function startCoffer(): Promise<Coffer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coffer-remote-native-'));
  const log: string[] = [];
  const app = await createAppContext({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    engine: { noSync: true, expirySweepMs: 0 },
    log: (line) => log.push(line),
  });
  await app.engine.createAccount({ id: ACCOUNT, swiftKeys: [{ sub: 'swift', secretKey: KEY }] });
  return {
    app,
    url: app.server.url,
    authUrl: `${app.server.url}/auth/1.0`,
    log,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function v1Backend(c: Coffer, extra: Partial<RemoteNativeOptions> = {}): RemoteNativeBackend {
  return new RemoteNativeBackend({ authUrl: c.authUrl, auth: { type: 'v1', user: USER, key: KEY }, backoffMs: 20, ...extra });
}

/** v1 auth straight against the server (for tokens handed out by the fake Keystone). */
export async function v1Token(c: Coffer, user = USER, key = KEY): Promise<{ token: string; storageUrl: string }> {
  const res = await fetch(c.authUrl, { headers: { 'X-Auth-User': user, 'X-Auth-Key': key } });
  await res.arrayBuffer();
  if (res.status !== 200 && res.status !== 204) throw new Error(`v1 auth ${res.status}`);
  return { token: res.headers.get('x-auth-token')!, storageUrl: res.headers.get('x-storage-url')! };
}

/** Log lines since `from` that match. */
export function requests(c: Coffer, from: number, pattern: RegExp): string[] {
  return c.log.slice(from).filter((l) => pattern.test(l));
}

export const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function tempFile(data: Buffer): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-remote-native-file-'));
  const path = join(dir, 'upload.bin');
  writeFileSync(path, data);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const bytes = (n: number) => randomBytes(n);

export { expectCode } from './helpers.js';

let counter = 0;
export function containerName(label = 'c'): string {
  return `${label}-${++counter}`;
}

/** All entries of a folder listing, page after page. */
export async function allEntries(pages: AsyncIterable<{ entries: { kind: string; name?: string; prefix?: string }[] }>): Promise<string[]> {
  const out: string[] = [];
  for await (const p of pages) for (const e of p.entries) out.push(e.kind === 'folder' ? `${e.prefix}` : `${e.name}`);
  return out;
}

/** What the flaky proxy does with a request: pass it on, drop the connection, or answer 503. */
export type Mischief = 'pass' | 'reset' | '503';

/**
 * A proxy in front of Coffer that misbehaves on chosen requests (network resets, 503s), to see
 * retries. Returns a token-auth backend whose storage URL goes through it.
 */
export async function flakyProxy(c: Coffer, decide: (req: IncomingMessage) => Mischief, extra: Partial<RemoteNativeOptions> = {}) {
  const target = new URL(c.url);
  const proxy = createServer((req, res) => {
    const what = decide(req);
    if (what === 'reset') return void req.socket.destroy();
    if (what === '503') {
      req.resume();
      return void res.writeHead(503, { 'Retry-After': '0', Connection: 'close' }).end('Service Unavailable');
    }
    const fwd = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as AddressInfo).port;
  const { token, storageUrl } = await v1Token(c);
  const backend = new RemoteNativeBackend({ auth: { type: 'token', token, storageUrl: storageUrl.replace(c.url, `http://127.0.0.1:${port}`) }, backoffMs: 5, ...extra });
  return {
    backend,
    async close() {
      backend.close();
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    },
  };
}
