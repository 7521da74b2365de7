// `coffer` command line: user/key/quota administration (JSON as radosgw-admin prints it), with
// no server and while `coffer serve` runs on the same data directory; serve's start and stop.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { tempDir, v1Auth, waitFor } from './server.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = tempDir('coffer-cli-');
  dirs.push(d);
  return d;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (`node --import tsx src-main/cli.ts …`, or the `coffer` bin script). */
function coffer(args: string[], via: 'tsx' | 'bin' = 'tsx'): Promise<Run> {
  const argv = via === 'tsx' ? ['--import', 'tsx', 'src-main/cli.ts', ...args] : ['src-main/bin/coffer.mjs', ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: REPO, timeout: 45_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the CLI and parses its JSON output; fails the test with the output unless it exits 0. */
async function cofferJson<T = UserJson>(args: string[], via: 'tsx' | 'bin' = 'tsx'): Promise<T> {
  const r = await coffer(args, via);
  expect(r.code, `coffer ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}

interface UserJson {
  user_id: string;
  tenant: string;
  display_name: string;
  keys: { user: string; access_key: string; secret_key: string }[];
  swift_keys: { user: string; secret_key: string }[];
  max_buckets: number;
  user_quota: { max_size: number; max_objects: number };
  stats: { num_buckets: number; num_objects: number; size: number; size_actual: number };
}

function expectUserShape(u: UserJson, id: string): void {
  expect(u.user_id).toBe(id);
  expect(u.tenant).toBe(id.includes('$') ? id.slice(0, id.indexOf('$')) : '');
  expect(typeof u.display_name).toBe('string');
  expect(Array.isArray(u.keys)).toBe(true);
  for (const k of u.keys) {
    expect(k.access_key).toMatch(/^\S+$/);
    expect(k.secret_key).toMatch(/^\S+$/);
  }
  expect(Array.isArray(u.swift_keys)).toBe(true);
  for (const k of u.swift_keys) {
    expect(k.user.startsWith(`${id}:`)).toBe(true);
    expect(k.user.slice(id.length + 1)).toMatch(/^[A-Za-z0-9_.@+=,-]+$/);
    expect(k.secret_key).toMatch(/^\S+$/);
  }
  expect(u.user_quota).toEqual({ max_size: expect.any(Number), max_objects: expect.any(Number) });
}

// ---------------------------------------------------------------------------------------------
describe('coffer user / key / quota without a server', () => {
  let dir: string;
  beforeAll(() => {
    dir = dataDir();
  });

  /** Reads the store in-process (no server runs on it), to check what the commands did. */
  async function inStore<T>(fn: (engine: Engine) => T): Promise<T> {
    const engine = await Engine.open(dir, { recover: false, expirySweepMs: 0 });
    try {
      return fn(engine);
    } finally {
      await engine.close();
    }
  }

  it('user create: generated keys, or the given ones; swift_keys users are <tenant>$<name>:<sub>', async () => {
    const first = await cofferJson(['user', 'create', '--data', dir, '--uid', 'acme$alice', '--display-name', 'Alice A.']);
    expectUserShape(first, 'acme$alice');
    expect(first.display_name).toBe('Alice A.');
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]!.access_key).toMatch(/^[A-Z0-9]{20}$/);
    expect(first.keys[0]!.secret_key.length).toBeGreaterThanOrEqual(20);
    expect(first.swift_keys).toEqual([{ user: 'acme$alice:swift', secret_key: expect.stringMatching(/^\S{20,}$/) }]);
    expect(first.user_quota).toEqual({ max_size: -1, max_objects: -1 });
    expect(first.stats).toEqual({ num_buckets: 0, num_objects: 0, size: 0, size_actual: 0 });

    const [given, keyOnly] = await Promise.all([
      cofferJson(['user', 'create', '--data', dir, '--uid', 'acme$bob', '--access-key', 'BOBACCESSKEY', '--secret-key', 'bob-secret', '--swift-user', 'tools', '--swift-key', 'bob-swift']),
      cofferJson(['user', 'create', '--data', dir, '--uid', 'carol', '--swift-key', 'carol-swift']),
    ]);
    expectUserShape(given, 'acme$bob');
    expect(given.keys.map((k) => [k.access_key, k.secret_key])).toEqual([['BOBACCESSKEY', 'bob-secret']]);
    expect(given.swift_keys).toEqual([{ user: 'acme$bob:tools', secret_key: 'bob-swift' }]);
    // A user in the empty (legacy) tenant; --swift-key alone is the key of the default sub-user.
    expectUserShape(keyOnly, 'carol');
    expect(keyOnly.swift_keys).toEqual([{ user: 'carol:swift', secret_key: 'carol-swift' }]);
    const stored = await inStore((e) => e.findBySwiftUser('carol:swift'));
    expect(stored?.secretKey).toBe('carol-swift');
  });

  it('user info (bin script), user list, key add (Swift sub-user and S3 key), quota set (-1 = unlimited)', async () => {
    const [info, list, added, quota] = await Promise.all([
      cofferJson(['user', 'info', '--data', dir, '--uid', 'acme$bob'], 'bin'),
      cofferJson<string[]>(['user', 'list', '--data', dir]),
      cofferJson([
        'key', 'add', '--data', dir, '--uid', 'acme$alice', '--swift-user', 'backup', '--swift-key', 'backup-key', '--access-key', 'ALICE2', '--secret-key', 'alice2-secret',
      ]),
      cofferJson(['quota', 'set', '--data', dir, '--uid', 'acme$bob', '--max-size', '1048576', '--max-objects', '-1']),
    ]);
    expectUserShape(info, 'acme$bob');
    expect(info.swift_keys).toEqual([{ user: 'acme$bob:tools', secret_key: 'bob-swift' }]);
    expect(info.keys.map((k) => k.access_key)).toEqual(['BOBACCESSKEY']);
    expect([...list].sort()).toEqual(['acme$alice', 'acme$bob', 'carol']);

    expectUserShape(added, 'acme$alice');
    expect(added.swift_keys.map((k) => k.user)).toEqual(['acme$alice:swift', 'acme$alice:backup']);
    expect(added.swift_keys[1]!.secret_key).toBe('backup-key');
    expect(added.keys).toHaveLength(2);
    expect(added.keys[1]).toMatchObject({ access_key: 'ALICE2', secret_key: 'alice2-secret' });

    expectUserShape(quota, 'acme$bob');
    expect(quota.user_quota).toEqual({ max_size: 1048576, max_objects: -1 });
    const stored = await inStore((e) => ({ bob: e.getAccount('acme$bob').quota, alice2: e.findByAccessKey('ALICE2')?.account.id }));
    expect(stored).toEqual({ bob: { maxBytes: 1048576, maxObjects: -1 }, alice2: 'acme$alice' });
  });

  it('errors exit 1 with a message on stderr (nothing on stdout); user rm removes a user and its keys', async () => {
    const cases: [string[], RegExp][] = [
      [['user', 'info', '--data', dir, '--uid', 'acme$nobody'], /NoSuchAccount/],
      [['user', 'create', '--data', dir, '--uid', 'acme$alice'], /AccountExists/],
      [['key', 'add', '--data', dir], /--uid is required/],
      [['quota', 'set', '--data', dir, '--uid', 'acme$alice', '--bucket', 'nope', '--max-size', 'lots'], /--max-size must be an integer/],
    ];
    const [rm, ...runs] = await Promise.all([coffer(['user', 'rm', '--data', dir, '--uid', 'carol']), ...cases.map(([args]) => coffer(args))]);
    runs.forEach((r, i) => {
      const [args, message] = cases[i]!;
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr, args.join(' ')).toMatch(/^coffer: /);
      expect(r.stdout, args.join(' ')).toBe('');
    });
    expect(rm.code, rm.stderr).toBe(0);
    const after = await inStore((e) => ({ ids: e.listAccounts().map((a) => a.id).sort(), key: e.findBySwiftUser('carol:swift') }));
    expect(after).toEqual({ ids: ['acme$alice', 'acme$bob'], key: null });
  });
});

// ---------------------------------------------------------------------------------------------
interface Served {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `coffer serve --port 0` and waits for its `listening on` line. */
function serve(dir: string, extra: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', 'serve', '--data', dir, '--port', '0', ...extra], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}\n${err}`)), 40_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, output: () => out, exited });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}\n${err}`));
    });
  });
}

async function stop(srv: Served, signal: NodeJS.Signals = 'SIGTERM') {
  srv.child.kill(signal);
  return srv.exited;
}

const head = (url: string, token: string) => fetch(url, { method: 'HEAD', headers: { 'X-Auth-Token': token } });

describe('coffer serve, and the admin commands while it runs', () => {
  let dir: string;
  let srv: Served;
  let admin: UserJson;

  beforeAll(async () => {
    dir = dataDir();
    srv = await serve(dir);
  });

  it('the first start creates a user and prints it; the native API answers on the printed URL', async () => {
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const out = srv.output();
    const m = /Created the first user:\n(\{[\s\S]*?\n\})\n/.exec(out);
    expect(m, out).not.toBeNull();
    admin = JSON.parse(m![1]!) as UserJson;
    expectUserShape(admin, 'coffer$admin');
    expect(admin.swift_keys).toHaveLength(1);
    expect(admin.swift_keys[0]!.user).toBe('coffer$admin:swift');
    expect(out).toContain(`${srv.url}/auth/1.0`);
    expect(existsSync(join(dir, 'coffer.pid'))).toBe(true);
    expect(readFileSync(join(dir, 'coffer.pid'), 'utf8').trim()).toBe(String(srv.child.pid));

    const a = await v1Auth(srv.url, admin.swift_keys[0]!.user, admin.swift_keys[0]!.secret_key);
    expect(a.storageUrl).toBe(`${srv.url}/v1/AUTH_coffer$admin`);
    expect((await head(a.storageUrl, a.token)).status).toBe(204);
    expect((await fetch(`${srv.url}/info`)).status).toBe(200);
  });

  it('user create / key add while serving: the new credentials work at once', async () => {
    const u = await cofferJson(['user', 'create', '--data', dir, '--uid', 'live$dora', '--swift-key', 'dora-key']);
    expect(u.swift_keys).toEqual([{ user: 'live$dora:swift', secret_key: 'dora-key' }]);
    const a = await v1Auth(srv.url, 'live$dora:swift', 'dora-key');
    expect((await head(a.storageUrl, a.token)).status).toBe(204);

    await cofferJson(['key', 'add', '--data', dir, '--uid', 'live$dora', '--swift-user', 'second', '--swift-key', 'second-key']);
    const b = await v1Auth(srv.url, 'live$dora:second', 'second-key');
    expect(b.storageUrl).toBe(a.storageUrl);
    expect((await head(b.storageUrl, b.token)).status).toBe(204);
  });

  it('quota set while serving: account and --bucket quotas show on HEAD and are enforced (413)', async () => {
    const a = await v1Auth(srv.url, 'live$dora:swift', 'dora-key');
    const h = { 'X-Auth-Token': a.token };
    expect((await fetch(`${a.storageUrl}/box`, { method: 'PUT', headers: h })).status).toBe(201);
    const [acct, bucket] = await Promise.all([
      cofferJson(['quota', 'set', '--data', dir, '--uid', 'live$dora', '--max-size', '1000000', '--max-objects', '50']),
      cofferJson<{ bucket: string; bucket_quota: { max_size: number; max_objects: number } }>([
        'quota', 'set', '--data', dir, '--uid', 'live$dora', '--bucket', 'box', '--max-objects', '1',
      ]),
    ]);
    expect(acct.user_quota).toEqual({ max_size: 1000000, max_objects: 50 });
    expect(bucket).toEqual({ bucket: 'box', bucket_quota: { max_size: -1, max_objects: 1 } });
    const ah = await head(a.storageUrl, a.token);
    expect(ah.headers.get('x-account-meta-quota-bytes')).toBe('1000000');
    expect(ah.headers.get('x-account-meta-quota-count')).toBe('50');
    const ch = await head(`${a.storageUrl}/box`, a.token);
    expect(ch.headers.get('x-container-meta-quota-count')).toBe('1');
    expect((await fetch(`${a.storageUrl}/box/one`, { method: 'PUT', headers: h, body: '1' })).status).toBe(201);
    const over = await fetch(`${a.storageUrl}/box/two`, { method: 'PUT', headers: h, body: '2' });
    expect(over.status).toBe(413);
    expect(await over.text()).toContain('Upload exceeds quota.');

    const reset = await cofferJson(['quota', 'set', '--data', dir, '--uid', 'live$dora', '--max-size', '-1', '--max-objects', '-1']);
    expect(reset.user_quota).toEqual({ max_size: -1, max_objects: -1 });
    expect(reset.stats).toEqual({ num_buckets: 1, num_objects: 1, size: 1, size_actual: 4096 });
    const after = await head(a.storageUrl, a.token);
    expect(after.headers.get('x-account-meta-quota-bytes')).toBeNull();
    expect(after.headers.get('x-account-meta-quota-count')).toBeNull();
  });

  it('user rm while serving: refused while the user owns containers, --purge-data removes everything; tokens stop working', async () => {
    const a = await v1Auth(srv.url, 'live$dora:swift', 'dora-key');
    const busy = await coffer(['user', 'rm', '--data', dir, '--uid', 'live$dora']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/AccountNotEmpty/);
    expect((await head(a.storageUrl, a.token)).status).toBe(204);
    const rm = await coffer(['user', 'rm', '--data', dir, '--uid', 'live$dora', '--purge-data']);
    expect(rm.code, rm.stderr).toBe(0);
    expect((await head(a.storageUrl, a.token)).status).toBe(401);
    const again = await fetch(`${srv.url}/auth/1.0`, { headers: { 'X-Auth-User': 'live$dora:swift', 'X-Auth-Key': 'dora-key' } });
    expect([401, 403]).toContain(again.status);
  });

  it('a second server on the same data directory is refused; the running one is unaffected', async () => {
    const second = await coffer(['serve', '--data', dir, '--port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/Another coffer server \(pid \d+\) is serving/);
    expect((await fetch(`${srv.url}/info`)).status).toBe(200);
    expect(readFileSync(join(dir, 'coffer.pid'), 'utf8').trim()).toBe(String(srv.child.pid));
  });

  it('SIGTERM stops it cleanly (exit 0, pid file gone); a restart keeps data and users and creates no new user', async () => {
    const { token } = await v1Auth(srv.url, admin.swift_keys[0]!.user, admin.swift_keys[0]!.secret_key);
    const storage = `${srv.url}/swift/v1/AUTH_coffer$admin`;
    expect((await fetch(`${storage}/kept`, { method: 'PUT', headers: { 'X-Auth-Token': token } })).status).toBe(201);
    expect((await fetch(`${storage}/kept/o`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: 'persisted' })).status).toBe(201);
    // The request log goes to stdout.
    expect(await waitFor(async () => / PUT \/swift\/v1\/AUTH_coffer\$admin\/kept\/o 201 /.test(srv.output()))).toBe(true);

    const done = await stop(srv, 'SIGTERM');
    expect(done).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dir, 'coffer.pid'))).toBe(false);
    await expect(fetch(`${srv.url}/info`)).rejects.toThrow();

    // A stale pid file (its process is gone) is reclaimed.
    writeFileSync(join(dir, 'coffer.pid'), '2147483646');
    const again = await serve(dir, ['--quiet']);
    try {
      expect(again.output()).not.toContain('Created the first user');
      const b = await v1Auth(again.url, admin.swift_keys[0]!.user, admin.swift_keys[0]!.secret_key);
      const got = await fetch(`${b.storageUrl}/kept/o`, { headers: { 'X-Auth-Token': b.token } });
      expect(await got.text()).toBe('persisted');
      // Tokens are signed with the store's secret: the one from before the restart still works.
      expect((await fetch(`${again.url}/swift/v1/AUTH_coffer$admin/kept/o`, { headers: { 'X-Auth-Token': token } })).status).toBe(200);
      expect(again.output()).not.toMatch(/ GET \/swift/);
    } finally {
      const end = await stop(again, 'SIGINT');
      expect(end).toEqual({ code: 0, signal: null });
    }
    expect(existsSync(join(dir, 'coffer.pid'))).toBe(false);
  });
});
