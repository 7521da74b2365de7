// Small files go through the file thread (services/transfers/file-thread.ts): read and hashed
// there for uploads, hashed, written and renamed there for downloads. On a real app and server:
// a folder of small files arrives whole and verified; bytes damaged on the way (a proxy that
// alters the server's answers) are refused with nothing written, as are streamed objects of 1 MiB
// and 17 MiB (written and hashed there as they arrive); and the thread itself answers with Node's
// own errors, remakes a folder removed under it, and comes back after being let go.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { FileThread } from '../../src-main/services/transfers/file-thread.js';
import { ThreadFileWriter } from '../../src-main/services/transfers/thread-file-writer.js';
import { createClient } from '../../src-shared/rpc/client.js';
import { settledItems } from './transfer-items.js';

const ORIGINAL = Buffer.from('coffer-original');
const DAMAGED = Buffer.from('coffer-damaged!');
const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

let dir: string;
let ctx: AppContext;
let proxy: Server;
const proxied = new Set<Socket>();
const api = () => createClient(ctx.rpc.asTransport()).services;

/** A TCP proxy to the app's server that alters ORIGINAL into DAMAGED in what the server sends back. */
function damagingProxy(port: number): Promise<Server> {
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    proxied.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(ORIGINAL); i >= 0; i = chunk.indexOf(ORIGINAL, i + 1)) DAMAGED.copy(chunk, i);
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function s3Account(name: string, endpoint: string): Promise<string> {
  const [user] = await api().localStore.users({});
  return (await api().accounts.add({ name, config: { kind: 's3', endpoint, accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey } })).id;
}

const settled = (ids: string[]) => settledItems(() => api().transfers.list({}), ids);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-small-files-'));
  ctx = await createAppContext({ dataDir: join(dir, 'store'), port: 0, engine: { noSync: true } });
  proxy = await damagingProxy(Number(new URL(ctx.server.url).port));
});
afterAll(async () => {
  await ctx?.close();
  // Kept-alive connections end with the proxy.
  for (const socket of proxied) socket.destroy();
  await new Promise((r) => proxy?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('a folder of small files', () => {
  it('goes up and comes down whole, every file verified against its ETag', async () => {
    const account = await s3Account('direct', ctx.server.url);
    await api().browse.createContainer({ account, container: 'small' });
    const src = join(dir, 'src', 'many');
    mkdirSync(join(src, 'deeper'), { recursive: true });
    const files = Array.from({ length: 120 }, (_, i) => ({ rel: i % 4 === 0 ? `deeper/f${i}.txt` : `f${i}.txt`, data: `${ORIGINAL} ${i} `.repeat(i + 1) }));
    for (const f of files) writeFileSync(join(src, f.rel), f.data);
    writeFileSync(join(src, 'empty.txt'), '');

    const plan = await api().transfers.planUpload({ account, container: 'small', prefix: '', paths: [src] });
    const up = await settled((await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' })).items.map((i) => i.id));
    expect(up).toHaveLength(files.length + 1);
    expect(up.filter((i) => i.state !== 'done' || !i.verified)).toEqual([]);
    expect((await api().browse.head({ account, container: 'small', name: 'many/f7.txt' })).etag).toBe(md5(files[7]!.data));

    const out = join(dir, 'down');
    const { ids } = await api().transfers.download({ account, container: 'small', names: [], prefixes: ['many/'], folder: out });
    const down = await settled(ids);
    expect(down.filter((i) => i.state !== 'done' || !i.verified)).toEqual([]);
    for (const f of files) expect(readFileSync(join(out, 'many', f.rel), 'utf8')).toBe(f.data);
    expect(readFileSync(join(out, 'many', 'empty.txt'), 'utf8')).toBe('');
    expect(readdirSync(join(out, 'many')).filter((n) => n.endsWith('.coffer-partial'))).toEqual([]);
  });

  it('refuses bytes damaged on the way down and writes nothing of them', async () => {
    const account = await s3Account('through a damaging proxy', `http://127.0.0.1:${(proxy.address() as { port: number }).port}`);
    await api().browse.createContainer({ account: 'local', container: 'damaged' });
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: 'damaged' }, 'd/bad.txt', `${ORIGINAL} bytes`);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: 'damaged' }, 'd/good.txt', 'untouched bytes');

    const out = join(dir, 'down-damaged');
    const { ids } = await api().transfers.download({ account, container: 'damaged', names: [], prefixes: ['d/'], folder: out });
    const items = await settled(ids);
    const bad = items.find((i) => i.name === 'd/bad.txt')!;
    expect(bad).toMatchObject({ state: 'failed', verified: false, attempts: 1 });
    expect(bad.error).toMatch(/d\/bad\.txt arrived damaged: its MD5 [0-9a-f]{32} is not the server's ETag/);
    expect(existsSync(join(out, 'd', 'bad.txt'))).toBe(false);
    expect(existsSync(join(out, 'd', 'bad.txt.coffer-partial'))).toBe(false);
    expect(items.find((i) => i.name === 'd/good.txt')).toMatchObject({ state: 'done', verified: true });
    expect(readFileSync(join(out, 'd', 'good.txt'), 'utf8')).toBe('untouched bytes');
  });
});

describe('streamed downloads through the damaging proxy', () => {
  // 1 MiB runs in the wide lane of small files, 17 MiB in the large lane: both must refuse damage.
  it.each([
    ['1 MiB', 1024 * 1024],
    ['17 MiB', 17 * 1024 * 1024],
  ])('refuses an object damaged on the way (%s) and leaves neither file nor partial file; an undamaged one arrives verified', async (_how, size) => {
    const account = await s3Account(`damaging proxy ${size}`, `http://127.0.0.1:${(proxy.address() as { port: number }).port}`);
    const container = `damaged-${size}`;
    await api().browse.createContainer({ account: 'local', container });
    // ORIGINAL every 4 KiB: some of them arrive whole in a chunk the proxy sees, and are altered.
    const bad = Buffer.alloc(size, 0x61);
    for (let at = 0; at + ORIGINAL.length <= size; at += 4096) ORIGINAL.copy(bad, at);
    const good = Buffer.alloc(size, 0x62);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container }, 'm/bad.bin', bad);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container }, 'm/good.bin', good);

    const out = join(dir, `down-${container}`);
    const { ids } = await api().transfers.download({ account, container, names: [], prefixes: ['m/'], folder: out });
    const items = await settled(ids);
    const failed = items.find((i) => i.name === 'm/bad.bin')!;
    expect(failed).toMatchObject({ state: 'failed', verified: false });
    expect(failed.error).toMatch(/m\/bad\.bin arrived damaged: its MD5 [0-9a-f]{32} is not the server's ETag/);
    expect(existsSync(join(out, 'm', 'bad.bin'))).toBe(false);
    expect(existsSync(join(out, 'm', 'bad.bin.coffer-partial'))).toBe(false);
    expect(items.find((i) => i.name === 'm/good.bin')).toMatchObject({ state: 'done', verified: true });
    expect(md5(readFileSync(join(out, 'm', 'good.bin')))).toBe(md5(good));
  });
});

