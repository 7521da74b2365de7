import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineContext } from '../../src-main/engine/context.js';
import { Engine } from '../../src-main/engine/engine.js';
import { objectKey } from '../../src-main/engine/index/keys.js';
import type { StandardHeaders } from '../../src-main/engine/index.js';
import { findContainer } from '../../src-main/engine/ops/containers.js';
import { bytes, chunked, codeOf, openStore, readAll, sameBytes, type TestStore } from './helpers.js';

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
let s: TestStore;
const ref = () => Engine.ref(s.account, 'photos');

beforeEach(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'photos');
});
afterEach(() => s.close());

describe('put and get', () => {
  it('stores small objects inline and reads them back', async () => {
    const info = await s.engine.putObject(ref(), 'a.txt', 'hello');
    expect(info.etag).toBe(md5(Buffer.from('hello')));
    expect(info.contentType).toBe('text/plain');
    const read = await s.engine.getObject(ref(), 'a.txt');
    expect((await readAll(read.body)).toString()).toBe('hello');
    expect(readdirSync(join(s.dir, 'blobs', info.etag.slice(0, 2)))).toEqual([]);
  });

  it('hands over the bytes of an inline object with its read, so a server can send them in one write', async () => {
    await s.engine.putObject(ref(), 'small', 'hello world');
    const whole = await s.engine.getObject(ref(), 'small');
    expect(whole.bytes?.toString()).toBe('hello world');
    expect((await readAll(whole.body)).toString()).toBe('hello world');
    const part = await s.engine.getObject(ref(), 'small', { range: { start: 6, end: 8 } });
    expect(part.bytes?.toString()).toBe('wor');
    part.body.destroy();
    // Bytes read from a file, or assembled from segments, are only streamed.
    await s.engine.putObject(ref(), 'large', bytes(s.engine.options.inlineMax + 1));
    const fromFile = await s.engine.getObject(ref(), 'large');
    expect(fromFile.bytes).toBeUndefined();
    fromFile.body.destroy();
    await s.engine.putObject(ref(), 'seg', 'abc');
    await s.engine.putStaticLargeObject(ref(), 'slo', [{ container: 'photos', name: 'seg' }]);
    const assembled = await s.engine.getObject(ref(), 'slo');
    expect(assembled.bytes).toBeUndefined();
    expect((await readAll(assembled.body)).toString()).toBe('abc');
  });

  it('appends inline bytes to the index in commit order, whatever the names', async () => {
    const ctx = (s.engine as unknown as { ctx: EngineContext }).ctx;
    for (const name of ['m', 'a', 'z', 'b']) await s.engine.putObject(ref(), name, `body of ${name}`);
    const cid = findContainer(ctx, ref())!.cid;
    const idOf = (name: string) => {
      const data = ctx.store.objects.get(objectKey(cid, name))!.data;
      return 'inline' in data ? data.inline : undefined;
    };
    const committed = ['m', 'a', 'z', 'b'].map(idOf);
    expect([...ctx.store.inline.getKeys({})].map(String)).toEqual(committed);
    for (const name of ['m', 'a', 'z', 'b']) expect((await readAll((await s.engine.getObject(ref(), name)).body)).toString()).toBe(`body of ${name}`);
    await s.engine.deleteObject(ref(), 'a');
    expect([...ctx.store.inline.getKeys({})].map(String)).toEqual(committed.filter((id) => id !== committed[1]));
  });

  it('stores an inline body of whole pages in that many index pages and reads it back whole and in ranges', async () => {
    const ctx = (s.engine as unknown as { ctx: EngineContext }).ctx;
    const page = (ctx.store.root.getStats() as { pageSize: number }).pageSize;
    const overflowPages = () => (ctx.store.inline.getStats() as { overflowPages: number }).overflowPages;
    const sizes = [page - 25, page - 24, page - 23, page - 1, page, page + 1, 2 * page, 4 * page];
    for (const size of sizes) {
      const data = bytes(size, size);
      const before = overflowPages();
      await s.engine.putObject(ref(), `p${size}`, data);
      expect(overflowPages() - before, `index pages for ${size} bytes`).toBe(Math.ceil(size / page));
      expect(sameBytes(await readAll((await s.engine.getObject(ref(), `p${size}`)).body), data), `${size} bytes read back`).toBe(true);
      const across = await s.engine.getObject(ref(), `p${size}`, { range: { start: size - 40, end: size - 2 } });
      expect(await readAll(across.body), `${size} bytes, range over the last bytes`).toEqual(data.subarray(size - 40, size - 1));
      const suffix = await s.engine.getObject(ref(), `p${size}`, { range: { suffix: 5 } });
      expect(await readAll(suffix.body)).toEqual(data.subarray(size - 5));
    }
    await s.engine.copyObject({ ref: ref(), name: `p${page}` }, { ref: ref(), name: 'copy' }, { metadata: 'copy' });
    expect(sameBytes(await readAll((await s.engine.getObject(ref(), 'copy')).body), bytes(page, page))).toBe(true);
    for (const size of sizes) await s.engine.deleteObject(ref(), `p${size}`);
    await s.engine.deleteObject(ref(), 'copy');
    expect([...ctx.store.inline.getKeys({})]).toEqual([]);
    expect(overflowPages()).toBe(0);
  });

  it('streams large objects to a blob file and reads ranges across it', async () => {
    const data = bytes(3 * 1024 * 1024 + 17);
    const info = await s.engine.putObject(ref(), 'big.bin', chunked(data), { size: data.length });
    expect(info.etag).toBe(md5(data));
    expect(info.size).toBe(data.length);
    expect(sameBytes(await readAll((await s.engine.getObject(ref(), 'big.bin')).body), data)).toBe(true);
    const r = await s.engine.getObject(ref(), 'big.bin', { range: { start: 100, end: 1_000_000 } });
    expect(r.range).toEqual({ start: 100, end: 1_000_000 });
    expect(sameBytes(await readAll(r.body), data.subarray(100, 1_000_001))).toBe(true);
    const suffix = await s.engine.getObject(ref(), 'big.bin', { range: { suffix: 10 } });
    expect(await readAll(suffix.body)).toEqual(data.subarray(data.length - 10));
    await expect(s.engine.getObject(ref(), 'big.bin', { range: { start: data.length } })).rejects.toMatchObject({ code: 'InvalidRange' });
  });

  it('switches to a file when a body of unknown length outgrows the inline limit', async () => {
    const data = bytes(200 * 1024, 7);
    const info = await s.engine.putObject(ref(), 'grown', chunked(data, 10_000));
    expect(info.size).toBe(data.length);
    expect(sameBytes(await readAll((await s.engine.getObject(ref(), 'grown')).body), data)).toBe(true);
  });

  it('rejects a wrong MD5 with BadDigest and stores nothing', async () => {
    await expect(s.engine.putObject(ref(), 'x', 'abc', { expectedMd5: md5(Buffer.from('abd')) })).rejects.toMatchObject({ code: 'BadDigest' });
    expect(await codeOf(() => s.engine.headObject(ref(), 'x'))).toBe('NoSuchKey');
    expect(s.engine.getContainer(ref()).usage.objects).toBe(0);
  });

  it('rejects a body shorter than declared with IncompleteBody', async () => {
    const data = bytes(100_000);
    await expect(s.engine.putObject(ref(), 'short', chunked(data), { size: data.length + 1 })).rejects.toMatchObject({
      code: 'IncompleteBody',
    });
    expect(await codeOf(() => s.engine.headObject(ref(), 'short'))).toBe('NoSuchKey');
  });

  it('computes and verifies the requested checksums', async () => {
    const info = await s.engine.putObject(ref(), 'c', 'The quick brown fox jumps over the lazy dog', {
      checksumAlgorithms: ['crc32', 'crc32c', 'sha1', 'sha256'],
    });
    expect(info.checksums).toEqual({
      crc32: Buffer.from('414fa339', 'hex').toString('base64'),
      crc32c: Buffer.from('22620404', 'hex').toString('base64'),
      sha1: Buffer.from('2fd4e1c67a2d28fced849ee1bb76e7391b93eb12', 'hex').toString('base64'),
      sha256: Buffer.from('d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592', 'hex').toString('base64'),
    });
    await expect(s.engine.putObject(ref(), 'c2', 'abc', { expectedChecksums: { crc32: 'AAAAAA==' } })).rejects.toMatchObject({
      code: 'BadDigest',
      message: 'The CRC32 you specified did not match the calculated checksum.',
    });
  });

  it('keeps content type, standard headers and metadata (keys case-insensitive)', async () => {
    await s.engine.putObject(ref(), 'doc', 'x', {
      contentType: 'application/x-custom',
      headers: { contentDisposition: 'attachment', cacheControl: 'no-cache' },
      meta: { Color: 'Blue' },
    });
    const h = s.engine.headObject(ref(), 'doc');
    expect(h.contentType).toBe('application/x-custom');
    expect(h.headers).toEqual({ contentDisposition: 'attachment', cacheControl: 'no-cache' });
    expect(h.meta).toEqual({ color: 'Blue' });
  });
});

