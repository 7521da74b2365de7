// The transfer service through the contract, on a real app (engine, server, services) with two
// remote connections pointing back at the same server (one per API): batches with conflicts
// (quota warnings: transfers-quota.test.ts), verified uploads and downloads, folder downloads with hostile names, drag-out
// staging, cancel, a large upload paused, carried over an app restart and resumed, and a folder
// download paused the same way, resumed from its partial file.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { TransferItem } from '../../src-shared/contract/transfers.js';
import { createClient } from '../../src-shared/rpc/client.js';
import { throttleProxy, type ThrottleProxy } from './throttle-proxy.js';

const MiB = 1024 * 1024;
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
let dir: string;
let ctx: AppContext;
let remotes: { s3: string; swift: string };
let counter = 0;

const api = () => createClient(ctx.rpc.asTransport()).services;
/** The server's request lines (`<time> <id> <METHOD> <url> <status> <ms>ms`), the remote accounts' included. */
const serverLog: string[] = [];
const open = (port = 0) => createAppContext({ dataDir: join(dir, 'store'), port, engine: { noSync: true }, log: (line) => serverLog.push(line) });

async function addRemotes(): Promise<{ s3: string; swift: string }> {
  const [user] = await api().localStore.users({});
  const s3 = await api().accounts.add({ name: 'self over S3', config: { kind: 's3', endpoint: ctx.server.url, accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey } });
  const swift = await api().accounts.add({
    name: 'self over Swift',
    config: { kind: 'swift', authUrl: `${ctx.server.url}/auth/1.0`, auth: { type: 'v1', user: user!.swiftKeys[0]!.user, key: user!.swiftKeys[0]!.secretKey } },
  });
  return { s3: s3.id, swift: swift.id };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-transfers-'));
  ctx = await open();
  remotes = await addRemotes();
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function container(account = 'local'): Promise<string> {
  const name = `tr-${++counter}`;
  await api().browse.createContainer({ account, container: name });
  return name;
}

function localFile(rel: string, data: Buffer | string): string {
  const path = join(dir, 'src', rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, data);
  return path;
}

async function settled(ids: string[], timeoutMs = 60_000): Promise<TransferItem[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const items = (await api().transfers.list({})).items.filter((i) => ids.includes(i.id));
    if (items.every((i) => ['done', 'failed', 'cancelled'].includes(i.state))) return items;
    if (Date.now() > until) throw new Error(`transfers still running: ${JSON.stringify(items)}`);
    await sleep(50);
  }
}

async function upload(account: string, c: string, paths: string[], conflict: 'replace' | 'skip' | 'keepBoth' = 'replace', prefix = '') {
  const plan = await api().transfers.planUpload({ account, container: c, prefix, paths });
  const { items } = await api().transfers.startUpload({ batchId: plan.batchId, conflict });
  return { plan, items: await settled(items.map((i) => i.id)) };
}

const body = async (account: string, c: string, name: string) => {
  const path = join(dir, `read-${++counter}`);
  const { id } = await api().transfers.downloadToPath({ account, container: c, name, path });
  const [item] = await settled([id]);
  expect(item).toMatchObject({ state: 'done' });
  return readFileSync(path).toString();
};

