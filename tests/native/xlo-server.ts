/** A real server for the large-object, TempURL and bulk-delete tests, and the real `swift` CLI. */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';

export const ACCOUNT = 'test$tester';
export const USER = `${ACCOUNT}:swift`;
export const KEY = 'tester-key';

export interface XloServer {
  app: AppContext;
  url: string;
  /** `http://127.0.0.1:<port>/v1/AUTH_test$tester` */
  storageUrl: string;
  token: string;
  dir: string;
  /** One line per request the server handled. */
  log: string[];
  close(): Promise<void>;
}

export async function startServer(): Promise<XloServer> {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-xlo-'));
  const log: string[] = [];
  const app = await createAppContext({
    dataDir: join(dir, 'data'),
    host: '127.0.0.1',
    port: 0,
    engine: { noSync: true, expirySweepMs: 0 },
    log: (line) => log.push(line),
  });
  const close = async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await app.engine.createAccount({ id: ACCOUNT, swiftKeys: [{ sub: 'swift', secretKey: KEY }] });
    const auth = await fetch(`${app.server.url}/auth/1.0`, { headers: { 'X-Auth-User': USER, 'X-Auth-Key': KEY } });
    await auth.arrayBuffer();
    return { app, url: app.server.url, storageUrl: auth.headers.get('x-storage-url')!, token: auth.headers.get('x-auth-token')!, dir, log, close };
  } catch (err) {
    await close();
    throw err;
  }
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Default: the tester's token; null: none. */
  token?: string | null;
}

/** A request to `path` under the storage URL, or to an absolute URL. */
export async function request(s: XloServer, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const headers = { ...opts.headers };
  const token = opts.token === undefined ? s.token : opts.token;
  if (token !== null) headers['X-Auth-Token'] = token;
  const url = /^https?:/.test(path) ? path : `${s.storageUrl}${path}`;
  const body = typeof opts.body === 'string' ? opts.body : opts.body && new Uint8Array(opts.body);
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body: bytes, text: bytes.toString('utf8') };
}

export const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

/** Deterministic pseudo-random bytes. */
export function bytes(n: number, seed = 7): Buffer {
  const b = Buffer.allocUnsafe(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

export const hasSwiftCli = spawnSync('swift', ['--version'], { stdio: 'ignore' }).status === 0;

/** Runs the python-swiftclient CLI against the server, as the tester. */
export function swift(s: XloServer, args: string[], cwd = s.dir): Promise<{ code: number; stdout: string; stderr: string }> {
  const auth = ['-A', `${s.url}/auth/1.0`, '-U', USER, '-K', KEY];
  return new Promise((resolve) => {
    execFile('swift', [...auth, ...args], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
