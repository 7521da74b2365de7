// Folder downloads from the real servers users run (Swift over its Swift API and s3api, Ceph RGW
// over S3 and its Swift API), as the app makes them: files under 256 KiB one request each, written
// in batches; larger ones in one stream each, written and hashed as they arrive on a stream
// thread and checked against the server's ETag, or, uploaded in parts to a server that cannot
// say where they lie, part by part in the parts guessed; the largest paused mid-way and resumed
// from its kept bytes, which takes the server's answer to a range from them. Every file must end
// done, verified and byte for byte in a folder the download had to make. Over the Swift APIs, the
// large objects the `swift` CLI makes (a DLO, an SLO) come down verified too.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { TransferItem } from '../../src-shared/contract/transfers.js';
import { createClient } from '../../src-shared/rpc/client.js';
import { describeWith, reference } from '../reference/reference.js';
import { uploadInParts } from '../backends/helpers.js';
import { v1StorageUrl } from '../backends/reference-fixtures.js';
import { swiftClientEnv } from '../native/swift-tools.js';
import { throttleProxy, type ThrottleProxy } from './throttle-proxy.js';
import { settledItems } from './transfer-items.js';

const MiB = 1024 * 1024;
/** The folder as it is on disk and as it must come back: a name under album/ and its bytes. */
const FILES: Record<string, Buffer> = {
  // One PUT over the Swift API (its ETag its MD5: one stream); three parts of 8 MiB over S3,
  // whose layout neither server can tell (downloaded in the parts a common client would make).
  'big.bin': randomBytes(24 * MiB),
  'mid.bin': randomBytes(600 * 1024),
  'note.txt': Buffer.from('a note'),
  'deep/er.txt': randomBytes(4096),
};
/** Fast enough for a quick test, slow enough that big.bin is still coming when it is paused. */
const DOWN_BYTES_PER_SEC = 8 * MiB;

let dir: string;
let ctx: AppContext;
let counter = 0;
const proxies: ThrottleProxy[] = [];
const api = () => createClient(ctx.rpc.asTransport()).services;
/** An account's settings as the app takes them (defaults not filled in yet). */
type ConnectionInput = Parameters<ReturnType<typeof api>['accounts']['add']>[0]['config'];
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

async function items(ids: string[]): Promise<TransferItem[]> {
  return (await api().transfers.list({})).items.filter((i) => ids.includes(i.id));
}

const settled = (ids: string[]) => settledItems(() => api().transfers.list({}), ids, 120_000);

/**
 * The same account, its traffic through a proxy that lets downloads through at DOWN_BYTES_PER_SEC.
 * A Swift account goes by a token and its storage URL moved onto the proxy: RGW hands out its
 * configured `rgw swift url`, which would lead the downloads past the proxy.
 */
async function throttled(config: ConnectionInput, url: string): Promise<{ config: ConnectionInput; proxy: ThrottleProxy }> {
  const proxy = await throttleProxy(Number(new URL(url).port), DOWN_BYTES_PER_SEC, { downloads: true });
  proxies.push(proxy);
  const via = (u: string) => proxy.url + u.slice(new URL(u).origin.length);
  if (config.kind === 's3') return { config: { ...config, endpoint: via(config.endpoint) }, proxy };
  if (config.auth.type !== 'v1') throw new Error('v1 auth expected');
  const { storageUrl, token } = await v1StorageUrl(config.authUrl, config.auth.user, config.auth.key);
  return { config: { kind: 'swift', authUrl: config.authUrl, auth: { type: 'token', token, storageUrl: via(storageUrl) } }, proxy };
}