describe('the file thread', () => {
  it('answers with Node\'s own errors, remakes a removed folder, and comes back after being closed', async () => {
    const files = new FileThread();
    const root = join(dir, 'thread');
    try {
      await expect(files.read(join(root, 'missing.bin'))).rejects.toMatchObject({ code: 'ENOENT', syscall: 'open' });

      const target = join(root, 'a', 'b', 'one.bin');
      expect(await files.write(target, `${target}.part`, Buffer.from('one'))).toEqual({ md5: md5('one'), written: true });
      expect(readFileSync(target, 'utf8')).toBe('one');
      // The thread remembers the folder as made; removed since, it is made again.
      rmSync(join(root, 'a'), { recursive: true });
      expect((await files.write(target, `${target}.part`, Buffer.from('two'))).written).toBe(true);
      expect(readFileSync(target, 'utf8')).toBe('two');

      // Not the expected MD5: nothing written, the file as it was.
      expect(await files.write(target, `${target}.part`, Buffer.from('three'), md5('other'))).toEqual({ md5: md5('three'), written: false });
      expect(readFileSync(target, 'utf8')).toBe('two');
      expect(existsSync(`${target}.part`)).toBe(false);

      await files.close();
      const [a, b] = await Promise.all([files.read(target), files.read(target)]);
      expect(a.bytes.toString()).toBe('two');
      expect(b.md5).toBe(md5('two'));
    } finally {
      await files.close();
    }
  });
  it('writes a stream as it arrives: renamed into place only when whole, resumed from its kept bytes, left as it was when cut', async () => {
    const files = new FileThread();
    const root = join(dir, 'thread-streams');
    const chunks = ['first ', 'second ', 'third'].map((c) => Buffer.from(c));
    const whole = Buffer.concat(chunks);
    const write = (path: string, body: Readable, target: { from?: number; expectLength?: number; expectMd5?: string }) => {
      const out = new ThreadFileWriter(files, { partial: `${path}.part`, path, from: 0, hash: true, ...target });
      return pipeline(body, out).then(() => out.result!, async (err: unknown) => {
        await out.released;
        throw err;
      });
    };
    try {
      const target = join(root, 'x', 'y', 'streamed.bin');
      expect(await write(target, Readable.from(chunks), { expectLength: whole.length, expectMd5: md5(whole) })).toEqual({ length: whole.length, md5: md5(whole), written: true });
      expect(readFileSync(target)).toEqual(whole);
      expect(existsSync(`${target}.part`)).toBe(false);

      // Not the expected length or MD5: not renamed; the partial file holds what came.
      const other = join(root, 'x', 'other.bin');
      expect(await write(other, Readable.from(chunks), { expectLength: whole.length + 1 })).toMatchObject({ length: whole.length, written: false });
      expect(await write(other, Readable.from(chunks), { expectMd5: md5('something else') })).toEqual({ length: whole.length, md5: md5(whole), written: false });
      expect(existsSync(other)).toBe(false);

      // Cut after its first chunk: the partial file is closed with those bytes; resumed from them,
      // the MD5 covers the whole file (the kept bytes hashed from disk).
      const cut = join(root, 'cut.bin');
      const failing = new Readable({ read() {} });
      failing.push(chunks[0]);
      setTimeout(() => failing.destroy(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })), 50);
      await expect(write(cut, failing, {})).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(readFileSync(`${cut}.part`)).toEqual(chunks[0]);
      const rest = await write(cut, Readable.from(chunks.slice(1)), { from: chunks[0]!.length, expectLength: whole.length, expectMd5: md5(whole) });
      expect(rest).toEqual({ length: whole.length, md5: md5(whole), written: true });
      expect(readFileSync(cut)).toEqual(whole);

      // Its folder removed under the thread: made again. Where no file can be made: Node's error.
      rmSync(join(root, 'x'), { recursive: true });
      expect((await write(target, Readable.from(chunks), {})).written).toBe(true);
      await expect(write(join(target, 'under-a-file.bin'), Readable.from(chunks), {})).rejects.toMatchObject({ code: 'EEXIST', syscall: 'mkdir' });
    } finally {
      await files.close();
    }
  });
});
