// The reliability tests run the real `coffer serve` in a child process, so they can SIGKILL it,
// watch its memory and count its files. Users are created in-process before it starts (the admin
// commands do the same through the engine).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../src-main/engine/index.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface TestUser {
  account: string;
  accessKey: string;
  secretKey: string;
  swiftUser: string;
  swiftKey: string;
}

function user(account: string, accessKey: string, secretKey: string): TestUser {
  return { account, accessKey, secretKey, swiftUser: `${account}:swift`, swiftKey: `${account}-swift-key` };
}

/** Alice and Mallory live in different tenants; Mallory is the "other account" of the security tests. */
export const ALICE = user('rel$alice', 'RELALICEACCESSKEY001', 'alice-reliability-secret-key-0123456789');
export const MALLORY = user('evil$mallory', 'RELMALLORYACCESSKEY2', 'mallory-reliability-secret-key-0123456');

export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `coffer-rel-${label}-`));
}

/** Creates the users (and containers) in a data directory no server is running on. */
export async function seedStore(dataDir: string, users: TestUser[], containers: { account: string; name: string }[] = []): Promise<void> {
  const engine = await Engine.open(dataDir, { expirySweepMs: 0 });
  try {
    for (const u of users) {
      await engine.createAccount({ id: u.account, keys: [{ accessKey: u.accessKey, secretKey: u.secretKey }], swiftKeys: [{ sub: 'swift', secretKey: u.swiftKey }] });
    }
    for (const c of containers) await engine.createContainer(c.account, c.name);
  } finally {
    await engine.close();
  }
}

export interface Served {
  child: ChildProcess;
  pid: number;
  url: string;
  port: number;
  /** Everything the server printed (stdout and stderr). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean stop), and wait. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/** Starts `coffer serve --port 0` on 127.0.0.1 and waits for its `listening on` line. */
export function serve(dataDir: string, env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, ['src-main/bin/coffer.mjs', 'serve', '--data', dataDir, '--host', '127.0.0.1', '--port', '0'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  running.add(child);
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`coffer serve did not start in 40 s:\n${out}`));
    }, 40_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
        resolve({ child, pid: child.pid!, url: m[1]!, port: Number(m[2]), output: () => out, exited, kill: () => stopWith('SIGKILL'), stop: () => stopWith('SIGTERM') });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`coffer serve exited (${code ?? signal}) before listening:\n${out}`));
    });
  });
}

/** A data directory with users, and a server on it; `close` stops the server and removes the directory. */
export async function servedStore(label: string, users: TestUser[] = [ALICE, MALLORY], env: Record<string, string> = {}) {
  const dataDir = tempDir(label);
  await seedStore(dataDir, users);
  const server = await serve(dataDir, env);
  return {
    dataDir,
    server,
    async close() {
      await server.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A server with ALICE alone, logged in through v1 auth, and her container `fc`: what the fault
 * tests share. `storagePath` is the storage URL's path (for raw requests).
 */
export async function servedWithContainer(label: string, env: Record<string, string> = {}) {
  const store = await servedStore(label, [ALICE], env);
  const login = await swiftLogin(store.server.url, ALICE);
  const created = await fetch(`${login.storageUrl}/fc`, { method: 'PUT', headers: { 'X-Auth-Token': login.token } });
  if (created.status !== 201) throw new Error(`create fc: ${created.status}`);
  return { store, port: store.server.port, storagePath: new URL(login.storageUrl).pathname, token: login.token };
}

/** v1 auth against a running server: the storage URL and a token. */
export async function swiftLogin(url: string, u: TestUser): Promise<{ storageUrl: string; token: string }> {
  const res = await fetch(`${url}/auth/1.0`, { headers: { 'X-Auth-User': u.swiftUser, 'X-Auth-Key': u.swiftKey } });
  await res.arrayBuffer();
  if (res.status !== 200 && res.status !== 204) throw new Error(`v1 auth for ${u.swiftUser}: ${res.status}`);
  return { storageUrl: res.headers.get('x-storage-url')!, token: res.headers.get('x-auth-token')! };
}

/** A small seeded PRNG (xorshift32), so a failing run can be replayed from its printed seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export function seedFrom(envName: string): number {
  const given = process.env[envName];
  return given ? Number(given) >>> 0 : (Date.now() ^ (process.pid << 12)) >>> 0;
}
