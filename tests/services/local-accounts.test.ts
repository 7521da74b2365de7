// The local store's accounts through the contract, on a real app (engine, server, services):
// every account listed and browsable as its own connection, the one the app shows chosen and
// remembered across a restart, accounts and keys created from the app working for real S3 and
// Swift clients, and quotas set on any account enforced by the server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { EventMap } from '../../src-shared/contract/events.js';
import { createClient } from '../../src-shared/rpc/client.js';

let dir: string;
let ctx: AppContext;
const api = () => createClient(ctx.rpc.asTransport()).services;
const start = () => createAppContext({ dataDir: join(dir, 'store'), port: 0, engine: { noSync: true } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-local-accounts-'));
  ctx = await start();
  // The first user (coffer$admin) and two more, one in another tenant, one sorting after it.
  await ctx.engine.createAccount({ id: 'team$ann', displayName: 'Ann' });
  await ctx.engine.createAccount({ id: 'zoe', displayName: 'Zoe' });
  await ctx.engine.createContainer('coffer$admin', 'admin-stuff');
  await ctx.engine.createContainer('team$ann', 'ann-photos');
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const localEntry = async () => (await api().accounts.list({}))[0]!;
const containerNames = async (account: string) => (await api().browse.listContainers({ account })).map((c) => c.name);

function s3(accessKeyId: string, secretAccessKey: string): S3Client {
  return new S3Client({ endpoint: ctx.server.url, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
}

/** v1 auth as the swift CLI does it, then the account listing at the storage URL with the token (undefined when refused). */
async function swiftList(user: string, key: string): Promise<string | undefined> {
  const auth = await fetch(`${ctx.server.url}/auth/1.0`, { headers: { 'X-Auth-User': user, 'X-Auth-Key': key } });
  if (!auth.ok) return undefined;
  const listing = await fetch(`${auth.headers.get('x-storage-url')!}?format=plain`, { headers: { 'X-Auth-Token': auth.headers.get('x-auth-token')! } });
  return listing.text();
}

describe('the local store with several accounts', () => {
  it('lists every account and browses each as its own connection; the bare "local" stays the first by id', async () => {
    expect((await api().localStore.users({})).map((u) => [u.id, u.tenant, u.displayName])).toEqual([
      ['coffer$admin', 'coffer', 'Coffer admin'],
      ['team$ann', 'team', 'Ann'],
      ['zoe', '', 'Zoe'],
    ]);
    expect(await containerNames('local:team$ann')).toEqual(['ann-photos']);
    expect(await containerNames('local:coffer$admin')).toEqual(['admin-stuff']);
    expect(await containerNames('local')).toEqual(['admin-stuff']);
    await expect(api().browse.listContainers({ account: 'local:nobody' })).rejects.toMatchObject({ code: 'NoSuchAccount' });
  });

  it('shows the chosen account, remembers it across a restart, and falls back to the first when it is gone', async () => {
    expect(await localEntry()).toMatchObject({ id: 'local:coffer$admin', kind: 'local', account: 'coffer$admin', state: 'connected' });
    expect(await api().localStore.chooseAccount({ account: 'team$ann' })).toEqual({ connectionId: 'local:team$ann' });
    expect(await localEntry()).toMatchObject({ id: 'local:team$ann', account: 'team$ann' });
    await expect(api().localStore.chooseAccount({ account: 'team$nobody' })).rejects.toMatchObject({ code: 'NoSuchAccount' });
    expect((await localEntry()).account).toBe('team$ann');

    await ctx.close();
    ctx = await start();
    expect(await localEntry()).toMatchObject({ id: 'local:team$ann', account: 'team$ann' });

    await api().localStore.chooseAccount({ account: 'zoe' });
    await ctx.engine.deleteAccount('zoe');
    expect((await localEntry()).account).toBe('coffer$admin');
    await ctx.engine.createAccount({ id: 'zoe', displayName: 'Zoe' });

    // A damaged file loses the choice, not the app.
    await ctx.close();
    writeFileSync(join(dir, 'store', 'local-account.json'), '{"account":');
    ctx = await start();
    expect((await localEntry()).account).toBe('coffer$admin');
  });

  it("tells of object changes under the owning account's connection", async () => {
    const got: EventMap['objects.changed'][] = [];
    const off = createClient(ctx.rpc.asTransport()).on('objects.changed', (e) => got.push(e));
    await ctx.engine.putObject({ tenant: 'team', container: 'ann-photos' }, 'cat.jpg', 'meow');
    off();
    expect(got).toEqual([{ account: 'local:team$ann', container: 'ann-photos', names: ['cat.jpg'] }]);
  });

  it('creates an account whose generated S3 and Swift keys work with real clients', async () => {
    const made = await api().localStore.createAccount({ id: 'team$bob', displayName: 'Bob' });
    expect(made).toMatchObject({ id: 'team$bob', tenant: 'team', displayName: 'Bob', storageUrl: `${ctx.server.url}/v1/AUTH_team$bob` });
    const [key] = made.keys;
    const [swift] = made.swiftKeys;
    expect(swift!.user).toBe('team$bob:swift');
    expect((await s3(key!.accessKey, key!.secretKey).send(new ListBucketsCommand({}))).Buckets ?? []).toEqual([]);
    expect(await swiftList(swift!.user, swift!.secretKey)).toBe('');
    expect(await swiftList(swift!.user, 'wrong')).toBeUndefined();
    expect((await api().localStore.users({})).map((u) => u.id)).toContain('team$bob');
    await expect(api().localStore.createAccount({ id: 'team$bob' })).rejects.toMatchObject({ code: 'AccountExists' });
    await expect(api().localStore.createAccount({ id: 'bad tenant$x' })).rejects.toMatchObject({ code: 'InvalidTenantName' });
    await expect(api().localStore.createAccount({ id: 'team$no/slash' })).rejects.toMatchObject({ code: 'InvalidAccountName' });
  });

  it('adds S3 key pairs and Swift sub-users; an existing sub-user is refused, its key kept', async () => {
    const before = (await api().localStore.users({})).find((u) => u.id === 'team$ann')!;
    const withS3 = await api().localStore.addKey({ account: 'team$ann', kind: 's3' });
    const added = withS3.keys.find((k) => !before.keys.some((b) => b.accessKey === k.accessKey))!;
    expect(withS3.keys).toHaveLength(before.keys.length + 1);
    expect((await s3(added.accessKey, added.secretKey).send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toEqual(['ann-photos']);

    const withSwift = await api().localStore.addKey({ account: 'team$ann', kind: 'swift', subuser: 'backup' });
    const backup = withSwift.swiftKeys.find((k) => k.user === 'team$ann:backup')!;
    expect(await swiftList(backup.user, backup.secretKey)).toBe('ann-photos\n');
    await expect(api().localStore.addKey({ account: 'team$ann', kind: 'swift', subuser: 'backup' })).rejects.toMatchObject({ code: 'AccessKeyInUse' });
    expect(await swiftList(backup.user, backup.secretKey)).toBe('ann-photos\n');
    await expect(api().localStore.addKey({ account: 'team$nobody', kind: 's3' })).rejects.toMatchObject({ code: 'NoSuchAccount' });
  });

  it('sets the quota of any account, which the server then enforces', async () => {
    const ann = (await api().localStore.users({})).find((u) => u.id === 'team$ann')!;
    await api().localStore.setQuota({ account: 'team$ann', maxObjects: 1 });
    expect(await api().accounts.info({ id: 'local:team$ann' })).toMatchObject({ id: 'team$ann', quota: { maxObjects: 1 } });
    expect((await api().accounts.info({ id: 'local:coffer$admin' })).quota.maxObjects).toBeNull();
    const client = s3(ann.keys[0]!.accessKey, ann.keys[0]!.secretKey);
    // cat.jpg is already there: one object is the limit.
    await expect(client.send(new PutObjectCommand({ Bucket: 'ann-photos', Key: 'dog.jpg', Body: 'woof' }))).rejects.toMatchObject({ name: 'QuotaExceeded' });
    await api().localStore.setQuota({ account: 'team$ann', maxObjects: -1 });
    await client.send(new PutObjectCommand({ Bucket: 'ann-photos', Key: 'dog.jpg', Body: 'woof' }));
  });
});