/** Uploads the folder through `config`, then downloads it through the throttled connection as above. */
async function comesDownWhole(name: string, config: ConnectionInput, serverUrl: string) {
  const { id: direct } = await api().accounts.add({ name, config });
  const slow = await throttled(config, serverUrl);
  const { id: viaProxy } = await api().accounts.add({ name: `${name}, downloads at 8 MiB/s`, config: slow.config });
  const c = `down-${process.pid}-${++counter}`;
  await api().browse.createContainer({ account: direct, container: c });
  const plan = await api().transfers.planUpload({ account: direct, container: c, prefix: '', paths: [join(dir, 'album')] });
  const uploaded = await settled((await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' })).items.map((i) => i.id));
  expect(uploaded.map((i) => [i.name, i.state, i.error ?? null]).sort()).toEqual(Object.keys(FILES).map((f) => [`album/${f}`, 'done', null]).sort());

  // Neither the chosen folder nor its subfolders exist yet.
  const target = join(dir, `down-${counter}`, 'chosen');
  const sentBefore = slow.proxy.bytesDown();
  const { ids } = await api().transfers.download({ account: viaProxy, container: c, prefixes: ['album/'], folder: target });
  expect(ids).toHaveLength(Object.keys(FILES).length);
  const big = async () => (await items(ids)).find((i) => i.name === 'album/big.bin')!;
  for (let i = 0; i < 800 && (await big()).transferred < 4 * MiB; i++) await sleep(25);
  await api().transfers.pause({ ids: [(await big()).id] });
  for (let i = 0; i < 200 && (await big()).state !== 'paused'; i++) await sleep(25);
  expect(await big()).toMatchObject({ state: 'paused', resumable: true });
  expect(existsSync(join(target, 'album', 'big.bin.coffer-partial'))).toBe(true);
  const kept = (await big()).transferred;
  expect(kept).toBeGreaterThanOrEqual(4 * MiB);
  expect(kept).toBeLessThan(24 * MiB);

  await api().transfers.resume({ ids });
  const done = await settled(ids);
  expect(done.map((i) => [i.name, i.state, i.verified, i.error ?? null]).sort()).toEqual(Object.keys(FILES).map((f) => [`album/${f}`, 'done', true, null]).sort());
  for (const [f, bytes] of Object.entries(FILES)) expect(md5(readFileSync(join(target, 'album', f))), f).toBe(md5(bytes));
  expect(readdirSync(join(target, 'album'), { recursive: true }).filter((n) => String(n).endsWith('.coffer-partial'))).toEqual([]);
  // Resumed, not started again: the kept bytes did not come a second time.
  const total = Object.values(FILES).reduce((n, b) => n + b.length, 0);
  expect(slow.proxy.bytesDown() - sentBefore).toBeLessThan(total + kept / 2);
}

/**
 * Objects another client uploaded in parts, to a server that cannot say where they lie: in
 * s3cmd's 15 MiB parts (16 MiB, guessed first, makes as many: the download tries 15 on the file
 * as it lies) it comes down verified; in parts of no one size, whole and checked by length, not failed.
 */
async function otherClientsPartsComeDown(name: string, config: Extract<ConnectionInput, { kind: 's3' }>) {
  const { id: account } = await api().accounts.add({ name, config });
  const c = `parts-${process.pid}-${++counter}`;
  await api().browse.createContainer({ account, container: c });
  const s3 = new S3Client({ endpoint: config.endpoint, region: 'us-east-1', credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }, forcePathStyle: true });
  const s3cmd = randomBytes(40 * MiB);
  const uneven = [randomBytes(6 * MiB), randomBytes(5 * MiB), randomBytes(MiB)];
  try {
    await uploadInParts(s3, c, 's3cmd.bin', [s3cmd.subarray(0, 15 * MiB), s3cmd.subarray(15 * MiB, 30 * MiB), s3cmd.subarray(30 * MiB)]);
    await uploadInParts(s3, c, 'uneven.bin', uneven);
  } finally {
    s3.destroy();
  }
  const target = join(dir, `parts-${counter}`);
  const done = await settled((await api().transfers.download({ account, container: c, names: ['s3cmd.bin', 'uneven.bin'], folder: target })).ids);
  expect(done.map((i) => [i.name, i.state, i.verified, i.error ?? null]).sort()).toEqual([
    ['s3cmd.bin', 'done', true, null],
    ['uneven.bin', 'done', false, null],
  ]);
  expect(md5(readFileSync(join(target, 's3cmd.bin')))).toBe(md5(s3cmd));
  expect(md5(readFileSync(join(target, 'uneven.bin')))).toBe(md5(Buffer.concat(uneven)));
}

/** Runs python-swiftclient's `swift` CLI as `user`. */
function swiftCli(authUrl: string, user: string, key: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('swift', ['-A', authUrl, '-U', user, '-K', key, ...args], { env: swiftClientEnv(), timeout: 60_000 }, (err, _out, stderr) => (err ? reject(new Error(`swift ${args[0]}: ${stderr || err.message}`)) : resolve())),
  );
}

/**
 * A folder of files the `swift` CLI uploaded in segments, as a DLO (its default; listed at 0
 * bytes, as Swift lists a DLO) and as an SLO (`--use-slo`), segments in `<container>_segments`,
 * comes down verified: a DLO's segments from the listing its manifest names; an SLO's from its
 * manifest, or where the server keeps that to itself (RGW), from where the CLI put them.
 */