describe('names and limits', () => {
  it('keeps the standard headers of the one table and no others, however the object is written', async () => {
    const sent = { cacheControl: 'no-cache', robotsTag: 'noindex', contentLocation: '/elsewhere', 'x-frame-options': 'DENY' } as StandardHeaders;
    const kept = { cacheControl: 'no-cache', robotsTag: 'noindex' };
    expect((await s.engine.putObject(ref(), 'put', 'x', { headers: sent })).headers).toEqual(kept);
    expect((await s.engine.copyObject({ ref: ref(), name: 'put' }, { ref: ref(), name: 'copy' }, { metadata: 'replace', headers: sent })).object.headers).toEqual(kept);
    expect((await s.engine.updateObjectMeta(ref(), 'put', { headers: sent })).headers).toEqual(kept);
    const upload = await s.engine.createUpload(ref(), 'multi', { headers: sent });
    await s.engine.uploadPart(ref(), 'multi', upload.uploadId, 1, 'x');
    const etag = createHash('md5').update('x').digest('hex');
    expect((await s.engine.completeUpload(ref(), 'multi', upload.uploadId, [{ partNumber: 1, etag }])).headers).toEqual(kept);
    expect(s.engine.headObject(ref(), 'put').headers).toEqual(kept);
  });

  it('validates object names: empty, NUL, lone surrogate, over 1024 UTF-8 bytes', async () => {
    for (const bad of ['', 'a\0b', '\ud800x', 'é'.repeat(513)]) {
      expect(await codeOf(() => s.engine.putObject(ref(), bad, 'x'))).toBe('InvalidObjectName');
    }
    expect(await codeOf(() => s.engine.putObject(ref(), 'é'.repeat(512), 'x'))).toBe('ok');
    expect(await codeOf(() => s.engine.putObject(ref(), '../../etc/passwd', 'x'))).toBe('ok');
    expect(s.engine.headObject(ref(), '../../etc/passwd').size).toBe(1);
  });

  it('enforces the maximum object size while streaming', async () => {
    const small = await openStore({ maxObjectSize: 1000 });
    await small.engine.createContainer(small.account, 'c');
    const r = Engine.ref(small.account, 'c');
    expect(await codeOf(() => small.engine.putObject(r, 'big', chunked(bytes(5000), 100)))).toBe('EntityTooLarge');
    expect(await codeOf(() => small.engine.putObject(r, 'big', 'x'.repeat(2000), { size: 2000 }))).toBe('EntityTooLarge');
    await small.close();
  });

  it('fails puts into a missing container with NoSuchContainer', async () => {
    expect(await codeOf(() => s.engine.putObject(Engine.ref(s.account, 'nope'), 'a', 'x'))).toBe('NoSuchContainer');
  });

  it('cancels an upload through its AbortSignal and leaves nothing behind', async () => {
    const ac = new AbortController();
    async function* slow() {
      yield bytes(100_000);
      ac.abort();
      yield bytes(100_000);
    }
    expect(await codeOf(() => s.engine.putObject(ref(), 'cancelled', slow(), { signal: ac.signal }))).toBe('Aborted');
    expect(readdirSync(join(s.dir, 'tmp'))).toEqual([]);
    expect(await codeOf(() => s.engine.headObject(ref(), 'cancelled'))).toBe('NoSuchKey');
  });
});

