import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { codeOf, openStore, type TestStore } from './helpers.js';

let s: TestStore;
beforeEach(async () => {
  s = await openStore();
});
afterEach(() => s.close());

describe('accounts', () => {
  it('creates accounts with generated or given keys and finds them by key', async () => {
    const acct = await s.engine.createAccount({
      id: 'acme$alice',
      displayName: 'Alice',
      keys: [{ accessKey: 'AKIDALICE', secretKey: 'secret' }],
      swiftKeys: [{ sub: 'swift' }],
    });
    expect(acct).toMatchObject({ id: 'acme$alice', tenant: 'acme', name: 'alice', displayName: 'Alice' });
    expect(acct.swiftKeys[0]!.user).toBe('acme$alice:swift');
    expect(acct.swiftKeys[0]!.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(s.engine.findByAccessKey('AKIDALICE')).toMatchObject({ secretKey: 'secret', account: { id: 'acme$alice' } });
    expect(s.engine.findBySwiftUser('acme$alice:swift')?.account.id).toBe('acme$alice');
    const generated = (await s.engine.createAccount({ id: 'bob' })).keys[0]!;
    expect(generated.accessKey).toMatch(/^[A-Z0-9]{20}$/);
    expect(s.engine.findByAccessKey(generated.accessKey)?.account.tenant).toBe('');
  });

  it('refuses duplicate ids and keys, bad tenants and names', async () => {
    await s.engine.createAccount({ id: 't$u', keys: [{ accessKey: 'K1', secretKey: 's' }] });
    expect(await codeOf(() => s.engine.createAccount({ id: 't$u' }))).toBe('AccountExists');
    expect(await codeOf(() => s.engine.createAccount({ id: 't$v', keys: [{ accessKey: 'K1' }] }))).toBe('AccessKeyInUse');
    expect(await codeOf(() => s.engine.createAccount({ id: 'bad-tenant$u' }))).toBe('InvalidTenantName');
    expect(await codeOf(() => s.engine.createAccount({ id: 't$a/b' }))).toBe('InvalidAccountName');
    expect(s.engine.findAccount('t$v')).toBeUndefined();
  });

  it('adds and removes keys, and deletes an account only once it owns no containers', async () => {
    await s.engine.createAccount({ id: 't$u' });
    await s.engine.addAccessKey('t$u', { accessKey: 'K2', secretKey: 'x' });
    expect(s.engine.findByAccessKey('K2')?.account.id).toBe('t$u');
    await s.engine.removeKey('t$u', 'K2');
    expect(s.engine.findByAccessKey('K2')).toBeNull();
    await s.engine.createContainer('t$u', 'c');
    expect(await codeOf(() => s.engine.deleteAccount('t$u'))).toBe('AccountNotEmpty');
    await s.engine.deleteContainer(Engine.ref('t$u', 'c'));
    expect(await codeOf(() => s.engine.deleteAccount('t$u'))).toBe('ok');
    expect(await codeOf(() => s.engine.getAccount('t$u'))).toBe('NoSuchAccount');
  });

  it('finds a key where it is now after another opening of the store moved or removed it', async () => {
    await s.engine.createAccount({ id: 't$a', keys: [{ accessKey: 'MOVING', secretKey: 'one' }], swiftKeys: [{ sub: 'sw', secretKey: 'k1' }] });
    await s.engine.createAccount({ id: 't$b' });
    expect(s.engine.findByAccessKey('MOVING')?.account.id).toBe('t$a');
    expect(s.engine.findBySwiftUser('t$a:sw')?.account.id).toBe('t$a');
    // As `coffer` in another process would: the first engine learns of it only through the store.
    const other = await Engine.open(s.dir, { recover: false, expirySweepMs: 0 });
    try {
      await other.removeKey('t$a', 'MOVING');
      await other.addAccessKey('t$b', { accessKey: 'MOVING', secretKey: 'two' });
      await other.removeKey('t$a', 't$a:sw');
    } finally {
      await other.close();
    }
    expect(s.engine.findByAccessKey('MOVING')).toMatchObject({ account: { id: 't$b' }, secretKey: 'two' });
    expect(s.engine.findBySwiftUser('t$a:sw')).toBeNull();
    await s.engine.removeKey('t$b', 'MOVING');
    expect(s.engine.findByAccessKey('MOVING')).toBeNull();
  });

  it('keeps account metadata with merge and removal', async () => {
    await s.engine.updateAccountMeta(s.account, { set: { Color: 'red', size: 'L' } });
    const after = await s.engine.updateAccountMeta(s.account, { set: { color: 'blue' }, remove: ['SIZE'] });
    expect(after.meta).toEqual({ color: 'blue' });
  });
});

describe('containers', () => {
  it('shares one namespace per tenant and keeps tenants apart', async () => {
    await s.engine.createAccount({ id: 'test$other' });
    await s.engine.createAccount({ id: 'elsewhere$other' });
    await s.engine.createContainer(s.account, 'shared');
    expect(await codeOf(() => s.engine.createContainer(s.account, 'shared'))).toBe('ContainerOwnedByYou');
    expect(await codeOf(() => s.engine.createContainer('test$other', 'shared'))).toBe('ContainerExists');
    expect(await codeOf(() => s.engine.createContainer('elsewhere$other', 'shared'))).toBe('ok');
    expect(s.engine.getContainer({ tenant: 'elsewhere', container: 'shared' }).owner).toBe('elsewhere$other');
  });

  it('validates names and caps the number of containers per account', async () => {
    for (const bad of ['', 'a/b', '.', '..', 'x'.repeat(257)]) {
      expect(await codeOf(() => s.engine.createContainer(s.account, bad))).toBe('InvalidContainerName');
    }
    const capped = await openStore({ maxContainersPerAccount: 2 });
    await capped.engine.createContainer(capped.account, 'one');
    await capped.engine.createContainer(capped.account, 'two');
    expect(await codeOf(() => capped.engine.createContainer(capped.account, 'three'))).toBe('TooManyContainers');
    await capped.close();
  });

  it('lists containers in UTF-8 byte order with prefix, markers, limit and reverse', async () => {
    for (const n of ['b', 'a', 'é', 'z', 'ab', 'Z']) await s.engine.createContainer(s.account, n);
    const names = (p = {}) => s.engine.listContainers(s.account, p).map((c) => c.name);
    expect(names()).toEqual(['Z', 'a', 'ab', 'b', 'z', 'é']);
    expect(names({ prefix: 'a' })).toEqual(['a', 'ab']);
    expect(names({ marker: 'ab', limit: 2 })).toEqual(['b', 'z']);
    expect(names({ endMarker: 'b' })).toEqual(['Z', 'a', 'ab']);
    expect(names({ reverse: true, limit: 3 })).toEqual(['é', 'z', 'b']);
    expect(names({ reverse: true, marker: 'b' })).toEqual(['ab', 'a', 'Z']);
  });

  it('keeps metadata (merge with removal), ACLs, policy, quota and storage policy', async () => {
    await s.engine.createContainer(s.account, 'c', { meta: { set: { Web: 'x' } } });
    const r = Engine.ref(s.account, 'c');
    const info = await s.engine.updateContainer(r, {
      meta: { set: { color: 'red' }, remove: ['web'] },
      acl: { read: '.r:*' },
      publicRead: true,
      policy: '{"Version":"2012-10-17"}',
      quota: { maxBytes: 100 },
    });
    expect(info).toMatchObject({
      meta: { color: 'red' },
      acl: { read: '.r:*' },
      publicRead: true,
      policy: '{"Version":"2012-10-17"}',
      quota: { maxBytes: 100, maxObjects: -1 },
      storagePolicy: 'default-placement',
      versioning: 'unversioned',
    });
    expect((await s.engine.updateContainer(r, { acl: { read: null }, policy: null })).acl).toEqual({});
  });

  it('refuses container and account metadata with CR, LF or other control characters (they could not go out as headers)', async () => {
    await s.engine.createContainer(s.account, 'm');
    const ref = Engine.ref(s.account, 'm');
    const bad: Record<string, string>[] = [{ note: 'a\r\nX-Injected: 1' }, { 'bad\nkey': 'v' }, { nul: 'a\u0000b' }];
    for (const set of bad) {
      expect(await codeOf(() => s.engine.updateContainer(ref, { meta: { set } }))).toBe('InvalidArgument');
      expect(await codeOf(() => s.engine.updateAccountMeta(s.account, { set }))).toBe('InvalidArgument');
    }
    expect(s.engine.getContainer(ref).meta).toEqual({});
    await s.engine.updateContainer(ref, { meta: { set: { note: 'tabs\tare fine' } } });
    expect(s.engine.getContainer(ref).meta).toEqual({ note: 'tabs\tare fine' });
  });

  it('request lookups (hasAccount, getContainerForRequest) agree with the full ones, usage included', async () => {
    await s.engine.createAccount({ id: 't$u' });
    expect(s.engine.hasAccount('t$u')).toBe(true);
    expect(s.engine.hasAccount('t$nobody')).toBe(false);
    await s.engine.createContainer('t$u', 'c');
    const ref = Engine.ref('t$u', 'c');
    await s.engine.putObject(ref, 'a', 'hello');
    await s.engine.putObject(ref, 'b', 'world!');
    const lazy = s.engine.getContainerForRequest(ref);
    expect(lazy.usage).toEqual({ objects: 2, bytes: 11, bytesActual: 8192, current: 2 });
    // usage and grants are getters on the prototype, so a spread copy leaves them out.
    expect({ ...lazy, usage: lazy.usage, grants: lazy.grants }).toEqual(s.engine.getContainer(ref));
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(s.engine.getContainer(ref))));
    expect(await codeOf(async () => s.engine.getContainerForRequest(Engine.ref('t$u', 'missing')))).toBe('NoSuchContainer');
  });

  it('refuses to delete a non-empty container and a missing one', async () => {
    await s.engine.createContainer(s.account, 'c');
    const r = Engine.ref(s.account, 'c');
    await s.engine.putObject(r, 'x', 'y');
    expect(await codeOf(() => s.engine.deleteContainer(r))).toBe('ContainerNotEmpty');
    await s.engine.deleteObject(r, 'x');
    await s.engine.deleteContainer(r);
    expect(await codeOf(() => s.engine.deleteContainer(r))).toBe('NoSuchContainer');
    expect(s.engine.getAccount(s.account).usage.containers).toBe(0);
  });
});
