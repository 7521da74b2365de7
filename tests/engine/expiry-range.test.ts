/**
 * Expiry times (X-Delete-At) out of range: never an lmdb or BigInt error (a 500), always
 * InvalidArgument, and nothing changes. They must be whole seconds, in the future, and at most
 * Swift's cap of 9999999999 (November 2286).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { MAX_DELETE_AT } from '../../src-main/engine/ops/put-object.js';
import { codeOf, openStore, type TestStore } from './helpers.js';

let s: TestStore;
const ref = () => Engine.ref(s.account, 'c');
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  s = await openStore({ noSync: true });
  await s.engine.createContainer(s.account, 'c');
  await s.engine.putObject(ref(), 'src', 'source bytes');
});
afterAll(() => s.close());

describe('expiry times (X-Delete-At) out of range', () => {
  it('are InvalidArgument on every write that takes one, and the object is unchanged', async () => {
    const before = s.engine.headObject(ref(), 'src');
    const bad = [1e20, 2 ** 64, 2 ** 53 + 2, MAX_DELETE_AT + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -1, now() - 10];
    for (const deleteAt of bad) {
      const what = `deleteAt ${deleteAt}`;
      expect(await codeOf(() => s.engine.putObject(ref(), 'exp', 'x', { deleteAt })), what).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.updateObjectMeta(ref(), 'src', { meta: {}, deleteAt })), what).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.copyObject({ ref: ref(), name: 'src' }, { ref: ref(), name: 'exp' }, { metadata: 'copy', deleteAt })), what).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.copyObject({ ref: ref(), name: 'src' }, { ref: ref(), name: 'src' }, { metadata: 'replace', deleteAt })), what).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.putStaticLargeObject(ref(), 'exp', [{ container: 'c', name: 'src' }], { deleteAt })), what).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.createUpload(ref(), 'exp', { deleteAt })), what).toBe('InvalidArgument');
    }
    expect(await codeOf(() => s.engine.headObject(ref(), 'exp'))).toBe('NoSuchKey');
    expect(s.engine.headObject(ref(), 'src')).toEqual(before);
    // The cap itself (November 2286) is fine.
    await s.engine.putObject(ref(), 'late', 'x', { deleteAt: MAX_DELETE_AT });
    expect(s.engine.headObject(ref(), 'late').deleteAt).toBe(MAX_DELETE_AT);
    expect(await s.engine.expireDue()).toBe(0);
  });
});
