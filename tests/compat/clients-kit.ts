// Shared fixture of the real-S3-client tests (tests/compat/clients-*.test.ts): the AWS CLI
// (`aws s3`, `aws s3api`), rclone's S3 backend, s3cmd (SigV4 and SigV2) and boto3
// (tests/compat/fixtures/boto3_scenario.py), each run as a child process with its configuration
// in a temporary HOME and a clean environment, so nothing on the machine is read or changed.
// Path-style addressing, region us-east-1, no retries (a retry would hide a server error),
// bounded requests. Each test file starts its own server (useClientsServer).
//
// The clients are slow to start (the AWS CLI takes about a second per call), so each client's
// steps form a scenario that starts in beforeAll and runs concurrently with the file's other
// scenarios; every step is still reported as its own test, which awaits the step's outcome.
// Steps of one scenario run in order and depend on each other (a failed upload makes the
// download fail too). Where cheap, a step also checks what the native API or the engine sees.
// Each client signs in as its own user of one tenant, so ListBuckets-driven commands (s3cmd la)
// never race with another client's bucket deletions.
//
// Developer aids: COFFER_CLIENTS=aws,rclone,s3cmd,boto3 picks the clients to run (the rest report
// skipped); COFFER_CLIENTS_TIMINGS=1 prints the duration of every client invocation. A client
// that is not installed is skipped locally and fails under CI (which installs all of them).
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { Engine } from '../../src-main/engine/index.js';
import { TREE } from './clients-tree.js';

/** Every client has its own user (so one client's ListBuckets never sees another's buckets come and go), all in one tenant. */
const TENANT = 'clients';
export const MiB = 1024 * 1024;
/** Longest any one client invocation may take. */
const CALL_TIMEOUT_MS = 40_000;

const HERE = dirname(fileURLToPath(import.meta.url));
export const BOTO3_SCRIPT = join(HERE, 'fixtures', 'boto3_scenario.py');

// Debian's packages (.ci/run installs awscli python3-boto3 rclone s3cmd). `aws` on PATH may be a
// pyenv shim, so the Debian paths are used explicitly.
export const AWS = '/usr/bin/aws';
export const RCLONE = '/usr/bin/rclone';
export const S3CMD = '/usr/bin/s3cmd';
export const PYTHON = '/usr/bin/python3';

