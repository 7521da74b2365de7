import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { bytes, codeOf, openStore, readAll, sameBytes, type TestStore } from './helpers.js';

let s: TestStore;
const a = () => Engine.ref(s.account, 'a');
const b = () => Engine.ref(s.account, 'b');

beforeEach(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'a');
  await s.engine.createContainer(s.account, 'b');
});
afterEach(() => s.close());

describe('copy', () => {
  it('copies bytes and metadata to another container, extending the metadata', async () => {
    const data = bytes(300_000, 5);
    const src = await s.engine.putObject(a(), 'src.bin', data, { meta: { one: '1' }, headers: { cacheControl: 'max-age=60' } });
    const { object, source } = await s.engine.copyObject({ ref: a(), name: 'src.bin' }, { ref: b(), name: 'dst.bin' }, {
      metadata: 'copy',
      meta: { Two: '2' },
    });
    expect(source.etag).toBe(src.etag);
    expect(object.etag).toBe(src.etag);
    expect(object.meta).toEqual({ one: '1', two: '2' });
    expect(object.headers).toEqual({ cacheControl: 'max-age=60' });
    expect(sameBytes(await readAll((await s.engine.getObject(b(), 'dst.bin')).body), data)).toBe(true);
    await s.engine.deleteObject(a(), 'src.bin');
    expect(sameBytes(await readAll((await s.engine.getObject(b(), 'dst.bin')).body), data)).toBe(true);
  });

  it('replaces metadata fresh with the replace directive (content type guessed when not given)', async () => {
    await s.engine.putObject(a(), 'x.txt', 'hi', { meta: { old: 'yes' }, contentType: 'text/x-old' });
    const { object } = await s.engine.copyObject({ ref: a(), name: 'x.txt' }, { ref: a(), name: 'y.html' }, { metadata: 'replace', meta: { n: 'v' } });
    expect(object.meta).toEqual({ n: 'v' });
    expect(object.contentType).toBe('text/html');
  });

  it('copies onto itself by rewriting the record, keeping the bytes', async () => {
    const data = bytes(200_000, 9);
    await s.engine.putObject(a(), 'self', data, { meta: { keep: 'no' } });
    const before = s.engine.headObject(a(), 'self');
    const { object } = await s.engine.copyObject({ ref: a(), name: 'self' }, { ref: a(), name: 'self' }, { metadata: 'replace', meta: { fresh: 'yes' } });
    expect(object.meta).toEqual({ fresh: 'yes' });
    expect(object.etag).toBe(before.etag);
    expect(object.mtimeMicros).toBeGreaterThan(before.mtimeMicros);
    expect(sameBytes(await readAll((await s.engine.getObject(a(), 'self')).body), data)).toBe(true);
    expect(s.engine.getContainer(a()).usage.objects).toBe(1);
  });

  it('fails with NoSuchKey, NoSuchContainer and PreconditionFailed as it should', async () => {
    await s.engine.putObject(a(), 'k', 'v');
    const copy = (dst: ReturnType<typeof a>, opts = {}) =>
      codeOf(() => s.engine.copyObject({ ref: a(), name: 'k' }, { ref: dst, name: 'k2' }, { metadata: 'copy', ...opts }));
    expect(await copy(Engine.ref(s.account, 'missing'))).toBe('NoSuchContainer');
    expect(await copy(b(), { sourceEtag: 'abc' })).toBe('PreconditionFailed');
    expect(await codeOf(() => s.engine.copyObject({ ref: a(), name: 'nope' }, { ref: b(), name: 'x' }, { metadata: 'copy' }))).toBe('NoSuchKey');
  });
});

describe('metadata update', () => {
  it('replaces the whole user metadata set, keeps bytes and ETag, can change the content type', async () => {
    const put = await s.engine.putObject(a(), 'm', 'data', { meta: { a: '1', b: '2' } });
    const after = await s.engine.updateObjectMeta(a(), 'm', { meta: { C: '3' }, contentType: 'text/csv' });
    expect(after.meta).toEqual({ c: '3' });
    expect(after.contentType).toBe('text/csv');
    expect(after.etag).toBe(put.etag);
    expect((await readAll((await s.engine.getObject(a(), 'm')).body)).toString()).toBe('data');
    expect(await codeOf(() => s.engine.updateObjectMeta(a(), 'nope', { meta: {} }))).toBe('NoSuchKey');
  });

  it('sets and clears the public-read flag', async () => {
    await s.engine.putObject(a(), 'p', 'x');
    expect((await s.engine.updateObjectMeta(a(), 'p', { meta: {}, publicRead: true })).publicRead).toBe(true);
    expect((await s.engine.updateObjectMeta(a(), 'p', { meta: {}, publicRead: false })).publicRead).toBe(false);
  });
});
