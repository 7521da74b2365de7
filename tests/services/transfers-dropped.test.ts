// A connection that drops in the middle of an object's body is the network's failure, not the
// object's: the download is tried again by itself and arrives whole and verified, for each
// kind of download (read whole in memory, streamed and hashed on disk, streamed and hashed as it
// arrives) over both remote APIs. A copy across accounts, which streams the source's body into
// the upload, is tried again whole, and when every attempt is cut fails naming the source and stores nothing. On a real app and server, through a TCP
// proxy that cuts the first connection whose answer passes 64 KiB.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { createClient } from '../../src-shared/rpc/client.js';
import { settledItems } from './transfer-items.js';

const CUT_AFTER = 64 * 1024;
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

let dir: string;
let ctx: AppContext;
let proxy: Server;
const proxied = new Set<Socket>();
/** Connections cut so far; the next `armed` answers to pass CUT_AFTER bytes are cut. */
let cuts = 0;
let armed = 0;
const api = () => createClient(ctx.rpc.asTransport()).services;

/** A TCP proxy to the app's server that, while armed, drops a connection once its answer has passed CUT_AFTER bytes. */
function cuttingProxy(port: number): Promise<Server> {
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    proxied.add(client).add(upstream);
    let answered = 0;
    client.on('data', (chunk: Buffer) => {
      answered = 0;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      answered += chunk.length;
      if (armed > 0 && answered > CUT_AFTER) {
        armed--;
        cuts++;
        client.write(chunk.subarray(0, chunk.length - (answered - CUT_AFTER)));
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
    client.on('end', () => upstream.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const settled = (ids: string[]) => settledItems(() => api().transfers.list({}), ids);

const accounts: Record<'s3' | 'swift', string> = { s3: '', swift: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-dropped-'));
  ctx = await createAppContext({ dataDir: join(dir, 'store'), port: 0, engine: { noSync: true } });
  proxy = await cuttingProxy(Number(new URL(ctx.server.url).port));
  const through = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  const [user] = await api().localStore.users({});
  accounts.s3 = (await api().accounts.add({ name: 'S3 through a cutting proxy', config: { kind: 's3', endpoint: through, accessKeyId: user!.keys[0]!.accessKey, secretAccessKey: user!.keys[0]!.secretKey } })).id;
  const swiftKey = user!.swiftKeys[0]!;
  accounts.swift = (await api().accounts.add({ name: 'Swift through a cutting proxy', config: { kind: 'swift', authUrl: `${through}/auth/1.0`, auth: { type: 'v1', user: swiftKey.user, key: swiftKey.secretKey } } })).id;
});
afterAll(async () => {
  await ctx?.close();
  for (const socket of proxied) socket.destroy();
  await new Promise((r) => proxy?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['s3', 'swift'] as const)('a download whose connection drops mid-body (%s)', (kind) => {
  // 200 KiB is read whole in memory, 1 MiB streamed and hashed on disk, 17 MiB hashed as it arrives (runners.ts).
  it.each([
    ['read whole', 200 * 1024],
    ['streamed, hashed on disk', 1024 * 1024],
    ['streamed, hashed as it arrives', 17 * 1024 * 1024],
  ])('is tried again and arrives whole and verified (%s)', async (how, size) => {
    const container = `dropped-${kind}-${size}`;
    await api().browse.createContainer({ account: 'local', container });
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) bytes.writeUInt32LE(i ^ 0x5a5a5a5a, i);
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container }, 'o/object.bin', bytes);

    const out = join(dir, `down-${container}`);
    const before = cuts;
    armed = 1;
    const { ids } = await api().transfers.download({ account: accounts[kind], container, names: ['o/object.bin'], prefixes: [], folder: out });
    const [item] = await settled(ids);
    expect(cuts - before, `the proxy cut one connection mid-body (${how})`).toBe(1);
    expect(item).toMatchObject({ state: 'done', verified: true, attempts: 2 });
    expect(md5(readFileSync(join(out, 'object.bin')))).toBe(md5(bytes));
    expect(existsSync(join(out, 'object.bin.coffer-partial'))).toBe(false);
  });
});

describe.each([
  ['s3', 'swift'],
  ['swift', 's3'],
] as const)('a copy across accounts whose source connection drops mid-body (%s to %s)', (from, to) => {
  const source = `copy-from-${from}`;
  const target = `copy-to-${to}`;
  const bytes = Buffer.alloc(1024 * 1024, 7);
  const copy = (name: string) => api().browse.copy({ from: { account: accounts[from], container: source, name: 'big.bin' }, to: { account: accounts[to], container: target, name } });

  beforeAll(async () => {
    await api().browse.createContainer({ account: 'local', container: source });
    await api().browse.createContainer({ account: 'local', container: target });
    await ctx.engine.putObject({ tenant: ctx.localAccount.tenant, container: source }, 'big.bin', bytes);
    // Both connections reach the same store, each as its own account in the app.
    await api().accounts.check({ id: accounts[to] });
  });

  it('tries again by itself: the object arrives whole', async () => {
    const before = cuts;
    armed = 1;
    await copy('once.bin');
    expect(cuts - before, 'the proxy cut the first download mid-body').toBe(1);
    expect((await api().browse.head({ account: 'local', container: target, name: 'once.bin' })).etag).toBe(md5(bytes));
  });

  it('cut every time: fails saying the source dropped, stores nothing, and leaves the destination connected', async () => {
    const before = cuts;
    armed = 3;
    await expect(copy('never.bin')).rejects.toMatchObject({ code: 'Unreachable', message: expect.stringMatching(/^big\.bin: the connection to its account dropped during the copy, nothing was stored/) });
    expect(cuts - before, 'the proxy cut each of the three attempts mid-body').toBe(3);
    await expect(api().browse.head({ account: 'local', container: target, name: 'never.bin' })).rejects.toMatchObject({ code: 'NoSuchKey' });
    const destination = (await api().accounts.list({})).find((c) => c.id === accounts[to]);
    expect(destination).toMatchObject({ state: 'connected', error: null });
  });
});