function hasBoto3(): boolean {
  if (!existsSync(PYTHON)) return false;
  try {
    execFileSync(PYTHON, ['-c', 'import boto3'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

// Locally a missing client skips its scenario; in CI (which installs them) it fails.
const need = (ok: boolean) => ok || !!process.env.CI;
const HAVE = { aws: need(existsSync(AWS)), rclone: need(existsSync(RCLONE)), s3cmd: need(existsSync(S3CMD)), boto3: need(hasBoto3()) };

// ---------------------------------------------------------------------------------------------
// Fixture: one server per test file, on a temporary data directory; per client a user with known
// S3 and Swift keys, a v1 token for the native API, and a HOME of its own.

export interface User {
  name: string;
  account: string;
  accessKey: string;
  /** With `/`, `+` and `=`, as real secrets have. */
  secretKey: string;
  home: string;
  token: string;
  storageUrl: string;
}

export let app: AppContext;
export let root: string;
export let src: string;
export let url: string;
export let port: number;
export let bigFile: string;
export let smallFile: string;
export let big: Buffer;
export const small = Buffer.from('small file from Coffer client tests\n');
const serverLog: string[] = [];
const children = new Set<ChildProcess>();
let closing = false;

export const ref = (bucket: string) => Engine.ref(`${TENANT}$any`, bucket);
/** Percent-encodes each path segment (keeps `/`). */
export const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/** Starts this test file's server and users before its scenarios, and stops them afterwards. */
export function useClientsServer(): void {
  beforeAll(async () => {
    if (!scenarios.some((s) => s.enabled)) return;
    root = mkdtempSync(join(tmpdir(), 'coffer-clients-'));
    src = join(root, 'src');
    mkdirSync(src);
    smallFile = join(src, 'small.txt');
    bigFile = join(src, 'big.bin');
    big = randomBytes(20 * MiB);
    writeFileSync(smallFile, small);
    writeFileSync(bigFile, big);
    for (const [name, body] of Object.entries(TREE)) {
      mkdirSync(dirname(join(src, 'tree', name)), { recursive: true });
      writeFileSync(join(src, 'tree', name), body);
    }
    app = await createAppContext({
      dataDir: join(root, 'data'),
      host: '127.0.0.1',
      port: 0,
      engine: { noSync: true, expirySweepMs: 0 },
      log: (line) => serverLog.push(line),
    });
    url = app.server.url;
    port = app.server.port;
    for (const s of scenarios) {
      const u = s.user;
      u.home = join(root, `home-${u.name}`);
      mkdirSync(u.home);
      await app.engine.createAccount({ id: u.account, keys: [{ accessKey: u.accessKey, secretKey: u.secretKey }], swiftKeys: [{ sub: 'swift', secretKey: 'swift-key' }] });
      const auth = await fetch(`${url}/auth/1.0`, { headers: { 'X-Auth-User': `${u.account}:swift`, 'X-Auth-Key': 'swift-key' } });
      await auth.arrayBuffer();
      expect(auth.status).toBeLessThan(300);
      u.storageUrl = auth.headers.get('x-storage-url')!;
      u.token = auth.headers.get('x-auth-token')!;
    }
    for (const s of scenarios) s.start();
  });

  afterAll(async () => {
    closing = true;
    for (const c of children) c.kill('SIGKILL');
    await Promise.race([Promise.all(scenarios.map((s) => s.finished())), new Promise((r) => setTimeout(r, 10_000))]);
    await app?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
}

// ---------------------------------------------------------------------------------------------
// Running the clients.

export interface Run {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Runs a client to completion (never throws; a timeout kills it and reports code 'timeout'). */
export function run(file: string, args: string[], env: Record<string, string>, opts: { cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  if (closing) return Promise.reject(new Error('the test file is closing'));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { env, cwd: opts.cwd ?? root, timeout: opts.timeoutMs ?? CALL_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * MiB, encoding: 'utf8' },
      (err, stdout, stderr) => {
        children.delete(child);
        if (process.env.COFFER_CLIENTS_TIMINGS) console.log(`${Date.now() - started}ms ${file} ${args.slice(0, 6).join(' ')}`);
        const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        const code = !e ? 0 : e.killed ? 'timeout' : (e.code ?? 'error');
        resolve({ code, stdout, stderr });
      },
    );
    children.add(child);
  });
}

export function show(cmd: string, r: Run): string {
  const tail = (s: string) => (s.length > 4000 ? `…${s.slice(-4000)}` : s);
  return `${cmd} → exit ${r.code}\n--- stdout\n${tail(r.stdout)}\n--- stderr\n${tail(r.stderr)}`;
}

/** Runs and asserts exit status 0. */
export async function ok(file: string, args: string[], env: Record<string, string>, opts: { cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  const r = await run(file, args, env, opts);
  expect(r.code, show(`${file.split('/').pop()} ${args.join(' ')}`, r)).toBe(0);
  return r;
}

/** A minimal environment: no proxies, CA bundles or credentials leak in from the machine. */
export function baseEnv(user: User, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: user.home, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMPDIR: root, ...extra };
}

/**
 * One client's ordered steps. `step` registers a test at collection time; `start` (in beforeAll)
 * runs the steps one after another in the background; each test awaits its own step.
 */
export class Scenario {
  private readonly steps: { name: string; fn: () => Promise<void> }[] = [];
  private readonly results = new Map<string, Promise<void>>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly enabled: boolean,
    readonly user: User,
  ) {}

  step(name: string, fn: () => Promise<void>): void {
    this.steps.push({ name, fn });
    it.skipIf(!this.enabled)(name, async () => {
      const result = this.results.get(name);
      if (!result) throw new Error('the scenario did not start (see beforeAll)');
      await result;
    });
  }

  start(): void {
    if (!this.enabled) return;
    for (const s of this.steps) {
      const result = this.chain.then(() => {
        if (closing) throw new Error('the test file is closing');
        return s.fn();
      });
      result.catch(() => undefined); // reported by the step's test
      this.results.set(s.name, result);
      this.chain = result.catch(() => undefined);
    }
  }

  finished(): Promise<void> {
    return this.chain;
  }
}

const scenarios: Scenario[] = [];
/** COFFER_CLIENTS=aws,rclone runs only those clients' scenarios (the others report skipped). */
const ONLY = process.env.COFFER_CLIENTS?.split(',').map((c) => c.trim());
export function scenario(client: keyof typeof HAVE, userName: string): Scenario {
  const user: User = {
    name: userName,
    account: `${TENANT}$${userName}`,
    accessKey: `AK${userName.toUpperCase().replace(/[^A-Z0-9]/g, '')}`.padEnd(20, '0'),
    secretKey: `${userName}/Secret+Key=${userName.length}`,
    home: '',
    token: '',
    storageUrl: '',
  };
  const s = new Scenario(HAVE[client] && (!ONLY || ONLY.includes(client)), user);
  scenarios.push(s);
  return s;
}

/** The last test of a file: the server logged no internal error while its clients ran (skipped when none ran). */
export function serverLogTest(): void {
  describe('server', () => {
    it.skipIf(!scenarios.some((s) => s.enabled))('logged no internal errors while the clients ran', async () => {
      await Promise.race([Promise.all(scenarios.map((s) => s.finished())), new Promise((r) => setTimeout(r, 50_000))]);
      expect(serverLog.filter((l) => /internal error/.test(l))).toEqual([]);
      expect(serverLog.filter((l) => / 5\d\d \d+ms$/.test(l))).toEqual([]);
    });
  });
}