describe('upload batches', () => {
  it('reports conflicts once per batch and applies replace, skip or keep both to all of them', async () => {
    const c = await container();
    const a = localFile(`b${counter}/a.txt`, 'new a');
    const folder = join(a, '..', 'dir');
    localFile(`b${counter}/dir/b.txt`, 'new b');
    localFile(`b${counter}/dir/c.txt`, 'new c');
    await upload('local', c, [join(dir, 'src', `b${counter}`, 'dir')]);
    await api().browse.createFolder({ account: 'local', container: c, prefix: 'x/' });
    const old = await upload('local', c, [a]);
    expect(old.items[0]).toMatchObject({ state: 'done', name: 'a.txt', verified: true });

    const plan = await api().transfers.planUpload({ account: 'local', container: c, prefix: '', paths: [a, folder] });
    expect(plan).toMatchObject({ files: 3, bytes: 15, conflicts: { count: 3 }, quota: null });
    expect(plan.conflicts.sample.sort()).toEqual(['a.txt', 'dir/b.txt', 'dir/c.txt']);
    const skipped = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'skip' });
    expect(skipped.items).toEqual([]);
    await expect(api().transfers.startUpload({ batchId: plan.batchId })).rejects.toMatchObject({ code: 'InvalidArgument' });

    writeFileSync(a, 'newer a');
    const both = await upload('local', c, [a, folder], 'keepBoth');
    expect(both.items.map((i) => i.name).sort()).toEqual(['a (1).txt', 'dir/b (1).txt', 'dir/c (1).txt']);
    expect(await body('local', c, 'a.txt')).toBe('new a');
    expect(await body('local', c, 'a (1).txt')).toBe('newer a');
    const again = await upload('local', c, [a], 'keepBoth');
    expect(again.items.map((i) => i.name)).toEqual(['a (2).txt']);

    await upload('local', c, [a], 'replace');
    expect(await body('local', c, 'a.txt')).toBe('newer a');
  });

  it('finds conflicts in a large drop by listing the target folder, not by one request per file', async () => {
    const c = await container();
    const root = join(dir, 'src', `many${counter}`);
    for (let i = 0; i < 60; i++) localFile(`many${counter}/photos/p${String(i).padStart(3, '0')}.jpg`, `photo ${i}`);
    const first = await upload('local', c, [join(root, 'photos')], 'replace', 'trip');
    expect(first.items).toHaveLength(60);
    expect(first.items.every((i) => i.state === 'done' && i.verified)).toBe(true);
    for (let i = 60; i < 70; i++) localFile(`many${counter}/photos/p${String(i).padStart(3, '0')}.jpg`, `photo ${i}`);
    const plan = await api().transfers.planUpload({ account: 'local', container: c, prefix: 'trip/', paths: [join(root, 'photos')] });
    expect(plan).toMatchObject({ files: 70, conflicts: { count: 60 } });
    const { items } = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'skip' });
    expect(items.map((i) => i.name).sort()).toEqual(Array.from({ length: 10 }, (_, k) => `trip/photos/p0${60 + k}.jpg`));
    await settled(items.map((i) => i.id));
  });
});

describe.each(['local', 's3', 'swift'] as const)('verified transfers: %s', (kind) => {
  const account = () => (kind === 'local' ? 'local' : remotes[kind]);

  it('uploads and downloads checking the MD5 against the server ETag, and downloads folders under safe local names', async () => {
    const c = await container(account());
    const data = randomBytes(300_000);
    const file = localFile(`v${counter}/data.bin`, data);
    const up = await upload(account(), c, [file], 'replace', 'in');
    expect(up.items[0]).toMatchObject({ state: 'done', name: 'in/data.bin', size: 300_000, transferred: 300_000, verified: true, attempts: 1 });
    expect((await api().browse.head({ account: account(), container: c, name: 'in/data.bin' })).etag).toBe(md5(data));

    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'in/../../escape.txt', 'x');
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'in/deep/er.txt', 'deeper');
    const target = join(dir, `down-${kind}`);
    const { ids } = await api().transfers.download({ account: account(), container: c, names: [], prefixes: ['in/'], folder: target });
    const items = await settled(ids);
    expect(items.every((i) => i.state === 'done')).toBe(true);
    expect(items.find((i) => i.name === 'in/data.bin')?.verified).toBe(true);
    expect(readFileSync(join(target, 'in', 'data.bin')).equals(data)).toBe(true);
    expect(readFileSync(join(target, 'in', 'deep', 'er.txt'), 'utf8')).toBe('deeper');
    // '..' segments become '_': the file stays inside the chosen folder, under a visible name.
    expect(readFileSync(join(target, 'in', '_', '_', 'escape.txt'), 'utf8')).toBe('x');
    expect(existsSync(join(dir, 'escape.txt'))).toBe(false);
    expect(readdirSync(join(target, 'in')).filter((n) => n.endsWith('.coffer-partial'))).toEqual([]);
  });
});

