import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { bytes, codeOf, openStore, type TestStore } from './helpers.js';

let s: TestStore;
const ref = () => Engine.ref(s.account, 'q');

beforeEach(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'q');
});
afterEach(() => s.close());

describe('usage counters', () => {
  it('counts objects, bytes and bytes rounded up to 4 KiB per object, in container and account', async () => {
    await s.engine.putObject(ref(), 'a', bytes(1));
    await s.engine.putObject(ref(), 'b', bytes(4096));
    await s.engine.putObject(ref(), 'c', bytes(4097));
    await s.engine.putObject(ref(), 'empty', '');
    expect(s.engine.getContainer(ref()).usage).toEqual({ objects: 4, bytes: 1 + 4096 + 4097, bytesActual: 4096 + 4096 + 8192, current: 4 });
    expect(s.engine.getAccount(s.account).usage).toEqual({ objects: 4, bytes: 8194, bytesActual: 16384, containers: 1 });
    await s.engine.putObject(ref(), 'c', bytes(10));
    await s.engine.deleteObject(ref(), 'a');
    expect(s.engine.getContainer(ref()).usage).toEqual({ objects: 3, bytes: 4106, bytesActual: 8192, current: 3 });
  });
});

describe('quotas', () => {
  it('enforces a container object-count quota exactly, also under concurrent writers', async () => {
    await s.engine.updateContainer(ref(), { quota: { maxObjects: 10 } });
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => codeOf(() => s.engine.putObject(ref(), `o${i}`, 'x'))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    expect(results.filter((r) => r === 'QuotaExceeded')).toHaveLength(15);
    expect(s.engine.getContainer(ref()).usage.objects).toBe(10);
    expect(await codeOf(() => s.engine.putObject(ref(), 'o0', 'replace is fine'))).toBe('ok');
  });

  it('enforces a byte quota on rounded sizes and frees room on delete', async () => {
    await s.engine.updateContainer(ref(), { quota: { maxBytes: 3 * 4096 } });
    await s.engine.putObject(ref(), 'a', bytes(5000));
    await s.engine.putObject(ref(), 'b', bytes(100));
    expect(await codeOf(() => s.engine.putObject(ref(), 'c', bytes(100)))).toBe('QuotaExceeded');
    expect(await codeOf(() => s.engine.putObject(ref(), 'b', bytes(4096)))).toBe('ok');
    await s.engine.deleteObject(ref(), 'a');
    expect(await codeOf(() => s.engine.putObject(ref(), 'c', bytes(8192)))).toBe('ok');
  });

  it('enforces the account quota across containers, streaming uploads included', async () => {
    await s.engine.setAccountQuota(s.account, { maxBytes: 200_000 });
    await s.engine.createContainer(s.account, 'other');
    await s.engine.putObject(ref(), 'a', bytes(150_000), { size: 150_000 });
    expect(await codeOf(() => s.engine.putObject(Engine.ref(s.account, 'other'), 'b', bytes(100_000), { size: 100_000 }))).toBe(
      'QuotaExceeded',
    );
    await s.engine.setAccountQuota(s.account, { maxBytes: -1 });
    expect(await codeOf(() => s.engine.putObject(Engine.ref(s.account, 'other'), 'b', bytes(100_000)))).toBe('ok');
  });

  it('refuses a quota that is not a whole number from -1 up to what a number holds exactly', async () => {
    for (const v of [1e25, 2 ** 53, 1.5, -2, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(await codeOf(() => s.engine.updateContainer(ref(), { quota: { maxBytes: v } })), `container ${v}`).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.createContainer(s.account, 'q2', { quota: { maxObjects: v } })), `create ${v}`).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.setAccountQuota(s.account, { maxObjects: v })), `account ${v}`).toBe('InvalidArgument');
    }
    expect(s.engine.getContainer(ref()).quota).toEqual({ maxBytes: -1, maxObjects: -1 });
    expect(s.engine.getAccount(s.account).quota).toEqual({ maxBytes: -1, maxObjects: -1 });
    await s.engine.updateContainer(ref(), { quota: { maxBytes: Number.MAX_SAFE_INTEGER, maxObjects: -1 } });
    expect(await codeOf(() => s.engine.putObject(ref(), 'k', 'x'))).toBe('ok');
  });

  it('counts versions toward the quota', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled', quota: { maxObjects: 2 } });
    await s.engine.putObject(ref(), 'k', 'one');
    await s.engine.putObject(ref(), 'k', 'two');
    expect(await codeOf(() => s.engine.putObject(ref(), 'k', 'three'))).toBe('QuotaExceeded');
  });
});
