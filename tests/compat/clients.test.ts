// Real S3 clients against the compatible API: the AWS CLI (`aws s3`, `aws s3api`), rclone's S3
// backend, s3cmd (SigV4 and SigV2) and boto3 (tests/compat/fixtures/boto3_scenario.py), each run
// as a child process with its configuration in a temporary HOME and a clean environment, so
// nothing on the machine is read or changed. Path-style addressing, region us-east-1, no
// retries (a retry would hide a server error), bounded requests.
//
// The clients are slow to start (the AWS CLI takes about a second per call), so each client's
// steps form a scenario that starts in beforeAll and runs concurrently with the other clients'
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
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { Engine } from '../../src-main/engine/engine.js';

/** Every client has its own user (so one client's ListBuckets never sees another's buckets come and go), all in one tenant. */
const TENANT = 'clients';
const MiB = 1024 * 1024;
/** Longest any one client invocation may take. */
const CALL_TIMEOUT_MS = 40_000;

const HERE = dirname(fileURLToPath(import.meta.url));
const BOTO3_SCRIPT = join(HERE, 'fixtures', 'boto3_scenario.py');

// Debian's packages (.ci/run installs awscli python3-boto3 rclone s3cmd). `aws` on PATH may be a
// pyenv shim, so the Debian paths are used explicitly.
const AWS = '/usr/bin/aws';
const RCLONE = '/usr/bin/rclone';
const S3CMD = '/usr/bin/s3cmd';
const PYTHON = '/usr/bin/python3';

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

/** Files of the tree the clients copy: awkward names, nested folders, distinct contents. */
const TREE: Record<string, string> = {
  'dir one/file with spaces.txt': 'spaces\n',
  'dir one/sub+dir/plus+name.txt': 'plus\n',
  'pct%dir/100%.txt': 'percent\n',
  'pct%dir/%41 not an A.txt': 'percent-hex\n',
  'ünïcødé/日本語 ファイル.txt': 'unicode\n',
  'a/b/c/d/deep.txt': 'deep\n',
  "weird &=;,'!()~@$[]#?.txt": 'weird\n',
};
const TREE_NAMES = Object.keys(TREE).sort();

// ---------------------------------------------------------------------------------------------
// Fixture: one server on a temporary data directory; per client a user with known S3 and Swift
// keys, a v1 token for the native API, and a HOME of its own.

interface User {
  name: string;
  account: string;
  accessKey: string;
  /** With `/`, `+` and `=`, as real secrets have. */
  secretKey: string;
  home: string;
  token: string;
  storageUrl: string;
}

let app: AppContext;
let root: string;
let src: string;
let url: string;
let port: number;
let bigFile: string;
let smallFile: string;
let big: Buffer;
const small = Buffer.from('small file from Coffer client tests\n');
const serverLog: string[] = [];
const children = new Set<ChildProcess>();
let closing = false;

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
const ref = (bucket: string) => Engine.ref(`${TENANT}$any`, bucket);
/** Percent-encodes each path segment (keeps `/`). */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

function bucketExists(bucket: string): boolean {
  try {
    app.engine.getContainer(ref(bucket));
    return true;
  } catch {
    return false;
  }
}

function objectEtag(bucket: string, key: string): string | undefined {
  try {
    return app.engine.headObject(ref(bucket), key).etag;
  } catch {
    return undefined;
  }
}

/** Every object name in the bucket, through the engine. */
function engineNames(bucket: string, prefix = ''): string[] {
  const names: string[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = app.engine.listObjects(ref(bucket), { limit: 1000, ...(prefix ? { prefix } : {}), ...(marker ? { marker } : {}) });
    for (const e of page.entries) if (e.kind === 'object') names.push(e.name);
    if (!page.truncated || !page.nextMarker) return names;
    marker = page.nextMarker;
  }
}