describe('overwrite, delete, conditions', () => {
  it('replaces an object and frees the old blob file', async () => {
    const big = bytes(300_000, 3);
    const first = await s.engine.putObject(ref(), 'o', big, { size: big.length });
    await s.engine.putObject(ref(), 'o', 'small now');
    expect(s.engine.headObject(ref(), 'o').size).toBe(9);
    const files = readdirSync(join(s.dir, 'blobs'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(files).toEqual([]);
    expect(first.etag).toBe(md5(big));
  });

  it('a reader that started before a replace or delete still reads the old bytes whole', async () => {
    const old = bytes(2 * 1024 * 1024, 11);
    await s.engine.putObject(ref(), 'o', old, { size: old.length });
    const reading = await s.engine.getObject(ref(), 'o');
    await s.engine.putObject(ref(), 'o', bytes(500_000, 12), { size: 500_000 });
    await s.engine.deleteObject(ref(), 'o');
    expect(sameBytes(await readAll(reading.body), old)).toBe(true);
  });

  it('deletes, and reports NoSuchKey for a missing object', async () => {
    await s.engine.putObject(ref(), 'd', 'x');
    expect(await s.engine.deleteObject(ref(), 'd')).toEqual({ versionId: null, deleteMarker: false });
    expect(await codeOf(() => s.engine.deleteObject(ref(), 'd'))).toBe('NoSuchKey');
    expect(s.engine.getContainer(ref()).usage).toEqual({ objects: 0, bytes: 0, bytesActual: 0, current: 0 });
  });

  it('honours If-None-Match: * and If-Match on writes', async () => {
    const a = await s.engine.putObject(ref(), 'k', 'one', { ifNoneMatch: '*' });
    expect(await codeOf(() => s.engine.putObject(ref(), 'k', 'two', { ifNoneMatch: '*' }))).toBe('PreconditionFailed');
    expect(await codeOf(() => s.engine.putObject(ref(), 'k', 'two', { ifMatch: '"nope"' }))).toBe('PreconditionFailed');
    expect(await codeOf(() => s.engine.putObject(ref(), 'k', 'two', { ifMatch: `"${a.etag}"` }))).toBe('ok');
    expect(await codeOf(() => s.engine.putObject(ref(), 'missing', 'two', { ifMatch: '*' }))).toBe('NoSuchKey');
  });

  it('concurrent writers to one name end with exactly one complete version', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => bytes(i % 2 ? 150_000 : 3_000, 100 + i));
    await Promise.all(bodies.map((b) => s.engine.putObject(ref(), 'race', chunked(b, 7_000), { size: b.length })));
    const read = await readAll((await s.engine.getObject(ref(), 'race')).body);
    const info = s.engine.headObject(ref(), 'race');
    expect(bodies.some((b) => sameBytes(b, read))).toBe(true);
    expect(info.etag).toBe(md5(read));
    expect(s.engine.getContainer(ref()).usage.objects).toBe(1);
    const files = readdirSync(join(s.dir, 'blobs'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(files.length).toBe(read.length > 64 * 1024 ? 1 : 0);
  });
});

describe('expiry', () => {
  it('hides an object once X-Delete-At passes and the sweep removes it', async () => {
    const at = Math.floor(Date.now() / 1000) + 2;
    await s.engine.putObject(ref(), 'e', 'bye', { deleteAt: at });
    expect(s.engine.headObject(ref(), 'e').deleteAt).toBe(at);
    expect(await codeOf(() => s.engine.putObject(ref(), 'past', 'x', { deleteAt: 1000 }))).toBe('InvalidArgument');
    expect(await s.engine.expireDue(at * 1000 - 1000)).toBe(0);
    expect(await s.engine.expireDue((at + 1) * 1000)).toBe(1);
    expect(await codeOf(() => s.engine.headObject(ref(), 'e'))).toBe('NoSuchKey');
    expect(s.engine.getContainer(ref()).usage.objects).toBe(0);
  });
});