async function swiftCliUploadsComeDown(name: string, authUrl: string, user: string, key: string) {
  const { id: account } = await api().accounts.add({ name, config: { kind: 'swift', authUrl, auth: { type: 'v1', user, key } } });
  const c = `cli-${process.pid}-${++counter}`;
  const bytes = randomBytes(12 * MiB + 3);
  const file = join(dir, `cli-${counter}.bin`);
  writeFileSync(file, bytes);
  for (const [object, flags] of [['dlo.bin', []], ['slo.bin', ['--use-slo']]] as const) {
    await swiftCli(authUrl, user, key, ['upload', '-S', String(5 * MiB), ...flags, '--object-name', `cli/${object}`, c, file]);
  }
  const { storageUrl, token } = await v1StorageUrl(authUrl, user, key);
  const objectHeaders = async (object: string) => (await fetch(`${storageUrl}/${c}/${object}`, { method: 'HEAD', headers: { 'X-Auth-Token': token } })).headers;
  expect((await objectHeaders('cli/dlo.bin')).get('x-object-manifest')).toMatch(new RegExp(`^${c}_segments/cli/dlo\\.bin/`));
  expect((await objectHeaders('cli/slo.bin')).get('x-static-large-object')).toMatch(/^true$/i);
  const listed = (await api().browse.listFolder({ account, container: c, prefix: 'cli/' })).entries;
  expect(listed.find((e) => e.kind === 'object' && e.name === 'cli/dlo.bin')).toMatchObject({ size: 0 });

  const target = join(dir, `cli-${counter}`);
  const done = await settled((await api().transfers.download({ account, container: c, prefixes: ['cli/'], folder: target })).ids);
  expect(done.map((i) => [i.name, i.state, i.verified, i.size, i.error ?? null]).sort()).toEqual([
    ['cli/dlo.bin', 'done', true, bytes.length, null],
    ['cli/slo.bin', 'done', true, bytes.length, null],
  ]);
  for (const object of ['dlo.bin', 'slo.bin']) expect(md5(readFileSync(join(target, 'cli', object))), object).toBe(md5(bytes));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-transfers-ref-down-'));
  ctx = await createAppContext({ dataDir: join(dir, 'store'), port: 0, engine: { noSync: true } });
  for (const [f, bytes] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, 'album', f)), { recursive: true });
    writeFileSync(join(dir, 'album', f), bytes);
  }
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

describeWith('swift', 'a folder download from real Swift', () => {
  it('over its Swift API comes down whole and verified, a paused file resumed from its kept bytes', async () => {
    const swift = await reference('swift');
    const u = swift.users.tester;
    await comesDownWhole('swift', { kind: 'swift', authUrl: swift.authUrl, auth: { type: 'v1', user: `${u.account}:${u.user}`, key: u.key } }, swift.url);
  });

  it('over its S3 API (s3api) comes down whole and verified, a paused file resumed from its kept bytes', async () => {
    const swift = await reference('swift');
    const u = swift.users.tester;
    await comesDownWhole('swift s3api', { kind: 's3', endpoint: swift.url, accessKeyId: `${u.account}:${u.user}`, secretAccessKey: u.key }, swift.url);
  });

  it("over its Swift API, the swift CLI's DLO and SLO come down verified", async () => {
    const swift = await reference('swift');
    const u = swift.users.tester;
    await swiftCliUploadsComeDown('swift cli', swift.authUrl, `${u.account}:${u.user}`, u.key);
  });

  it("over its S3 API (s3api), another client's parts: verified where they are of one size, checked by length where not", async () => {
    const swift = await reference('swift');
    const u = swift.users.tester;
    await otherClientsPartsComeDown('swift s3api parts', { kind: 's3', endpoint: swift.url, accessKeyId: `${u.account}:${u.user}`, secretAccessKey: u.key });
  });
});

describeWith('rgw', 'a folder download from real Ceph RGW', () => {
  it('over S3 comes down whole and verified, a paused file resumed from its kept bytes', async () => {
    const rgw = await reference('rgw');
    const u = rgw.users.tester;
    await comesDownWhole('rgw s3', { kind: 's3', endpoint: rgw.url, accessKeyId: u.accessKey, secretAccessKey: u.secretKey }, rgw.url);
  });

  it("over S3, another client's parts: verified where they are of one size, checked by length where not", async () => {
    const rgw = await reference('rgw');
    const u = rgw.users.tester;
    await otherClientsPartsComeDown('rgw s3 parts', { kind: 's3', endpoint: rgw.url, accessKeyId: u.accessKey, secretAccessKey: u.secretKey });
  });

  it("over its Swift API, the swift CLI's DLO and SLO come down verified", async () => {
    const rgw = await reference('rgw');
    await swiftCliUploadsComeDown('rgw swift cli', rgw.authUrl, rgw.users.tester.swiftUser, rgw.users.tester.swiftKey);
  });

  it('over its Swift API comes down whole and verified, a paused file resumed from its kept bytes', async () => {
    const rgw = await reference('rgw');
    const u = rgw.users.tester;
    await comesDownWhole('rgw swift', { kind: 'swift', authUrl: rgw.authUrl, auth: { type: 'v1', user: u.swiftUser, key: u.swiftKey } }, rgw.url);
  });
});