/** The native API's view: a raw GET of the container listing with the v1 token. */
async function nativeNames(user: User, bucket: string, prefix = ''): Promise<string[]> {
  const res = await fetch(`${user.storageUrl}/${encodeURIComponent(bucket)}?format=json&prefix=${encodeURIComponent(prefix)}`, {
    headers: { 'X-Auth-Token': user.token },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  expect(res.status, `native listing of ${bucket}: ${text}`).toBe(200);
  return (JSON.parse(text) as { name: string }[]).map((o) => o.name);
}

async function nativeHead(user: User, bucket: string, key: string): Promise<Response> {
  const res = await fetch(`${user.storageUrl}/${encodeURIComponent(bucket)}/${encodeKey(key)}`, {
    method: 'HEAD',
    headers: { 'X-Auth-Token': user.token },
    signal: AbortSignal.timeout(10_000),
  });
  return res;
}

/** An anonymous path-style S3 GET. */
async function anonymousGet(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${url}/${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text() };
}

/** Relative paths of the files under dir, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** Asserts that dir holds exactly the TREE files with their contents. */
function expectTree(dir: string, what: string): void {
  expect(filesUnder(dir), `${what}: file names`).toEqual(TREE_NAMES);
  for (const name of TREE_NAMES) expect(readFileSync(join(dir, name), 'utf8'), `${what}: ${name}`).toBe(TREE[name]);
}

function expectSameBytes(path: string, expected: Buffer, what: string): void {
  expect(existsSync(path), `${what}: ${path} exists`).toBe(true);
  const got = readFileSync(path);
  expect(got.length, `${what}: size`).toBe(expected.length);
  expect(md5(got), `${what}: MD5`).toBe(md5(expected));
}

beforeAll(async () => {
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

// ---------------------------------------------------------------------------------------------
// Running the clients.

interface Run {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Runs a client to completion (never throws; a timeout kills it and reports code 'timeout'). */
function run(file: string, args: string[], env: Record<string, string>, opts: { cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
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

function show(cmd: string, r: Run): string {
  const tail = (s: string) => (s.length > 4000 ? `…${s.slice(-4000)}` : s);
  return `${cmd} → exit ${r.code}\n--- stdout\n${tail(r.stdout)}\n--- stderr\n${tail(r.stderr)}`;
}

/** Runs and asserts exit status 0. */
async function ok(file: string, args: string[], env: Record<string, string>, opts: { cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  const r = await run(file, args, env, opts);
  expect(r.code, show(`${file.split('/').pop()} ${args.join(' ')}`, r)).toBe(0);
  return r;
}

/** A minimal environment: no proxies, CA bundles or credentials leak in from the machine. */
function baseEnv(user: User, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: user.home, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMPDIR: root, ...extra };
}

/**
 * One client's ordered steps. `step` registers a test at collection time; `start` (in beforeAll)
 * runs the steps one after another in the background; each test awaits its own step.
 */
class Scenario {
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
function scenario(client: keyof typeof HAVE, userName: string): Scenario {
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

// ---------------------------------------------------------------------------------------------
// AWS CLI

function awsEnv(user: User): Record<string, string> {
  const dir = join(user.home, '.aws');
  if (!existsSync(join(dir, 'config'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config'), '[default]\nregion = us-east-1\noutput = json\ncli_pager =\ns3 =\n  addressing_style = path\n');
    writeFileSync(join(dir, 'credentials'), `[default]\naws_access_key_id = ${user.accessKey}\naws_secret_access_key = ${user.secretKey}\n`);
  }
  return baseEnv(user, {
    AWS_CONFIG_FILE: join(dir, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_PAGER: '',
    AWS_MAX_ATTEMPTS: '1',
    AWS_RETRY_MODE: 'standard',
  });
}

/** `aws` and `aws … --output json` as the scenario's user. */
function awsFor(s: Scenario) {
  const aws = (...args: string[]) => ok(AWS, ['--endpoint-url', url, '--cli-connect-timeout', '5', '--cli-read-timeout', '30', ...args], awsEnv(s.user));
  const awsJson = async <T = Record<string, unknown>>(...args: string[]): Promise<T> => {
    const r = await aws(...args, '--output', 'json');
    return (r.stdout.trim() ? JSON.parse(r.stdout) : {}) as T;
  };
  return { aws, awsJson };
}

/** `aws s3 ls` lines: `2024-01-01 00:00:00       1234 key` and `PRE dir/`. */
function parseS3Ls(stdout: string): { objects: { size: number; key: string }[]; prefixes: string[] } {
  const objects: { size: number; key: string }[] = [];
  const prefixes: string[] = [];
  for (const line of stdout.split('\n')) {
    const pre = /^\s+PRE (.*)$/.exec(line);
    if (pre) prefixes.push(pre[1]!);
    const obj = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+(\d+) (.*)$/.exec(line);
    if (obj) objects.push({ size: Number(obj[1]), key: obj[2]! });
  }
  return { objects, prefixes };
}

describe('aws s3 (AWS CLI high-level commands)', () => {
  const B = 'aws-cli-s3';
  const out = () => join(root, 'out-aws-s3');
  const s = scenario('aws', 'aws-s3');
  const { aws } = awsFor(s);

  s.step('mb creates the bucket', async () => {
    const r = await aws('s3', 'mb', `s3://${B}`);
    expect(r.stdout).toContain(`make_bucket: ${B}`);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('cp uploads and downloads a small file byte-identically', async () => {
    await aws('s3', 'cp', '--only-show-errors', smallFile, `s3://${B}/small +%.txt`);
    expect(objectEtag(B, 'small +%.txt')).toBe(md5(small));
    await aws('s3', 'cp', '--only-show-errors', `s3://${B}/small +%.txt`, join(out(), 'small.txt'));
    expectSameBytes(join(out(), 'small.txt'), small, 'downloaded small file');
  });

  s.step('cp uploads a 20 MiB file in parts and downloads it byte-identically', async () => {
    await aws('s3', 'cp', '--only-show-errors', '--metadata', 'origin=aws-cli', '--content-type', 'application/x-big', bigFile, `s3://${B}/big/big file.bin`);
    // 8 MiB parts by default: three parts; metadata and content type go with CreateMultipartUpload.
    expect(objectEtag(B, 'big/big file.bin')).toMatch(/^[0-9a-f]{32}-3$/);
    expect(app.engine.headObject(ref(B), 'big/big file.bin')).toMatchObject({ contentType: 'application/x-big', meta: { origin: 'aws-cli' } });
    await aws('s3', 'cp', '--only-show-errors', `s3://${B}/big/big file.bin`, join(out(), 'big.bin'));
    expectSameBytes(join(out(), 'big.bin'), big, 'downloaded 20 MiB file');
  });

  s.step('cp --recursive uploads and downloads a tree with awkward names', async () => {
    await aws('s3', 'cp', '--recursive', '--only-show-errors', join(src, 'tree'), `s3://${B}/tree/`);
    expect(engineNames(B, 'tree/')).toEqual(TREE_NAMES.map((n) => `tree/${n}`));
    await aws('s3', 'cp', '--recursive', '--only-show-errors', `s3://${B}/tree/`, join(out(), 'tree'));
    expectTree(join(out(), 'tree'), 'aws s3 cp --recursive download');
  });

  s.step('ls --recursive lists every key with its size', async () => {
    const { objects } = parseS3Ls((await aws('s3', 'ls', '--recursive', `s3://${B}/tree/`)).stdout);
    expect(objects.map((o) => o.key).sort()).toEqual(TREE_NAMES.map((n) => `tree/${n}`));
    for (const o of objects) expect(o.size, o.key).toBe(Buffer.byteLength(TREE[o.key.slice('tree/'.length)]!));
  });

  s.step('ls with a prefix shows folders (PRE) and files one level down', async () => {
    const top = parseS3Ls((await aws('s3', 'ls', `s3://${B}/tree/`)).stdout);
    expect(top.prefixes.sort()).toEqual(['a/', 'dir one/', 'pct%dir/', 'ünïcødé/'].sort());
    expect(top.objects.map((o) => o.key)).toEqual(["weird &=;,'!()~@$[]#?.txt"]);
  });

  s.step('sync uploads the tree once; a second run uploads nothing', async () => {
    const first = await aws('s3', 'sync', '--no-progress', join(src, 'tree'), `s3://${B}/synced/`);
    expect(first.stdout.split('\n').filter((l) => l.startsWith('upload:')).length, first.stdout).toBe(TREE_NAMES.length);
    expect(engineNames(B, 'synced/')).toEqual(TREE_NAMES.map((n) => `synced/${n}`));
    const second = await aws('s3', 'sync', '--no-progress', join(src, 'tree'), `s3://${B}/synced/`);
    expect(second.stdout.trim(), 'second sync should transfer nothing').toBe('');
  });

  s.step('mv moves an object (server-side copy, then delete) between awkward keys', async () => {
    await aws('s3', 'mv', '--only-show-errors', `s3://${B}/small +%.txt`, `s3://${B}/moved/sm all+%.txt`);
    expect(objectEtag(B, 'small +%.txt')).toBeUndefined();
    expect(objectEtag(B, 'moved/sm all+%.txt')).toBe(md5(small));
  });

  s.step('the native API lists what aws uploaded', async () => {
    const names = await nativeNames(s.user, B);
    expect(names).toEqual(engineNames(B));
    expect(names).toEqual(expect.arrayContaining(['big/big file.bin', 'moved/sm all+%.txt', ...TREE_NAMES.map((n) => `tree/${n}`)]));
  });

  s.step('rm --recursive empties the bucket', async () => {
    await aws('s3', 'rm', '--recursive', '--only-show-errors', `s3://${B}/`);
    expect(engineNames(B)).toEqual([]);
  });

  s.step('rb removes the bucket', async () => {
    const r = await aws('s3', 'rb', `s3://${B}`);
    expect(r.stdout).toContain(`remove_bucket: ${B}`);
    expect(bucketExists(B)).toBe(false);
  });
});

describe('aws s3api (AWS CLI low-level commands)', () => {
  const B = 'aws-cli-api';
  const out = () => join(root, 'out-aws-api');
  const s = scenario('aws', 'aws-api');
  const { aws, awsJson } = awsFor(s);
  const LIST_KEYS = ['list/a.txt', 'list/b+c.txt', 'list/dir 3/z', 'list/dir1/x', 'list/dir2/y', 'list/pct%25.txt', 'list/sp ace.txt', 'list/ü.txt'];

  s.step('create-bucket', async () => {
    await awsJson('s3api', 'create-bucket', '--bucket', B);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('put-object with metadata and content-type; head-object returns them; native HEAD sees them', async () => {
    const put = await awsJson<{ ETag: string }>(
      's3api', 'put-object', '--bucket', B, '--key', 'meta/obj one.txt', '--body', smallFile,
      '--metadata', 'color=blue,Shape=Round', '--content-type', 'text/x-coffer',
    );
    expect(put.ETag).toBe(`"${md5(small)}"`);
    const head = await awsJson<{ ContentType: string; ContentLength: number; ETag: string; Metadata: Record<string, string> }>(
      's3api', 'head-object', '--bucket', B, '--key', 'meta/obj one.txt',
    );
    expect(head).toMatchObject({ ContentType: 'text/x-coffer', ContentLength: small.length, ETag: `"${md5(small)}"`, Metadata: { color: 'blue', shape: 'Round' } });
    const native = await nativeHead(s.user, B, 'meta/obj one.txt');
    expect(native.status).toBe(200);
    expect(native.headers.get('x-object-meta-color')).toBe('blue');
    expect(native.headers.get('content-type')).toBe('text/x-coffer');
  });

  s.step('get-object --range returns exactly the requested bytes', async () => {
    await app.engine.putObject(ref(B), 'range.bin', big.subarray(0, 65536));
    const outFile = join(out(), 'range.part');
    mkdirSync(out(), { recursive: true });
    const r = await awsJson<{ ContentRange: string; ContentLength: number }>('s3api', 'get-object', '--bucket', B, '--key', 'range.bin', '--range', 'bytes=1000-1999', outFile);
    expect(r).toMatchObject({ ContentRange: 'bytes 1000-1999/65536', ContentLength: 1000 });
    expectSameBytes(outFile, big.subarray(1000, 2000), 'ranged GET');
  });

  s.step('list-objects-v2 with --prefix and --delimiter (awkward keys round-trip)', async () => {
    for (const k of LIST_KEYS) await app.engine.putObject(ref(B), k, k);
    const r = await awsJson<{ Contents?: { Key: string }[]; CommonPrefixes?: { Prefix: string }[] }>(
      's3api', 'list-objects-v2', '--bucket', B, '--prefix', 'list/', '--delimiter', '/',
    );
    expect((r.Contents ?? []).map((c) => c.Key)).toEqual(['list/a.txt', 'list/b+c.txt', 'list/pct%25.txt', 'list/sp ace.txt', 'list/ü.txt']);
    expect((r.CommonPrefixes ?? []).map((c) => c.Prefix)).toEqual(['list/dir 3/', 'list/dir1/', 'list/dir2/']);
  });

  s.step('list-objects-v2 --max-items / --starting-token paging returns every key once, in order', async () => {
    const first = await awsJson<{ Contents: { Key: string }[]; NextToken?: string }>(
      's3api', 'list-objects-v2', '--bucket', B, '--prefix', 'list/', '--max-items', '3', '--page-size', '2',
    );
    expect(first.Contents.map((c) => c.Key)).toEqual(LIST_KEYS.slice(0, 3));
    expect(first.NextToken).toBeTruthy();
    const rest = await awsJson<{ Contents: { Key: string }[]; NextToken?: string }>(
      's3api', 'list-objects-v2', '--bucket', B, '--prefix', 'list/', '--page-size', '2', '--starting-token', first.NextToken!,
    );
    expect(rest.Contents.map((c) => c.Key)).toEqual(LIST_KEYS.slice(3));
    expect(rest.NextToken).toBeUndefined();
  });

  s.step('delete-objects deletes several keys, each under its exact name (a missing one counts as deleted)', async () => {
    // Leading and trailing spaces are part of a key; the XML body carries them verbatim.
    for (const k of [' leading space', 'del/trailing space ']) await app.engine.putObject(ref(B), k, k);
    const keys = ['list/b+c.txt', 'list/pct%25.txt', 'list/sp ace.txt', 'list/never-existed', ' leading space', 'del/trailing space '];
    const r = await awsJson<{ Deleted?: { Key: string }[]; Errors?: unknown[] }>(
      's3api', 'delete-objects', '--bucket', B, '--delete', JSON.stringify({ Objects: keys.map((Key) => ({ Key })) }),
    );
    expect(r.Errors ?? []).toEqual([]);
    expect((r.Deleted ?? []).map((d) => JSON.stringify(d.Key)).sort()).toEqual(keys.map((k) => JSON.stringify(k)).sort());
    expect(engineNames(B, 'list/')).toEqual(['list/a.txt', 'list/dir 3/z', 'list/dir1/x', 'list/dir2/y', 'list/ü.txt']);
    expect(engineNames(B).filter((k) => k.trim() !== k).map((k) => JSON.stringify(k)), 'keys with edge spaces left behind').toEqual([]);
  });

  s.step('copy-object --metadata-directive REPLACE replaces metadata and content-type', async () => {
    const r = await awsJson<{ CopyObjectResult: { ETag: string } }>(
      's3api', 'copy-object', '--bucket', B, '--key', 'meta/copy+of %.txt', '--copy-source', `${B}/meta/obj one.txt`,
      '--metadata-directive', 'REPLACE', '--metadata', 'fresh=yes', '--content-type', 'text/plain',
    );
    expect(r.CopyObjectResult.ETag).toBe(`"${md5(small)}"`);
    const copy = app.engine.headObject(ref(B), 'meta/copy+of %.txt');
    expect(copy.contentType).toBe('text/plain');
    expect(copy.meta).toEqual({ fresh: 'yes' });
  });

  s.step('create-multipart-upload / upload-part / complete-multipart-upload', async () => {
    const key = 'mp/manual upload.bin';
    const part1 = join(out(), 'part1');
    const part2 = join(out(), 'part2');
    mkdirSync(out(), { recursive: true });
    writeFileSync(part1, big.subarray(0, 5 * MiB));
    writeFileSync(part2, big.subarray(5 * MiB, 5 * MiB + 1000));
    const { UploadId } = await awsJson<{ UploadId: string }>('s3api', 'create-multipart-upload', '--bucket', B, '--key', key, '--content-type', 'application/x-parts');
    expect(UploadId).toBeTruthy();
    const [p1, p2] = await Promise.all([
      awsJson<{ ETag: string }>('s3api', 'upload-part', '--bucket', B, '--key', key, '--upload-id', UploadId, '--part-number', '1', '--body', part1),
      awsJson<{ ETag: string }>('s3api', 'upload-part', '--bucket', B, '--key', key, '--upload-id', UploadId, '--part-number', '2', '--body', part2),
    ]);
    const m1 = md5(big.subarray(0, 5 * MiB));
    const m2 = md5(big.subarray(5 * MiB, 5 * MiB + 1000));
    expect([p1!.ETag, p2!.ETag]).toEqual([`"${m1}"`, `"${m2}"`]);
    const done = await awsJson<{ ETag: string; Key: string }>(
      's3api', 'complete-multipart-upload', '--bucket', B, '--key', key, '--upload-id', UploadId,
      '--multipart-upload', JSON.stringify({ Parts: [{ PartNumber: 1, ETag: p1!.ETag }, { PartNumber: 2, ETag: p2!.ETag }] }),
    );
    const expected = `${md5(Buffer.from(m1 + m2, 'hex'))}-2`;
    expect(done).toMatchObject({ ETag: `"${expected}"`, Key: key });
    const info = app.engine.headObject(ref(B), key);
    expect(info).toMatchObject({ etag: expected, size: 5 * MiB + 1000, contentType: 'application/x-parts' });
  });

  s.step('put-bucket-acl public-read / get-bucket-acl; anonymous listing is then allowed', async () => {
    expect((await anonymousGet(`${B}?list-type=2`)).status).toBe(403);
    await aws('s3api', 'put-bucket-acl', '--bucket', B, '--acl', 'public-read');
    const acl = await awsJson<{ Owner: { ID: string }; Grants: { Grantee: { Type: string; URI?: string; ID?: string }; Permission: string }[] }>(
      's3api', 'get-bucket-acl', '--bucket', B,
    );
    expect(acl.Owner.ID).toBe(s.user.account);
    expect(acl.Grants).toEqual(
      expect.arrayContaining([
        { Grantee: expect.objectContaining({ Type: 'CanonicalUser', ID: s.user.account }), Permission: 'FULL_CONTROL' },
        { Grantee: { Type: 'Group', URI: 'http://acs.amazonaws.com/groups/global/AllUsers' }, Permission: 'READ' },
      ]),
    );
    const anon = await anonymousGet(`${B}?list-type=2&prefix=meta/`);
    expect(anon.status, anon.body).toBe(200);
    expect(anon.body).toContain('<Key>meta/obj one.txt</Key>');
  });

  s.step('put-bucket-policy / get-bucket-policy; the policy opens object reads to anonymous users', async () => {
    expect((await anonymousGet(`${B}/${encodeKey('meta/obj one.txt')}`)).status).toBe(403);
    const policy = {
      Version: '2012-10-17',
      Statement: [{ Sid: 'PublicRead', Effect: 'Allow', Principal: '*', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${B}/*`] }],
    };
    await aws('s3api', 'put-bucket-policy', '--bucket', B, '--policy', JSON.stringify(policy));
    const got = await awsJson<{ Policy: string }>('s3api', 'get-bucket-policy', '--bucket', B);
    expect(JSON.parse(got.Policy)).toEqual(policy);
    const anon = await anonymousGet(`${B}/${encodeKey('meta/obj one.txt')}`);
    expect(anon).toEqual({ status: 200, body: small.toString() });
  });

  s.step('get-bucket-location answers us-east-1 (null)', async () => {
    const r = await awsJson<{ LocationConstraint: string | null }>('s3api', 'get-bucket-location', '--bucket', B);
    expect(r.LocationConstraint ?? null).toBeNull();
  });

  s.step('put-bucket-versioning Enabled; list-object-versions shows both versions', async () => {
    await aws('s3api', 'put-bucket-versioning', '--bucket', B, '--versioning-configuration', 'Status=Enabled');
    expect(app.engine.getContainer(ref(B)).versioning).toBe('enabled');
    const key = 'ver/doc +1.txt';
    const v1 = await awsJson<{ VersionId: string }>('s3api', 'put-object', '--bucket', B, '--key', key, '--body', smallFile);
    const v2 = await awsJson<{ VersionId: string }>('s3api', 'put-object', '--bucket', B, '--key', key, '--body', join(src, 'tree', 'a/b/c/d/deep.txt'));
    expect(v1.VersionId && v2.VersionId && v1.VersionId !== v2.VersionId).toBeTruthy();
    const listed = await awsJson<{ Versions?: { Key: string; VersionId: string; IsLatest: boolean; Size: number }[]; DeleteMarkers?: unknown[] }>(
      's3api', 'list-object-versions', '--bucket', B, '--prefix', 'ver/',
    );
    expect(listed.Versions?.map((v) => [v.Key, v.VersionId, v.IsLatest, v.Size])).toEqual([
      [key, v2.VersionId, true, Buffer.byteLength(TREE['a/b/c/d/deep.txt']!)],
      [key, v1.VersionId, false, small.length],
    ]);
    expect(listed.DeleteMarkers ?? []).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// rclone (S3 backend, provider Other, configured entirely by flags)

describe('rclone (S3 backend)', () => {
  const B = 'rclone-bucket';
  const s = scenario('rclone', 'rclone');
  const out = () => join(root, 'out-rclone');
  const local = () => join(root, 'rclone-src');
  const flags = () => [
    '--config', join(s.user.home, 'rclone.conf'),
    '--s3-provider', 'Other',
    '--s3-endpoint', url,
    '--s3-force-path-style',
    '--s3-env-auth=false',
    '--s3-access-key-id', s.user.accessKey,
    '--s3-secret-access-key', s.user.secretKey,
    '--s3-region', 'us-east-1',
    '--retries', '1',
    '--low-level-retries', '1',
    '--contimeout', '5s',
    '--timeout', '30s',
    '--ask-password=false',
  ];
  const rclone = (...args: string[]) => {
    if (!existsSync(join(s.user.home, 'rclone.conf'))) writeFileSync(join(s.user.home, 'rclone.conf'), '');
    return ok(RCLONE, [...args, ...flags()], baseEnv(s.user));
  };
  const lines = (stdout: string) => stdout.split('\n').filter(Boolean);

  s.step('mkdir creates a bucket; rmdir removes an empty one', async () => {
    await rclone('mkdir', ':s3:rclone-empty');
    expect(bucketExists('rclone-empty')).toBe(true);
    await rclone('rmdir', ':s3:rclone-empty');
    expect(bucketExists('rclone-empty')).toBe(false);
    await rclone('mkdir', `:s3:${B}`);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('copy uploads a tree with awkward and unicode names', async () => {
    cpSync(join(src, 'tree'), local(), { recursive: true });
    await rclone('copy', local(), `:s3:${B}/tree`);
    expect(engineNames(B, 'tree/')).toEqual(TREE_NAMES.map((n) => `tree/${n}`));
  });

  s.step('ls lists sizes and names', async () => {
    const r = await rclone('ls', `:s3:${B}/tree`);
    const got = lines(r.stdout).map((l) => /^\s*(\d+) (.*)$/.exec(l)!.slice(1)).map(([size, name]) => [name, Number(size)]);
    expect(got.sort()).toEqual(TREE_NAMES.map((n) => [n, Buffer.byteLength(TREE[n]!)]).sort());
  });

  s.step('lsf -R lists files, --dirs-only lists the folders', async () => {
    const files = await rclone('lsf', '-R', '--files-only', `:s3:${B}/tree`);
    expect(lines(files.stdout).sort()).toEqual(TREE_NAMES);
    const dirs = await rclone('lsf', '-R', '--dirs-only', `:s3:${B}/tree`);
    expect(lines(dirs.stdout).sort()).toEqual(['a/', 'a/b/', 'a/b/c/', 'a/b/c/d/', 'dir one/', 'dir one/sub+dir/', 'pct%dir/', 'ünïcødé/'].sort());
  });

  s.step('check reports 0 differences', async () => {
    const r = await rclone('check', local(), `:s3:${B}/tree`);
    expect(r.stderr).toContain('0 differences found');
    expect(r.stderr).toContain(`${TREE_NAMES.length} matching files`);
  });

  s.step('md5sum matches the local files', async () => {
    const r = await rclone('md5sum', `:s3:${B}/tree`);
    const got = Object.fromEntries(lines(r.stdout).map((l) => [l.slice(34), l.slice(0, 32)]));
    expect(got).toEqual(Object.fromEntries(TREE_NAMES.map((n) => [n, md5(TREE[n]!)])));
  });

  s.step('sync mirrors additions, changes and deletions; check then finds 0 differences', async () => {
    writeFileSync(join(local(), 'added ünï+.txt'), 'added\n');
    writeFileSync(join(local(), 'dir one/file with spaces.txt'), 'changed contents\n');
    rmSync(join(local(), 'a/b/c/d/deep.txt'));
    await rclone('sync', local(), `:s3:${B}/tree`);
    const expected = [...TREE_NAMES.filter((n) => n !== 'a/b/c/d/deep.txt'), 'added ünï+.txt'].sort();
    expect(engineNames(B, 'tree/').map((n) => n.slice(5)).sort()).toEqual(expected);
    expect(objectEtag(B, 'tree/dir one/file with spaces.txt')).toBe(md5('changed contents\n'));
    const r = await rclone('check', local(), `:s3:${B}/tree`);
    expect(r.stderr).toContain('0 differences found');
  });

  s.step('the native API lists what rclone uploaded', async () => {
    expect(await nativeNames(s.user, B, 'tree/')).toEqual(engineNames(B, 'tree/'));
  });

  s.step('a 20 MiB file goes up in parts (5 MiB chunks) and comes back byte-identical', async () => {
    await rclone('copyto', bigFile, `:s3:${B}/big/ビッグ file.bin`, '--s3-upload-cutoff', '5M', '--s3-chunk-size', '5M');
    expect(objectEtag(B, 'big/ビッグ file.bin')).toMatch(/^[0-9a-f]{32}-4$/);
    await rclone('copyto', `:s3:${B}/big/ビッグ file.bin`, join(out(), 'big.bin'));
    expectSameBytes(join(out(), 'big.bin'), big, 'rclone download');
  });

  s.step('copyto and lsf handle a unicode name', async () => {
    await rclone('copyto', smallFile, `:s3:${B}/ünïcødé/ファイル 名 +%.txt`);
    const r = await rclone('lsf', `:s3:${B}/ünïcødé`);
    expect(lines(r.stdout)).toEqual(['ファイル 名 +%.txt']);
    await rclone('copyto', `:s3:${B}/ünïcødé/ファイル 名 +%.txt`, join(out(), 'unicode.txt'));
    expectSameBytes(join(out(), 'unicode.txt'), small, 'rclone unicode download');
  });

  s.step('copyto / moveto between two remote paths copy on the server', async () => {
    await rclone('copyto', `:s3:${B}/ünïcødé/ファイル 名 +%.txt`, `:s3:${B}/copies/copy '&+%.txt`);
    expect(objectEtag(B, "copies/copy '&+%.txt")).toBe(md5(small));
    await rclone('moveto', `:s3:${B}/copies/copy '&+%.txt`, `:s3:${B}/copies/moved ü.txt`);
    expect(engineNames(B, 'copies/')).toEqual(['copies/moved ü.txt']);
    expect(objectEtag(B, 'copies/moved ü.txt')).toBe(md5(small));
  });

  s.step('delete removes the files below a path', async () => {
    await rclone('delete', `:s3:${B}/tree/dir one`);
    expect(engineNames(B, 'tree/dir one/')).toEqual([]);
    expect(engineNames(B, 'tree/').length).toBeGreaterThan(0);
  });

  s.step('purge removes everything and the bucket', async () => {
    await rclone('purge', `:s3:${B}`);
    expect(bucketExists(B)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// s3cmd, once with SigV4 and once with SigV2

function s3cmdScenario(label: string, signatureV2: boolean): void {
  const B = `s3cmd-${label}`;
  const s = scenario('s3cmd', `s3cmd-${label}`);
  const out = () => join(root, `out-s3cmd-${label}`);
  const cfg = () => join(s.user.home, 's3cfg');
  const KEY = signatureV2 ? 'dir/sm all+%ü (v2).txt' : 'dir/small file.txt';
  const s3cmd = (...args: string[]) => {
    if (!existsSync(cfg())) {
      writeFileSync(
        cfg(),
        [
          '[default]',
          `access_key = ${s.user.accessKey}`,
          `secret_key = ${s.user.secretKey}`,
          `host_base = 127.0.0.1:${port}`,
          `host_bucket = 127.0.0.1:${port}`,
          'use_https = False',
          `signature_v2 = ${signatureV2 ? 'True' : 'False'}`,
          'bucket_location = us-east-1',
          'check_ssl_certificate = False',
          'proxy_host =',
          'proxy_port = 0',
          'socket_timeout = 30',
          'max_retries = 1',
          'progress_meter = False',
          '',
        ].join('\n'),
      );
    }
    return ok(S3CMD, ['-c', cfg(), ...args], baseEnv(s.user));
  };

  s.step('mb', async () => {
    await s3cmd('mb', `s3://${B}`);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('put a small file with metadata', async () => {
    await s3cmd('put', '--add-header=x-amz-meta-color:blue', smallFile, `s3://${B}/${KEY}`);
    expect(objectEtag(B, KEY)).toBe(md5(small));
    expect(app.engine.headObject(ref(B), KEY).meta).toMatchObject({ color: 'blue' });
  });

  s.step('put a 20 MiB file with --multipart-chunk-size-mb=5 (four parts)', async () => {
    await s3cmd('put', '--multipart-chunk-size-mb=5', bigFile, `s3://${B}/big.bin`);
    expect(objectEtag(B, 'big.bin')).toMatch(/^[0-9a-f]{32}-4$/);
  });

  s.step('get returns both files byte-identically', async () => {
    mkdirSync(out(), { recursive: true });
    await s3cmd('get', '--force', `s3://${B}/${KEY}`, join(out(), 'small.txt'));
    expectSameBytes(join(out(), 'small.txt'), small, 's3cmd get small');
    await s3cmd('get', '--force', `s3://${B}/big.bin`, join(out(), 'big.bin'));
    expectSameBytes(join(out(), 'big.bin'), big, 's3cmd get big');
  });

  s.step('ls, la and du', async () => {
    const ls = await s3cmd('ls', '-r', `s3://${B}`);
    expect(ls.stdout).toContain(`s3://${B}/${KEY}`);
    expect(ls.stdout).toMatch(new RegExp(`\\s${big.length}\\s+s3://${B}/big\\.bin`));
    const buckets = await s3cmd('ls');
    expect(buckets.stdout).toContain(`s3://${B}`);
    const la = await s3cmd('la');
    expect(la.stdout).toContain(`s3://${B}/big.bin`);
    const du = await s3cmd('du', `s3://${B}`);
    expect(du.stdout).toMatch(new RegExp(`^\\s*${big.length + small.length}\\s+2 objects s3://${B}/`, 'm'));
  });

  s.step('info shows the metadata and the ACL', async () => {
    const r = await s3cmd('info', `s3://${B}/${KEY}`);
    expect(r.stdout).toMatch(/File size:\s+\d+/);
    expect(r.stdout).toMatch(new RegExp(`MD5 sum:\\s+${md5(small)}`));
    expect(r.stdout).toContain('x-amz-meta-color: blue');
    expect(r.stdout).toContain(`ACL:       ${s.user.name}: FULL_CONTROL`);
    const bucketInfo = await s3cmd('info', `s3://${B}`);
    expect(bucketInfo.stdout).toContain(`ACL:       ${s.user.name}: FULL_CONTROL`);
  });

  s.step('setacl --acl-public lets anonymous users read the object; --acl-private stops them', async () => {
    const path = `${B}/${encodeKey(KEY)}`;
    expect((await anonymousGet(path)).status).toBe(403);
    await s3cmd('setacl', '--acl-public', `s3://${B}/${KEY}`);
    expect((await s3cmd('info', `s3://${B}/${KEY}`)).stdout).toMatch(/ACL:\s+\*anon\*: READ/);
    expect(await anonymousGet(path)).toEqual({ status: 200, body: small.toString() });
    await s3cmd('setacl', '--acl-private', `s3://${B}/${KEY}`);
    expect((await s3cmd('info', `s3://${B}/${KEY}`)).stdout).not.toContain('*anon*');
    expect((await anonymousGet(path)).status).toBe(403);
  });

  s.step('signurl makes a (SigV2 query) URL that works without credentials', async () => {
    const signed = (await s3cmd('signurl', `s3://${B}/${KEY}`, '+300')).stdout.trim();
    expect(signed).toContain('Signature=');
    expect(await anonymousGet(signed.slice(url.length + 1))).toEqual({ status: 200, body: small.toString() });
    const tampered = signed.replace(/Expires=(\d+)/, (_, e: string) => `Expires=${Number(e) + 1}`);
    expect((await anonymousGet(tampered.slice(url.length + 1))).status).toBe(403);
  });

  s.step('del removes the objects', async () => {
    await s3cmd('del', `s3://${B}/${KEY}`, `s3://${B}/big.bin`);
    expect(engineNames(B)).toEqual([]);
  });

  s.step('rb removes the bucket', async () => {
    await s3cmd('rb', `s3://${B}`);
    expect(bucketExists(B)).toBe(false);
  });
}

describe('s3cmd (SigV4)', () => s3cmdScenario('v4', false));
describe('s3cmd (SigV2)', () => s3cmdScenario('v2', true));

// ---------------------------------------------------------------------------------------------
// boto3: one script run (tests/compat/fixtures/boto3_scenario.py) observes; the steps assert.

type Outcome = { ok: true; value: unknown } | { ok: false; error: string; trace?: string };

describe('boto3', () => {
  const B = 'boto3-bucket';
  const MANY_BUCKET = 'boto3-many';
  // Awkward names: with EncodingType=url (boto3 sends it and decodes the answer) they must round-trip.
  const SUFFIXES = ['plain', 'a+b', '100%', 'sp ace', 'pct%41', 'ünï', 'amp&er', "quo'te", 'lt<gt>', 'tab\tkey', 'x=y;z', 'trail '];
  const MANY = Array.from({ length: 1200 }, (_, i) => `many/${String(i).padStart(4, '0')} ${SUFFIXES[i % SUFFIXES.length]}`);
  const s = scenario('boto3', 'boto3');
  const work = () => join(root, 'out-boto3');
  let report: Record<string, Outcome> = {};
  /** The value a script step observed; throws with the script's error when the step failed. */
  const value = <T>(name: string): T => {
    const o = report[name];
    expect(o, `script step ${name} ran`).toBeDefined();
    if (!o!.ok) throw new Error(`boto3 step ${name} failed: ${o!.error}\n${o!.trace ?? ''}`);
    return o!.value as T;
  };

  s.step('the script runs', async () => {
    // 1,200 boto3 PUTs would cost more CPU than everything else here: the keys go in through the engine.
    await app.engine.createContainer(s.user.account, MANY_BUCKET);
    for (const k of [...MANY, 'top+level.txt', 'top %.txt', 'other dir/x']) await app.engine.putObject(ref(MANY_BUCKET), k, k);
    mkdirSync(work(), { recursive: true });
    writeFileSync(join(work(), 'many.json'), JSON.stringify(MANY));
    cpSync(bigFile, join(work(), 'big.bin'));
    const env = baseEnv(s.user, { AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: join(s.user.home, 'no-aws-config'), AWS_SHARED_CREDENTIALS_FILE: join(s.user.home, 'no-aws-credentials') });
    const r = await run(PYTHON, [BOTO3_SCRIPT, url, s.user.accessKey, s.user.secretKey, B, MANY_BUCKET, work()], env, { timeoutMs: 50_000 });
    expect(r.code, show('boto3_scenario.py', r)).toBe(0);
    report = JSON.parse(r.stdout) as Record<string, Outcome>;
    if (process.env.COFFER_CLIENTS_TIMINGS) console.log(Object.entries(report).map(([k, v]) => `${k}: ${(v as { seconds?: number }).seconds ?? ''}s`).join('\n'));
  });

  s.step('create_bucket', async () => {
    const v = value<{ status: number; buckets: string[] }>('create_bucket');
    expect(v.status).toBe(200);
    expect(v.buckets).toContain(B);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('put_object with Metadata; head_object and get_object return it; native HEAD sees it', async () => {
    const v = value<Record<string, unknown>>('put_get_metadata');
    expect(v.putEtag).toBe(`"${v.md5}"`);
    expect(v).toMatchObject({ headContentType: 'text/x-boto', headLength: 17, getBodyEqual: true });
    expect(v.headMetadata).toEqual({ color: 'blue', 'mixed-case': 'Value 1' });
    expect(v.getMetadata).toEqual({ color: 'blue', 'mixed-case': 'Value 1' });
    const native = await nativeHead(s.user, B, 'meta/hello world+.txt');
    expect(native.status).toBe(200);
    expect(native.headers.get('x-object-meta-color')).toBe('blue');
    expect(native.headers.get('x-object-meta-mixed-case')).toBe('Value 1');
  });

  s.step('1,200 awkward keys: the list_objects_v2 paginator (encoding-type=url) returns each once, in order', async () => {
    const v = value<{ pages: number; count: number; missing: string[]; unexpected: string[]; ordered: boolean }>('paginate_many');
    expect(v).toEqual({ pages: 3, count: 1200, missing: [], unexpected: [], ordered: true });
  });

  s.step('list_objects_v2 with a delimiter, one key per page', async () => {
    expect(value('paginate_delimiter')).toEqual({ prefixes: ['many/', 'other dir/'], keys: ['top %.txt', 'top+level.txt'] });
  });

  s.step('list_objects (v1) paginator with markers', async () => {
    expect(value('list_objects_v1_marker')).toEqual({ count: 1200, missing: [] });
  });

  s.step('upload_file / download_file with a multipart TransferConfig', async () => {
    const v = value<{ etag: string; length: number; same: boolean }>('multipart_transfer');
    expect(v.etag).toMatch(/^"[0-9a-f]{32}-4"$/);
    expect(v).toMatchObject({ length: big.length, same: true });
  });

  s.step('generate_presigned_url GET works through urllib; a tampered signature is refused', async () => {
    expect(value('presigned_get')).toEqual({ status: 200, body: 'hello from boto3\n', tampered: 403 });
  });

  s.step('delete_objects removes all 1,200 keys, each reported under its own name', async () => {
    const v = value<{ deleted: number; errors: unknown[]; left: number }>('delete_many');
    expect(v.errors, `DeleteObjects problems: ${JSON.stringify(v.errors)}`).toEqual([]);
    expect(v.left).toBe(0);
    expect(v.deleted).toBe(1200);
    expect(engineNames(MANY_BUCKET, 'many/')).toEqual([]);
  });

  s.step('versioning and list_object_versions', async () => {
    const v = value<{
      status: string;
      v1: string;
      v2: string;
      markerFlag: boolean;
      markerVersion: string;
      versions: { Key: string; VersionId: string; IsLatest: boolean }[];
      deleteMarkers: { Key: string; VersionId: string; IsLatest: boolean }[];
      oldBody: string;
    }>('versioning');
    expect(v.status).toBe('Enabled');
    expect(v.markerFlag).toBe(true);
    expect(v.versions).toEqual([
      { Key: 'ver/doc+1.txt', VersionId: v.v2, IsLatest: false },
      { Key: 'ver/doc+1.txt', VersionId: v.v1, IsLatest: false },
    ]);
    expect(v.deleteMarkers).toEqual([{ Key: 'ver/doc+1.txt', VersionId: v.markerVersion, IsLatest: true }]);
    expect(v.oldBody).toBe('one');
  });
});

// ---------------------------------------------------------------------------------------------

describe('server', () => {
  it('logged no internal errors while the clients ran', async () => {
    await Promise.race([Promise.all(scenarios.map((s) => s.finished())), new Promise((r) => setTimeout(r, 50_000))]);
    expect(serverLog.filter((l) => /internal error/.test(l))).toEqual([]);
    expect(serverLog.filter((l) => / 5\d\d \d+ms$/.test(l))).toEqual([]);
  });
});
