import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src-shared/rpc/envelope.js';
import { createClient, type Client } from '../../src-shared/rpc/client.js';
import { httpTransport as shippedHttpTransport, SESSION_EXPIRED } from '../../src-renderer/api/transport.js';
import { page } from './page.js';
import { httpTransport, ipcShapedTransport, startApp, type ContractEnv } from './transports.js';

const TRANSPORTS: [string, (env: ContractEnv) => Transport][] = [
  ['in-process', (env) => env.ctx.rpc.asTransport()],
  ['IPC-shaped', ipcShapedTransport],
  ['HTTP', httpTransport],
];

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

describe.each(TRANSPORTS)('the contract over the %s transport', (_name, make) => {
  let env: ContractEnv;
  let client: Client;
  beforeAll(async () => {
    env = await startApp();
    client = createClient(make(env));
  });
  afterAll(() => env.close());
  const api = () => client.services;
  const local = 'local';

  it('refuses unknown methods and invalid arguments with InvalidArgument, as data', async () => {
    const transport = make(env);
    expect(await transport.call('browse.nope', {})).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    expect(await transport.call('constructor', {})).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    const bad = await transport.call('browse.listFolder', { account: local, container: '', pageSize: 0 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    expect(await codeOf(api().browse.head({ account: local, container: 'missing', name: 'x' }))).toBe('NoSuchContainer');
  });

  it('lists the local store first and shows its endpoints and users', async () => {
    const [first] = await api().accounts.list({});
    expect(first).toMatchObject({ id: `local:${env.ctx.localAccount.id}`, kind: 'local', state: 'connected', account: env.ctx.localAccount.id });
    const status = await api().localStore.status({});
    expect(status.nativeAuthUrl).toBe(`${env.ctx.server.url}/auth/1.0`);
    const [user] = await api().localStore.users({});
    expect(user?.keys[0]?.accessKey).toMatch(/^[A-Z0-9]{20}$/);
    expect(new URL(user!.storageUrl).pathname).toMatch(/^\/v1\/AUTH_/);
  });

  it('browses: containers, folders with pages, metadata, copy, move, delete', async () => {
    const c = `c-${_name.replace(/\W/g, '').toLowerCase()}`;
    await api().browse.createContainer({ account: local, container: c });
    expect((await api().browse.listContainers({ account: local })).map((x) => x.name)).toContain(c);
    const engine = env.ctx.engine;
    const ref = { tenant: env.ctx.localAccount.tenant, container: c };
    for (let i = 0; i < 25; i++) await engine.putObject(ref, `photos/${String(i).padStart(2, '0')}.jpg`, `img${i}`);
    await engine.putObject(ref, 'readme.txt', 'hello');
    await api().browse.createFolder({ account: local, container: c, prefix: 'empty' });
    const root = await api().browse.listFolder({ account: local, container: c });
    expect(root.entries).toEqual([
      { kind: 'folder', prefix: 'empty/' },
      { kind: 'folder', prefix: 'photos/' },
      expect.objectContaining({ kind: 'object', name: 'readme.txt', size: 5 }),
    ]);
    const first = await api().browse.listFolder({ account: local, container: c, prefix: 'photos/', pageSize: 10 });
    expect(first.entries).toHaveLength(10);
    const second = await api().browse.listFolder({ account: local, container: c, prefix: 'photos/', pageSize: 10, marker: first.nextMarker! });
    expect(second.entries[0]).toMatchObject({ name: 'photos/10.jpg' });
    const details = await api().browse.setMetadata({ account: local, container: c, name: 'readme.txt', contentType: 'text/markdown', meta: { owner: 'ann' }, headers: { cacheControl: 'no-cache' } });
    expect(details).toMatchObject({ contentType: 'text/markdown', meta: { owner: 'ann' }, headers: { cacheControl: 'no-cache' }, size: 5 });
    await api().browse.copy({ from: { account: local, container: c, name: 'readme.txt' }, to: { account: local, container: c, name: 'copy.txt' } });
    await api().browse.move({ from: { account: local, container: c, name: 'photos/' }, to: { account: local, container: c, name: 'pictures/' } });
    const after = await api().browse.listFolder({ account: local, container: c });
    expect(after.entries.map((e) => (e.kind === 'folder' ? e.prefix : e.name))).toEqual(['copy.txt', 'empty/', 'pictures/', 'readme.txt']);
    const removed = await api().browse.delete({ account: local, container: c, names: ['copy.txt'], prefixes: ['pictures/'] });
    expect(removed.deleted).toHaveLength(26);
    expect(removed.errors).toEqual([]);
  });

  it('makes share links that work without credentials, and public objects', async () => {
    const c = `s-${_name.replace(/\W/g, '').toLowerCase()}`;
    await api().browse.createContainer({ account: local, container: c });
    await env.ctx.engine.putObject({ tenant: env.ctx.localAccount.tenant, container: c }, 'a.txt', 'shared');
    const link = await api().browse.shareLink({ account: local, container: c, name: 'a.txt', expiresInSeconds: 60 });
    expect(await (await fetch(link.url)).text()).toBe('shared');
    const anonymous = `${env.ctx.server.url}/${env.ctx.localAccount.tenant}:${c}/a.txt`;
    expect((await fetch(anonymous)).status).toBe(403);
    await api().browse.setPublic({ account: local, container: c, name: 'a.txt', on: true });
    expect((await fetch(anonymous)).status).toBe(200);
  });

  it('sets quotas of the local store', async () => {
    const id = env.ctx.localAccount.id;
    await api().localStore.setQuota({ account: id, maxBytes: 123456 });
    expect((await api().localStore.users({})).find((u) => u.id === id)?.quota.maxBytes).toBe(123456);
    await api().localStore.setQuota({ account: id, maxBytes: -1 });
  });

  it('uploads a folder tree from paths through the transfer queue, with progress events', async () => {
    const c = `t-${_name.replace(/\W/g, '').toLowerCase()}`;
    await api().browse.createContainer({ account: local, container: c });
    const src = join(env.dir, `tree-${c}`);
    mkdirSync(join(src, 'sub'), { recursive: true });
    writeFileSync(join(src, 'one.txt'), 'one');
    writeFileSync(join(src, 'sub', 'two.bin'), Buffer.alloc(200_000, 7));
    const done: string[] = [];
    const off = client.on('transfer.progress', (report) => {
      for (const item of report.items) if (item.state === 'done') done.push(item.name);
    });
    await new Promise((r) => setTimeout(r, 100));
    const plan = await api().transfers.planUpload({ account: local, container: c, prefix: 'in/', paths: [src] });
    expect(plan).toMatchObject({ files: 2, bytes: 200_000 + 3, conflicts: { count: 0 } });
    const { items: started } = await api().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
    const ids = started.map((i) => i.id);
    expect(ids).toHaveLength(2);
    for (let i = 0; i < 100 && done.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    off();
    const base = src.split('/').at(-1);
    expect(done.sort()).toEqual([`in/${base}/one.txt`, `in/${base}/sub/two.bin`]);
    const { items } = await api().transfers.list({});
    expect(items.filter((i) => ids.includes(i.id)).every((i) => i.state === 'done')).toBe(true);
    const target = join(env.dir, `down-${c}.bin`);
    const { id } = await api().transfers.downloadToPath({ account: local, container: c, name: `in/${base}/sub/two.bin`, path: target });
    for (let i = 0; i < 100; i++) {
      if ((await api().transfers.list({})).items.find((t) => t.id === id)?.state === 'done') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(readFileSync(target).equals(Buffer.alloc(200_000, 7))).toBe(true);
  });

  it('reports a remote connection that cannot work with its error', async () => {
    const added = await api().accounts.add({ name: 'nowhere', config: { kind: 's3', endpoint: 'http://127.0.0.1:9', accessKeyId: 'a', secretAccessKey: 'b' } });
    expect((await api().accounts.list({})).map((a) => a.id)).toContain(added.id);
    expect(await codeOf(api().accounts.test({ config: { kind: 's3', endpoint: 'http://127.0.0.1:9', accessKeyId: 'a', secretAccessKey: 'b' } }))).not.toBe('ok');
    await api().accounts.remove({ id: added.id });
    const saved = readFileSync(join(env.dir, 'store', 'connections.json'), 'utf8');
    expect(saved).not.toContain('"b"');
  });
});

describe('remote connections through the contract', () => {
  let env: ContractEnv;
  let client: Client;
  beforeAll(async () => {
    env = await startApp();
    client = createClient(env.ctx.rpc.asTransport());
    await env.ctx.engine.createContainer(env.ctx.localAccount.id, 'shared');
    await env.ctx.engine.putObject({ tenant: env.ctx.localAccount.tenant, container: 'shared' }, 'docs/a.txt', 'same data');
  });
  afterAll(() => env.close());

  it('browses the same data through a remote S3 connection and a remote Swift connection to this server', async () => {
    const user = env.ctx.localAccount;
    const api = client.services;
    const s3 = await api.accounts.add({
      name: 'self over S3',
      config: { kind: 's3', endpoint: env.ctx.server.url, accessKeyId: user.keys[0]!.accessKey, secretAccessKey: user.keys[0]!.secretKey },
    });
    const swift = await api.accounts.add({
      name: 'self over Swift',
      config: { kind: 'swift', authUrl: `${env.ctx.server.url}/auth/1.0`, auth: { type: 'v1', user: user.swiftKeys[0]!.user, key: user.swiftKeys[0]!.secretKey } },
    });
    for (const id of [s3.id, swift.id]) {
      expect((await api.browse.listContainers({ account: id })).map((c) => c.name)).toContain('shared');
      const page = await api.browse.listFolder({ account: id, container: 'shared' });
      expect(page.entries).toEqual([{ kind: 'folder', prefix: 'docs/' }]);
      expect((await api.browse.head({ account: id, container: 'shared', name: 'docs/a.txt' })).size).toBe(9);
    }
    expect((await api.accounts.list({})).find((a) => a.id === s3.id)?.state).toBe('connected');
    await api.browse.copy({ from: { account: s3.id, container: 'shared', name: 'docs/a.txt' }, to: { account: 'local', container: 'shared', name: 'docs/b.txt' } });
    expect(env.ctx.engine.headObject({ tenant: user.tenant, container: 'shared' }, 'docs/b.txt').size).toBe(9);
    const bad = await api.accounts.test({ config: { kind: 's3', endpoint: env.ctx.server.url, accessKeyId: 'NOPE', secretAccessKey: 'x' } }).catch((e: { code: string; message: string }) => e);
    expect(bad).toMatchObject({ code: 'AuthFailed' });
    expect((bad as { message: string }).message).toMatch(/Access Key/i);
  });
});

describe('the HTTP transport where only it can differ', () => {
  let env: ContractEnv;
  beforeAll(async () => {
    env = await startApp();
  });
  afterAll(() => env.close());

  it('answers a page whose session is not valid with AuthFailed, saying the session expired', async () => {
    const tab = page(env.ctx.server.url, 'coffer_session=not-a-session');
    env.pages.push(tab);
    const result = await shippedHttpTransport('/_coffer', tab).call('localStore.status', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'AuthFailed' } });
    expect(!result.ok && result.error.message).toContain(SESSION_EXPIRED);
  });

  it('delivers each event to the listeners of its name until they unsubscribe', async () => {
    const tab = page(env.ctx.server.url, env.cookie);
    env.pages.push(tab);
    const transport = shippedHttpTransport('/_coffer', tab);
    const heard: [string, unknown][] = [];
    const offA = transport.subscribe('transfer.progress', (p) => heard.push(['a', p]));
    const offB = transport.subscribe('objects.changed', (p) => heard.push(['b', p]));
    await new Promise((r) => setTimeout(r, 200));
    env.ctx.rpc.events.emit('transfer.progress', { items: [], n: 1 });
    env.ctx.rpc.events.emit('objects.changed', { n: 2 });
    for (let i = 0; i < 100 && heard.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    offA();
    env.ctx.rpc.events.emit('transfer.progress', { items: [], n: 3 });
    env.ctx.rpc.events.emit('objects.changed', { n: 4 });
    for (let i = 0; i < 100 && heard.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    offB();
    expect(heard).toEqual([
      ['a', { items: [], n: 1 }],
      ['b', { n: 2 }],
      ['b', { n: 4 }],
    ]);
  });
});
