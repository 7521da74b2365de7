// Large downloads in ranges (services/transfers/ranged-download.ts). An object whose CRC32 the
// server keeps (S3's full-object checksum: Coffer's own multipart uploads ask for it) comes in four
// ranges, each range's CRC32 taken as it arrives and the whole checked against the server's. An
// object in parts the backend can lay out (an S3 multipart upload without that checksum, a Swift
// SLO) comes part by part, four at once, each hashed once on disk and checked: against its listed
// MD5 (SLO) and together against the ETag; any other object of 256 MiB or more whose ETag is not
// its MD5 comes in four ranges. On a real app and server, over S3 and Swift: the file arrives byte
// for byte and verified; each range's progress (and its CRC32, or each finished part's MD5) is on
// disk while it runs (what a killed app resumes from), survives a pause and a restart, and the
// resumed download fetches only what is missing and is verified too; a byte damaged on the way fails it with nothing left behind; a dropped
// connection is retried from where each part was; a cancel leaves nothing; an object replaced
// while paused is fetched again whole, never mixed; an object of uneven parts that add up as
// parts of one size would (taken for those at first) still comes down verified, and damaged
// bytes in it still fail it.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { TransferItem } from '../../src-shared/contract/transfers.js';
import { createClient } from '../../src-shared/rpc/client.js';
import { uploadInParts } from '../backends/helpers.js';
import { throttleProxy, type ThrottleProxy } from './throttle-proxy.js';

const MiB = 1024 * 1024;
const SIZE = 260 * MiB;
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

let dir: string;
let ctx: AppContext;
let proxy: ThrottleProxy;
/** Account ids: straight to the app's server, and S3 and Swift through a proxy at 64 MiB/s each way. */
let accounts: { s3: string; swift: string; slowS3: string; slowSwift: string };
let data: Buffer;
let counter = 0;

const api = () => createClient(ctx.rpc.asTransport()).services;
/** The app's server's access log: `<time> <id> <method> <url> <status> <ms>` a request. */
const requests: string[] = [];
const open = (port = 0) => createAppContext({ dataDir: join(dir, 'store'), port, engine: { noSync: true }, log: (line) => requests.push(line) });

async function addAccounts() {
  const [user] = await api().localStore.users({});
  const key = { accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey };
  const s3 = await api().accounts.add({ name: 'self over S3', config: { kind: 's3', endpoint: ctx.server.url, ...key } });
  const swift = await api().accounts.add({
    name: 'self over Swift',
    config: { kind: 'swift', authUrl: `${ctx.server.url}/auth/1.0`, auth: { type: 'v1', user: user!.swiftKeys[0]!.user, key: user!.swiftKeys[0]!.secretKey } },
  });
  const slowS3 = await api().accounts.add({ name: 'self over S3 at 64 MiB/s', config: { kind: 's3', endpoint: proxy.url, ...key } });
  const slowSwift = await api().accounts.add({
    name: 'self over Swift at 64 MiB/s',
    config: { kind: 'swift', authUrl: `${proxy.url}/auth/1.0`, auth: { type: 'v1', user: user!.swiftKeys[0]!.user, key: user!.swiftKeys[0]!.secretKey } },
  });
  return { s3: s3.id, swift: swift.id, slowS3: slowS3.id, slowSwift: slowSwift.id };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-ranged-'));
  ctx = await open();
  proxy = await throttleProxy(ctx.server.port, 64 * MiB, { downloads: true });
  accounts = await addAccounts();
  data = randomBytes(SIZE);
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'disk.img'), data);
});
afterAll(async () => {
  await proxy?.close();
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const items = async (ids: string[]) => (await api().transfers.list({})).items.filter((i) => ids.includes(i.id));
const item = async (id: string) => (await items([id]))[0]!;

async function settled(ids: string[], timeoutMs = 120_000): Promise<TransferItem[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = await items(ids);
    if (now.every((i) => ['done', 'failed', 'cancelled'].includes(i.state))) return now;
    if (Date.now() > until) throw new Error(`transfers still running: ${JSON.stringify(now)}`);
    await sleep(50);
  }
}

/** Waits until `ok`, failing at once if the transfer `id` fails. */
async function waitFor(id: string, what: string, ok: (now: TransferItem) => boolean, timeoutMs = 30_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; ; await sleep(20)) {
    const now = await item(id);
    if (ok(now)) return;
    if (now.state === 'failed' || Date.now() > until) throw new Error(`waiting for ${what}: ${JSON.stringify(now)}`);
  }
}

