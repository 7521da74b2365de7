// The quota warning before an upload batch, on a real app (engine, server, services): objects and
// bytes against the account's and the container's limits, bytes counted the way the store
// enforces them (each file rounded up to 4 KiB), and the store agreeing with the warning.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { TransferItem } from '../../src-shared/contract/transfers.js';
import { createClient } from '../../src-shared/rpc/client.js';

let dir: string;
let ctx: AppContext;
let counter = 0;

const api = () => createClient(ctx.rpc.asTransport()).services;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-transfers-quota-'));
  ctx = await createAppContext({ dataDir: join(dir, 'store'), port: 0, engine: { noSync: true } });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function container(): Promise<string> {
  const name = `quota-${++counter}`;
  await api().browse.createContainer({ account: 'local', container: name });
  return name;
}

/** `count` files of `size` bytes each, named apart from every other batch's (so none replaces another). */
function files(count: number, size: number): string[] {
  const batch = ++counter;
  const folder = join(dir, 'src', `batch-${batch}`);
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const path = join(folder, `b${batch}-f${i}.bin`);
    writeFileSync(path, Buffer.alloc(size, 'x'));
    return path;
  });
}

const plan = (c: string, paths: string[]) => api().transfers.planUpload({ account: 'local', container: c, prefix: '', paths });

async function uploadAll(c: string, paths: string[]): Promise<TransferItem[]> {
  const { items } = await api().transfers.startUpload({ batchId: (await plan(c, paths)).batchId });
  const ids = items.map((i) => i.id);
  for (let i = 0; i < 1200; i++) {
    const now = (await api().transfers.list({})).items.filter((t) => ids.includes(t.id));
    if (now.every((t) => ['done', 'failed', 'cancelled'].includes(t.state))) return now;
    await sleep(50);
  }
  throw new Error('transfers still running');
}

describe('the quota warning before an upload', () => {
  it('warns before a batch that would break the account\'s object quota or the container\'s byte quota', async () => {
    const c = await container();
    const account = ctx.localAccount.id;
    const before = (await api().localStore.users({})).find((u) => u.id === account)!.usage;
    await api().localStore.setQuota({ account, maxObjects: before.objects + 2 });
    try {
      const paths = files(3, 100);
      expect((await plan(c, paths)).quota).toEqual({ scope: 'account', limit: 'objects', used: before.objects, max: before.objects + 2, adding: 3 });
      expect((await plan(c, paths.slice(0, 2))).quota).toBeNull();
      // Two 100-byte files take two 4 KiB blocks of the quota: one byte short of that is too little.
      await api().localStore.setQuota({ account, container: c, maxBytes: 2 * 4096 - 1 });
      expect((await plan(c, paths.slice(0, 2))).quota).toEqual({ scope: 'container', limit: 'bytes', used: 0, max: 2 * 4096 - 1, adding: 2 * 4096, roundedTo: 4096 });
      expect((await plan(c, paths.slice(0, 1))).quota).toBeNull();
    } finally {
      await api().localStore.setQuota({ account, maxObjects: -1 });
    }
  });

  it('counts each small file as the 4 KiB the store charges for it, so a batch the store would refuse is announced', async () => {
    const c = await container();
    await api().localStore.setQuota({ account: ctx.localAccount.id, container: c, maxBytes: 40960 });
    // 20 bytes against 40 KB looks like nothing, but the store counts 20 blocks of 4 KiB against room for 10.
    const tiny = files(20, 1);
    expect((await plan(c, tiny)).quota).toEqual({ scope: 'container', limit: 'bytes', used: 0, max: 40960, adding: 20 * 4096, roundedTo: 4096 });

    const fitting = tiny.slice(0, 10);
    expect((await plan(c, fitting)).quota).toBeNull();
    expect((await uploadAll(c, fitting)).map((t) => t.state)).toEqual(Array(10).fill('done'));

    // Now full by the store's count (10 bytes stored): one more byte is announced, and the store refuses it.
    const one = files(1, 1);
    expect((await plan(c, one)).quota).toEqual({ scope: 'container', limit: 'bytes', used: 40960, max: 40960, adding: 4096, roundedTo: 4096 });
    const [refused] = await uploadAll(c, one);
    expect(refused).toMatchObject({ state: 'failed', error: expect.stringMatching(/quota/i) });
  });
});