describe('new names over Swift', () => {
  it('writes the names the plan found free without a HEAD each, and still looks at the ones it replaces', async () => {
    const c = await container(remotes.swift);
    const headsOf = (from: number, name: string) => serverLog.slice(from).filter((l) => l.includes(` HEAD `) && l.includes(`/${c}/${encodeURIComponent(name)} `));
    const a = localFile(`new${counter}/a.txt`, 'first a');
    localFile(`new${counter}/b.txt`, 'first b');
    const b = join(a, '..', 'b.txt');
    // Two new names: the plan's HEAD each, none when they are written.
    let plan = await api().transfers.planUpload({ account: remotes.swift, container: c, prefix: '', paths: [a, b] });
    let from = serverLog.length;
    let run = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
    expect((await settled(run.items.map((i) => i.id))).every((i) => i.state === 'done' && i.verified)).toBe(true);
    expect([...headsOf(from, 'a.txt'), ...headsOf(from, 'b.txt')]).toEqual([]);
    // a.txt replaced: it is looked at before it is written (an SLO there would lose its segments).
    writeFileSync(a, 'second a');
    plan = await api().transfers.planUpload({ account: remotes.swift, container: c, prefix: '', paths: [a] });
    from = serverLog.length;
    run = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
    await settled(run.items.map((i) => i.id));
    expect(headsOf(from, 'a.txt')).toHaveLength(1);
    expect(await body(remotes.swift, c, 'a.txt')).toBe('second a');
    // Kept both: the free name is asked for once while it is chosen, not again when written.
    plan = await api().transfers.planUpload({ account: remotes.swift, container: c, prefix: '', paths: [a] });
    from = serverLog.length;
    run = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'keepBoth' });
    expect((await settled(run.items.map((i) => i.id)))[0]).toMatchObject({ name: 'a (1).txt', state: 'done', verified: true });
    expect(headsOf(from, 'a (1).txt')).toHaveLength(1);
  });
});

describe('verified multipart uploads', () => {
  it.each(['s3', 'swift'] as const)('checks the composite ETag of a file cut into parts on the way (%s)', async (kind) => {
    const c = await container(remotes[kind]);
    const data = randomBytes(20 * MiB); // above S3's 8 MiB parts, below the resumable threshold
    const up = await upload(remotes[kind], c, [localFile(`mp${counter}/parts.bin`, data)]);
    expect(up.items[0]).toMatchObject({ state: 'done', verified: true, size: 20 * MiB });
    const head = await api().browse.head({ account: remotes[kind], container: c, name: 'parts.bin' });
    if (kind === 's3') expect(head.etag).toMatch(/-3$/);
  });
});

describe('drag-out staging', () => {
  it('hard-links the local store\'s blob, copies inline objects, downloads small remote ones at once', async () => {
    const c = await container();
    const big = randomBytes(200_000); // above the engine's inline limit: a blob file
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'docs/big.bin', big);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'docs/small.txt', 'small');
    const staged = await api().transfers.stageForDrag({ account: 'local', container: c, names: ['docs/big.bin', 'docs/small.txt'] });
    expect(staged.ready).toBe(true);
    const [bigPath, smallPath] = (staged as { paths: string[] }).paths;
    expect(bigPath!.endsWith('big.bin') && smallPath!.endsWith('small.txt')).toBe(true);
    expect(readFileSync(bigPath!).equals(big)).toBe(true);
    expect(statSync(bigPath!).nlink).toBe(2);
    expect(readFileSync(smallPath!, 'utf8')).toBe('small');

    const remote = await api().transfers.stageForDrag({ account: remotes.s3, container: c, names: ['docs/small.txt'] });
    expect(remote.ready && readFileSync(remote.paths[0]!, 'utf8')).toBe('small');
  });

  it('stages folders as local folder trees, next to single objects', async () => {
    const c = await container();
    const ref = { tenant: ctx.localAccount.tenant, container: c };
    await ctx.engine.putObject(ref, 'photos/2024/a.jpg', 'a');
    await ctx.engine.putObject(ref, 'photos/2024/deep/b.jpg', 'b');
    await ctx.engine.putObject(ref, 'photos/', '');
    await ctx.engine.putObject(ref, 'notes.txt', 'n');
    for (const account of ['local', remotes.swift]) {
      const staged = await api().transfers.stageForDrag({ account, container: c, names: ['notes.txt'], prefixes: ['photos/2024/'] });
      expect(staged.ready).toBe(true);
      const [notes, folder] = (staged as { paths: string[] }).paths;
      expect(readFileSync(notes!, 'utf8')).toBe('n');
      expect(folder!.endsWith('2024')).toBe(true);
      expect(readFileSync(join(folder!, 'a.jpg'), 'utf8')).toBe('a');
      expect(readFileSync(join(folder!, 'deep', 'b.jpg'), 'utf8')).toBe('b');
    }
    await expect(api().transfers.stageForDrag({ account: 'local', container: c })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('stages large remote selections through the queue, then hands out the same files', async () => {
    const c = await container();
    const data = randomBytes(17 * MiB);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'large.bin', data);
    const first = await api().transfers.stageForDrag({ account: remotes.swift, container: c, names: ['large.bin'] });
    expect(first.ready).toBe(false);
    await settled((first as { ids: string[] }).ids);
    const second = await api().transfers.stageForDrag({ account: remotes.swift, container: c, names: ['large.bin'] });
    expect(second.ready).toBe(true);
    expect(md5(readFileSync((second as { paths: string[] }).paths[0]!))).toBe(md5(data));
  });
});