/** The large file uploaded through `account` (multipart over S3, an SLO over Swift) into a new container. */
async function uploaded(account: string): Promise<string> {
  const c = `ranged-${++counter}`;
  await api().browse.createContainer({ account, container: c });
  const plan = await api().transfers.planUpload({ account, container: c, prefix: '', paths: [join(dir, 'src', 'disk.img')] });
  const { items: started } = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
  expect(await settled(started.map((i) => i.id))).toMatchObject([{ state: 'done' }]);
  return c;
}

/** The resume token the queue has written down for a job (what the app finds after a kill). */
function savedRanges(id: string): { etag: string; size: number; done: number[]; md5s?: (string | null)[]; crcs?: number[] } | null {
  const { jobs } = JSON.parse(readFileSync(join(dir, 'store', 'transfers.json'), 'utf8')) as { jobs: { item: { id: string }; resumeToken: string | null }[] };
  const token = jobs.find((j) => j.item.id === id)?.resumeToken;
  return token ? (JSON.parse(token) as { etag: string; size: number; done: number[] }) : null;
}

/** The app's Swift API as its user: the storage URL and a token. */
async function swiftSession(): Promise<{ storageUrl: string; token: string }> {
  const [user] = await api().localStore.users({});
  const { user: name, secretKey } = user!.swiftKeys[0]!;
  const auth = await fetch(`${ctx.server.url}/auth/1.0`, { headers: { 'X-Auth-User': name, 'X-Auth-Key': secretKey } });
  return { storageUrl: auth.headers.get('x-storage-url')!, token: auth.headers.get('x-auth-token')! };
}

/** An SLO's segments as its manifest lists them: `/container/object` and size. */
async function segmentsOf(c: string): Promise<{ name: string; bytes: number }[]> {
  const { storageUrl, token } = await swiftSession();
  const manifest = await fetch(`${storageUrl}/${c}/disk.img?multipart-manifest=get&format=json`, { headers: { 'X-Auth-Token': token } });
  return (await manifest.json()) as { name: string; bytes: number }[];
}

/** The sizes of the object's parts: an S3 multipart upload's as stored, an SLO's segments as its manifest lists them. */
async function partSizesOf(c: string): Promise<number[]> {
  const sizes = ctx.engine.headObject({ tenant: ctx.localAccount.tenant, container: c }, 'disk.img').partSizes;
  return sizes ?? (await segmentsOf(c)).map((segment) => segment.bytes);
}

/** The parts (index, bytes) all on disk by `done`, from the stored object's part sizes. */
async function finishedParts(c: string, done: number[]): Promise<[number, { start: number; end: number }][]> {
  let start = 0;
  const parts = (await partSizesOf(c)).map((n) => ({ start, end: (start += n) }));
  expect(parts).toHaveLength(done.length);
  return [...parts.entries()].filter(([i, p]) => done[i] === p.end - p.start);
}

describe.each(['s3', 'swift'] as const)('a large object over %s', (kind) => {
  it('comes down byte for byte and verified (S3: by the object\'s CRC32; Swift: segment by segment, each read directly)', async () => {
    const account = accounts[kind];
    const c = await uploaded(account);
    // Into a folder not made yet: the download makes it.
    const path = join(dir, `new-folder-${++counter}`, 'down.img');
    const from = requests.length;
    const { id } = await api().transfers.downloadToPath({ account, container: c, name: 'disk.img', path });
    expect(await settled([id])).toMatchObject([{ state: 'done', size: SIZE, transferred: SIZE, verified: true }]);
    expect(md5(readFileSync(path))).toBe(md5(data));
    expect(existsSync(`${path}.coffer-partial`)).toBe(false);
    if (kind !== 'swift') return;
    // The SLO's bytes came from its segments, each a plain GET: the manifest itself was read once, for its list.
    const gets = requests.slice(from).filter((l) => l.includes(' GET /v1/'));
    const segments = (await partSizesOf(c)).length;
    expect(segments).toBeGreaterThan(4);
    expect(gets.filter((l) => l.includes(`/${c}_segments/`))).toHaveLength(segments);
    expect(gets.filter((l) => l.includes(`/${c}/disk.img`)).map((l) => l.split(' ')[3]!.replace(/^.*\/disk\.img/, ''))).toEqual(['?multipart-manifest=get&format=json']);
  });

  it('fails a download with a byte damaged on the way (BadDigest), leaving no file, no partial file, no token', async () => {
    const account = kind === 's3' ? accounts.slowS3 : accounts.slowSwift;
    const c = await uploaded(accounts[kind]);
    const path = join(dir, `damaged-${++counter}.img`);
    const { id } = await api().transfers.downloadToPath({ account, container: c, name: 'disk.img', path });
    await waitFor(id, 'some progress', (now) => now.transferred >= 16 * MiB);
    proxy.damageOnce();
    const [after] = await settled([id]);
    expect(after).toMatchObject({ state: 'failed', verified: false });
    expect(after!.error).toMatch(/arrived damaged/);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.coffer-partial`)).toBe(false);
    // The queue file is rewritten within half a second of a change.
    for (let i = 0; i < 100 && savedRanges(id) !== null; i++) await sleep(50);
    expect(savedRanges(id)).toBeNull();
  });
});

/**
 * A new container with `name` made by a multipart upload of these parts, by another S3 client
 * that sends no checksums (as older tools): the object has no CRC32, its download goes part by part.
 */
async function multipartObject(name: string, parts: Buffer[]): Promise<string> {
  const [user] = await api().localStore.users({});
  const credentials = { accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey };
  const s3 = new S3Client({ endpoint: ctx.server.url, region: 'us-east-1', forcePathStyle: true, credentials, requestChecksumCalculation: 'WHEN_REQUIRED' });
  const c = `parts-${++counter}`;
  try {
    await api().browse.createContainer({ account: accounts.s3, container: c });
    await uploadInParts(s3, c, name, parts);
  } finally {
    s3.destroy();
  }
  return c;
}

describe('a full disk', () => {
  /** Downloads `name` from container `c` to a file whose every write fails as on a full disk: it fails at once, saying so. */
  async function expectFullDiskFailure(c: string, name: string): Promise<void> {
    const path = join(dir, `full-${++counter}.bin`);
    symlinkSync('/dev/full', `${path}.coffer-partial`);
    const { id } = await api().transfers.downloadToPath({ account: accounts.s3, container: c, name, path });
    const [failed] = await settled([id]);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, verified: false });
    expect(failed!.error).toMatch(/no space left on device/i);
    expect(failed!.error).not.toMatch(/connection/);
    expect(existsSync(path)).toBe(false);
  }

  it('fails a download in parts at once, saying so, and tries no more', async () => {
    await expectFullDiskFailure(await multipartObject('full.bin', [randomBytes(5 * MiB), randomBytes(5 * MiB)]), 'full.bin');
  });

  it('fails a download in one stream (written on a stream thread) the same way', async () => {
    const c = `stream-${++counter}`;
    await api().browse.createContainer({ account: accounts.s3, container: c });
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'one.bin', randomBytes(2 * MiB));
    await expectFullDiskFailure(c, 'one.bin');
  });
});

// Parts of 6, 5, 7 and 5 MiB: the first and the last say parts of 6 MiB, which add up the same.
// Laid out so at first, the parts' MD5s do not make the ETag: the parts are then asked one by one
// and the file is hashed again by them.
describe('an object in uneven parts that add up as parts of one size would', () => {
  const parts = [6, 5, 7, 5].map((n) => randomBytes(n * MiB));
  const whole = Buffer.concat(parts);

  it('comes down verified', async () => {
    const c = await multipartObject('uneven.bin', parts);
    const path = join(dir, `uneven-${++counter}.bin`);
    const { id } = await api().transfers.downloadToPath({ account: accounts.s3, container: c, name: 'uneven.bin', path });
    expect(await settled([id])).toMatchObject([{ state: 'done', size: whole.length, verified: true }]);
    expect(md5(readFileSync(path))).toBe(md5(whole));
  });

  it('fails with a byte damaged on the way', async () => {
    const c = await multipartObject('uneven.bin', parts);
    const path = join(dir, `uneven-damaged-${++counter}.bin`);
    proxy.damageOnce();
    const { id } = await api().transfers.downloadToPath({ account: accounts.slowS3, container: c, name: 'uneven.bin', path });
    const [after] = await settled([id]);
    expect(after).toMatchObject({ state: 'failed', verified: false });
    expect(after!.error).toMatch(/arrived damaged/);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.coffer-partial`)).toBe(false);
  });
});