describe('large uploads: cancel, pause, restart, resume', () => {
  // Uploads go through a proxy at 16 MiB/s: on a fast loopback 80 MiB could be done before the
  // test gets to cancel or pause it.
  let proxy: ThrottleProxy;
  let slowS3: string;
  beforeAll(async () => {
    proxy = await throttleProxy(ctx.server.port, 16 * MiB);
    const [user] = await api().localStore.users({});
    const config = { kind: 's3' as const, endpoint: proxy.url, accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey };
    slowS3 = (await api().accounts.add({ name: 'self over S3, at 16 MiB/s', config })).id;
  });
  afterAll(() => proxy?.close());

  it('cancels a running upload without leaving the object or its parts behind', async () => {
    const c = await container(slowS3);
    const file = localFile(`cancel${counter}/big.bin`, randomBytes(80 * MiB));
    const plan = await api().transfers.planUpload({ account: slowS3, container: c, prefix: '', paths: [file] });
    const [item] = (await api().transfers.startUpload({ batchId: plan.batchId })).items;
    for (let i = 0; i < 400 && !((await api().transfers.list({})).items.find((t) => t.id === item!.id)!.transferred > 8 * MiB); i++) await sleep(25);
    await api().transfers.cancel({ ids: [item!.id] });
    const [done] = await settled([item!.id]);
    expect(done!.state).toBe('cancelled');
    await expect(api().browse.head({ account: slowS3, container: c, name: 'big.bin' })).rejects.toMatchObject({ code: 'NoSuchKey' });
    for (let i = 0; i < 40 && (await api().transfers.listUnfinished({ account: slowS3, container: c })).length; i++) await sleep(50);
    expect(await api().transfers.listUnfinished({ account: slowS3, container: c })).toEqual([]);
  });

  it('comes back paused after an app restart with its progress, and resumes to a verified object', async () => {
    const c = await container(slowS3);
    const data = randomBytes(80 * MiB);
    const file = localFile(`restart${counter}/disk.img`, data);
    const plan = await api().transfers.planUpload({ account: slowS3, container: c, prefix: '', paths: [file] });
    const [item] = (await api().transfers.startUpload({ batchId: plan.batchId })).items;
    const progress = async () => (await api().transfers.list({})).items.find((t) => t.id === item!.id)!;
    for (let i = 0; i < 400 && (await progress()).transferred < 24 * MiB; i++) await sleep(25);
    await api().transfers.pause({ ids: [item!.id] });
    for (let i = 0; i < 100 && (await progress()).state !== 'paused'; i++) await sleep(25);
    const paused = await progress();
    expect(paused).toMatchObject({ state: 'paused', resumable: true });
    expect(paused.transferred).toBeGreaterThanOrEqual(24 * MiB);
    expect((await api().transfers.listUnfinished({ account: slowS3, container: c })).map((u) => u.name)).toEqual(['disk.img']);

    // The remote connections point at this server's port: the restarted app listens there again.
    const port = ctx.server.port;
    await ctx.close();
    ctx = await open(port);
    const back = await progress();
    expect(back).toMatchObject({ state: 'paused', name: 'disk.img', size: 80 * MiB });
    expect(back.transferred).toBe(paused.transferred);

    await api().transfers.resume({ ids: [item!.id] });
    const [done] = await settled([item!.id], 120_000);
    expect(done).toMatchObject({ state: 'done', verified: true, transferred: 80 * MiB });
    const head = await api().browse.head({ account: slowS3, container: c, name: 'disk.img' });
    expect(head.etag).toMatch(/-10$/);
    expect(head.size).toBe(80 * MiB);
    const path = join(dir, 'restart-check.img');
    await settled([(await api().transfers.downloadToPath({ account: 'local', container: c, name: 'disk.img', path })).id], 120_000);
    expect(md5(readFileSync(path))).toBe(md5(data));
  });
});