/** `data` in parts of 8 MiB by another client (no CRC32): its download goes part by part. */
const inPartsByAnother = () => multipartObject('disk.img', Array.from({ length: Math.ceil(SIZE / (8 * MiB)) }, (_, i) => data.subarray(i * 8 * MiB, (i + 1) * 8 * MiB)));

/** The bytes' CRC32 as a number, as the token keeps a range's. */
const crcOf = (b: Buffer) => crc32(b) >>> 0;

/** Each finished part's MD5 is kept with it (hashed from disk); the others' are not known yet. */
const checkPartMd5s = async (saved: Saved, c: string) => {
  expect(saved.crcs).toBeUndefined();
  const whole = await finishedParts(c, saved.done);
  expect(whole.length).toBeGreaterThan(0);
  for (const [i, { start, end }] of whole) expect(saved.md5s![i]).toBe(md5(data.subarray(start, end)));
};

type Saved = NonNullable<ReturnType<typeof savedRanges>>;
interface ResumeCase {
  label: string;
  make: () => Promise<string>;
  account: () => string;
  /** What the token must show before the pause, beyond four ranges under way. */
  pauseWhen?: (saved: Saved) => boolean;
  checkSaved: (saved: Saved, c: string) => void | Promise<void>;
}

const resumeCases: ResumeCase[] = [
  {
    label: 'uploaded by Coffer: four ranges, each with the CRC32 of its bytes on disk',
    make: () => uploaded(accounts.s3),
    account: () => accounts.slowS3,
    checkSaved: (saved) => {
      expect(saved.md5s).toBeUndefined();
      expect(saved.done).toHaveLength(4);
      const quarter = Math.ceil(SIZE / 4);
      saved.done.forEach((n, i) => expect(saved.crcs![i]).toBe(crcOf(data.subarray(i * quarter, i * quarter + n))));
    },
  },
  {
    label: 'uploaded by another client: part by part, each finished part with its MD5',
    make: inPartsByAnother,
    account: () => accounts.slowS3,
    checkSaved: checkPartMd5s,
  },
  {
    label: 'an SLO uploaded by Coffer over Swift: segment by segment, each read directly from where it stopped',
    make: () => uploaded(accounts.swift),
    account: () => accounts.slowSwift,
    // Its segments are larger than the other object's parts: paused once one is whole and hashed.
    pauseWhen: (saved) => saved.md5s?.some((m) => m !== null) ?? false,
    checkSaved: checkPartMd5s,
  },
];

describe.each(resumeCases)('a large download paused and carried over a restart, $label', ({ make, account, checkSaved, pauseWhen }) => {
  it('keeps each range\'s progress on disk while it runs, resumes after a restart fetching only what is missing', async () => {
    const c = await make();
    const path = join(dir, `resumed-${++counter}.img`);
    const { id } = await api().transfers.downloadToPath({ account: account(), container: c, name: 'disk.img', path });
    // While it runs, four parts' progress is on disk within about a second: what a killed app comes back to.
    await waitFor(id, 'four parts to have progress on disk', () => (savedRanges(id)?.done.filter((n) => n >= MiB).length ?? 0) >= 4);
    if (pauseWhen) await waitFor(id, 'a whole part', () => pauseWhen(savedRanges(id)!));
    await api().transfers.pause({ ids: [id] });
    await waitFor(id, 'the pause', (now) => now.state === 'paused');
    const paused = await item(id);
    // The queue file is rewritten at most twice a second: it comes to say what the item says.
    await waitFor(id, 'the paused progress on disk', () => savedRanges(id)?.done.reduce((a, b) => a + b, 0) === paused.transferred, 5000);
    const saved = savedRanges(id)!;
    expect(saved.size).toBe(SIZE);
    await checkSaved(saved, c);
    expect(paused.transferred).toBeLessThan(SIZE);
    expect(existsSync(`${path}.coffer-partial`)).toBe(true);
    expect(existsSync(path)).toBe(false);

    const port = ctx.server.port;
    await ctx.close();
    ctx = await open(port);
    expect(await item(id)).toMatchObject({ state: 'paused', transferred: paused.transferred });
    const before = proxy.bytesDown();
    await api().transfers.resume({ ids: [id] });
    expect(await settled([id])).toMatchObject([{ state: 'done', transferred: SIZE, verified: true }]);
    expect(md5(readFileSync(path))).toBe(md5(data));
    // Each range went on from its own point: the server sent what was missing, not the whole again.
    const sent = proxy.bytesDown() - before;
    expect(sent).toBeGreaterThanOrEqual(SIZE - paused.transferred);
    expect(sent).toBeLessThan(SIZE - paused.transferred + MiB);
  });
});

describe('a large download cut off', () => {
  it('goes on by itself after the connections drop, from where each range was', async () => {
    const c = await uploaded(accounts.s3);
    const path = join(dir, `dropped-${++counter}.img`);
    const before = proxy.bytesDown();
    const { id } = await api().transfers.downloadToPath({ account: accounts.slowS3, container: c, name: 'disk.img', path });
    await waitFor(id, 'some progress', (now) => now.transferred >= 32 * MiB);
    proxy.dropConnections();
    const [after] = await settled([id]);
    expect(after, after!.error ?? '').toMatchObject({ state: 'done', transferred: SIZE });
    expect(md5(readFileSync(path))).toBe(md5(data));
    // Resumed, not started again (that would send the first 32 MiB twice).
    expect(proxy.bytesDown() - before).toBeLessThan(SIZE + 8 * MiB);
  });

  it('fails, saying the object changed, when one of its SLO\'s segments is deleted meanwhile', async () => {
    const c = await uploaded(accounts.swift);
    const segments = await segmentsOf(c);
    const path = join(dir, `segment-gone-${++counter}.img`);
    const { id } = await api().transfers.downloadToPath({ account: accounts.slowSwift, container: c, name: 'disk.img', path });
    await waitFor(id, 'some progress', (now) => now.transferred >= 4 * MiB);
    // The last segment: not asked for yet, four go at a time, in order.
    const { storageUrl, token } = await swiftSession();
    const last = segments.at(-1)!.name;
    expect(segments.length).toBeGreaterThan(4);
    expect((await fetch(`${storageUrl}${last.split('/').map(encodeURIComponent).join('/')}`, { method: 'DELETE', headers: { 'X-Auth-Token': token } })).status).toBe(204);
    const [after] = await settled([id]);
    expect(after).toMatchObject({ state: 'failed', verified: false });
    expect(after!.error).toBe(`disk.img changed on the server during its download (its segment ${last.slice(1)} is gone)`);
    expect(existsSync(path)).toBe(false);
  });

  it('leaves nothing behind when cancelled mid-way: no partial file, no file, no token', async () => {
    const c = await uploaded(accounts.s3);
    const path = join(dir, `cancelled-${++counter}.img`);
    const { id } = await api().transfers.downloadToPath({ account: accounts.slowS3, container: c, name: 'disk.img', path });
    await waitFor(id, 'progress on disk', () => (savedRanges(id)?.done.some((n) => n > 0) ?? false));
    expect(existsSync(`${path}.coffer-partial`)).toBe(true);
    await api().transfers.cancel({ ids: [id] });
    await waitFor(id, 'the cancel', (now) => now.state === 'cancelled');
    await waitFor(id, 'the partial file gone', () => !existsSync(`${path}.coffer-partial`), 5000);
    expect(existsSync(path)).toBe(false);
    await waitFor(id, 'the token gone from disk', () => savedRanges(id) === null, 5000);
  });

  it('starts again, whole, when the object was replaced while the download was paused', async () => {
    const c = await uploaded(accounts.s3);
    const path = join(dir, `replaced-${++counter}.img`);
    const { id } = await api().transfers.downloadToPath({ account: accounts.slowS3, container: c, name: 'disk.img', path });
    await waitFor(id, 'some progress', (now) => now.transferred >= 16 * MiB);
    await api().transfers.pause({ ids: [id] });
    await waitFor(id, 'the pause', (now) => now.state === 'paused');
    // The same size, other bytes: only the ETag tells them apart.
    const other = Buffer.from(data);
    other.fill(7, 0, 64 * MiB);
    writeFileSync(join(dir, 'src', 'disk.img'), other);
    const plan = await api().transfers.planUpload({ account: accounts.s3, container: c, prefix: '', paths: [join(dir, 'src', 'disk.img')] });
    const { items: replaced } = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
    expect(await settled(replaced.map((i) => i.id))).toMatchObject([{ state: 'done' }]);
    writeFileSync(join(dir, 'src', 'disk.img'), data);

    await api().transfers.resume({ ids: [id] });
    expect(await settled([id])).toMatchObject([{ state: 'done', transferred: SIZE }]);
    expect(md5(readFileSync(path))).toBe(md5(other));
  });
});