describe('folder downloads: pause, restart, resume', () => {
  // Downloads come through a proxy at 4 MiB/s, so the large file is still arriving when paused.
  let proxy: ThrottleProxy;
  let slowS3: string;
  beforeAll(async () => {
    proxy = await throttleProxy(ctx.server.port, 4 * MiB, { downloads: true });
    const [user] = await api().localStore.users({});
    const config = { kind: 's3' as const, endpoint: proxy.url, accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey };
    slowS3 = (await api().accounts.add({ name: 'self over S3, downloads at 4 MiB/s', config })).id;
  });
  afterAll(() => proxy?.close());

  it('keeps a paused file\'s partial bytes across an app restart and resumes from them to the whole file', async () => {
    const c = await container();
    const data = randomBytes(24 * MiB);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'album/big.bin', data);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, 'album/note.txt', 'note');
    const target = join(dir, `folder-resume-${counter}`);
    const { ids } = await api().transfers.download({ account: slowS3, container: c, prefixes: ['album/'], folder: target });
    const find = async () => (await api().transfers.list({})).items.filter((t) => ids.includes(t.id));
    const big = async () => (await find()).find((t) => t.name === 'album/big.bin')!;
    for (let i = 0; i < 800 && (await big()).transferred < 4 * MiB; i++) await sleep(25);
    await api().transfers.pause({ ids: [(await big()).id] });
    for (let i = 0; i < 200 && (await big()).state !== 'paused'; i++) await sleep(25);
    expect(await big()).toMatchObject({ state: 'paused', resumable: true, size: 24 * MiB });
    const partial = join(target, 'album', 'big.bin.coffer-partial');
    const kept = statSync(partial).size;
    expect(kept).toBeGreaterThanOrEqual(4 * MiB);
    expect(kept).toBeLessThan(24 * MiB);
    expect(existsSync(join(target, 'album', 'big.bin'))).toBe(false);

    const port = ctx.server.port;
    await ctx.close();
    ctx = await open(port);
    expect(await big()).toMatchObject({ state: 'paused', name: 'album/big.bin' });
    // note.txt was done before the restart, or comes back paused with the rest.
    await api().transfers.resume({ ids });
    const items = await settled(ids, 120_000);
    expect(items.map((i) => i.state)).toEqual(['done', 'done']);
    // Resumed and still checked against the ETag: the kept bytes are hashed from disk with the rest.
    expect(await big()).toMatchObject({ verified: true });
    expect(md5(readFileSync(join(target, 'album', 'big.bin')))).toBe(md5(data));
    expect(readFileSync(join(target, 'album', 'note.txt'), 'utf8')).toBe('note');
    expect(readdirSync(join(target, 'album')).filter((n) => n.endsWith('.coffer-partial'))).toEqual([]);
    // Resumed, not started again: the server sent the file about once (a download from the start
    // would have sent the kept bytes a second time).
    expect(proxy.bytesDown()).toBeLessThan(24 * MiB + kept / 2);
  });

  it("brings a folder's files not started yet back paused after an app restart, under the same ids, and resumes them to the whole folder", async () => {
    const c = await container();
    const files = Array.from({ length: 60 }, (_, i) => randomBytes(64 * 1024 + i));
    for (const [i, data] of files.entries()) await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: c }, `many/f${i}.bin`, data);
    const target = join(dir, `folder-pending-${counter}`);
    const { ids } = await api().transfers.download({ account: slowS3, container: c, prefixes: ['many/'], folder: target });
    await api().transfers.pause({});
    expect(ids).toHaveLength(60);

    const port = ctx.server.port;
    await ctx.close();
    // The files that had not started are one record of their batch on disk, not an item each.
    const onDisk = JSON.parse(readFileSync(join(dir, 'store', 'transfers.json'), 'utf8')) as { jobs: { item: TransferItem }[]; pending: { states: number[] }[] };
    const waiting = onDisk.pending.flatMap((p) => p.states).filter((s) => s < 3).length;
    expect(waiting).toBeGreaterThan(0);
    expect(onDisk.jobs.filter((j) => ids.includes(j.item.id)).length + waiting).toBe(60);

    ctx = await open(port);
    const back = (await api().transfers.list({})).items.filter((t) => ids.includes(t.id));
    expect(back.map((t) => t.id).sort()).toEqual([...ids].sort());
    expect(back.every((t) => t.state === 'paused' || t.state === 'done')).toBe(true);
    await api().transfers.resume({});
    const items = await settled(ids, 120_000);
    expect(items.every((i) => i.state === 'done' && i.verified)).toBe(true);
    for (const [i, data] of files.entries()) expect(md5(readFileSync(join(target, 'many', `f${i}.bin`)))).toBe(md5(data));
  });
});
