// Batched writes (index/write-batch.ts): writes queued together share one commit and one cache of
// counters, yet each still succeeds or fails on its own and leaves exactly its own changes.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { IndexStore } from '../../src-main/engine/index/store.js';
import { WriteBatcher } from '../../src-main/engine/index/write-batch.js';
import { openStore, readAll, type TestStore } from './helpers.js';

const dirs: string[] = [];
const stores: (IndexStore | TestStore)[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function openIndex(dir = mkdtempSync(join(os.tmpdir(), 'coffer-batch-'))): { store: IndexStore; dir: string } {
  if (!dirs.includes(dir)) dirs.push(dir);
  const store = new IndexStore(dir);
  stores.push(store);
  return { store, dir };
}

// Checked by `npm run typecheck`, not at run time: a write function must be synchronous (it runs
// inside the batch's transaction, and may run twice), so an async one does not compile.
// @ts-expect-error an async write function is refused
export const asyncWriteRefused = (store: IndexStore) => store.write(async () => 1);

describe('a batch of writes', () => {
  it('undoes the counters a failing write changed, and only that write', async () => {
    const { store } = openIndex();
    const usage = (objects: number) => ({ objects, bytes: objects, bytesActual: objects });
    // Queued in one turn, so they run in one batch, in this order.
    const first = store.write(() => store.setUsage('c1', usage(1)));
    const failing = store.write(() => {
      store.setUsage('c1', usage(100));
      store.setUsage('c2', usage(100));
      throw new Error('refused');
    });
    const seen = store.write(() => [store.getUsage('c1')?.objects, store.getUsage('c2')]);
    const last = store.write(() => store.setUsage('c1', usage((store.getUsage('c1')?.objects ?? 0) + 1)));
    await expect(failing).rejects.toThrow('refused');
    await Promise.all([first, last]);
    expect(await seen).toEqual([1, undefined]);
    expect(store.usage.get('c1')).toEqual(usage(2));
    expect(store.usage.get('c2')).toBeUndefined();
  });

  it('a failing write leaves none of its own index writes, and the writes around it keep theirs', async () => {
    const { store } = openIndex();
    // One batch: the writes first run together, and run again one by one when this one fails.
    const before = store.write(() => {
      store.meta.putSync('before', store.nextCounter('seq'));
      return 'before';
    });
    const failing = store.write(() => {
      store.meta.putSync('half-done', 1);
      store.nextCounter('seq');
      throw new Error('refused');
    });
    const after = store.write(() => {
      store.meta.putSync('after', store.nextCounter('seq'));
      return 'after';
    });
    await expect(failing).rejects.toThrow('refused');
    expect([await before, await after]).toEqual(['before', 'after']);
    expect(store.meta.get('half-done')).toBeUndefined();
    // The numbers the failed write and the first attempt took are not lost to gaps.
    expect([store.meta.get('before'), store.meta.get('after'), store.meta.get('seq')]).toEqual([1, 2, 2]);
  });

  it('hands out increasing sequence numbers across and within batches, and keeps them over a reopen', async () => {
    const { store, dir } = openIndex();
    const seqs = await Promise.all(Array.from({ length: 20 }, () => store.write(() => store.nextCounter('seq'))));
    seqs.push(await store.write(() => store.nextCounter('seq')));
    expect(seqs).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    const pending = store.write(() => store.nextCounter('seq'));
    await store.close();
    expect(await pending).toBe(22);
    const { store: reopened } = openIndex(dir);
    expect(reopened.meta.get('seq')).toBe(22);
  });

  it('acknowledges a batch once it is synced, without waiting for a transaction begun after it', async () => {
    const { store } = openIndex();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let later: Promise<unknown> | undefined;
    const first = store.write(() => {
      const txn = store.root.getWriteTxnId();
      // Begun once this batch's transaction has committed (lmdb-js adds writes queued before that
      // to the same transaction), and held open here.
      const beginLater = () => {
        if ((store.root.getStats() as { lastTxnId: number }).lastTxnId < txn) return void setImmediate(beginLater);
        later = store.root.transaction(async () => {
          await gate;
          store.meta.putSync('later', 1);
        });
      };
      setImmediate(beginLater);
      store.meta.putSync('first', 1);
      return 'acknowledged';
    });
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([first, new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting'), 5000)))]);
    clearTimeout(timer);
    // The later transaction begins once the batch's has committed, which a loaded machine may see
    // only after the acknowledgement: wait for it to exist before letting it finish.
    for (const until = Date.now() + 5000; !later && Date.now() < until; ) await new Promise((r) => setImmediate(r));
    release();
    await later;
    expect(outcome).toBe('acknowledged');
    expect([store.meta.get('first'), store.meta.get('later')]).toEqual([1, 1]);
  });

  it('removing a usage record in a batch wins over the cached value', async () => {
    const { store } = openIndex();
    await store.write(() => store.setUsage('c9', { objects: 3, bytes: 3, bytesActual: 3 }));
    await Promise.all([store.write(() => store.getUsage('c9')), store.write(() => store.setUsage('c9', undefined))]);
    expect(store.usage.get('c9')).toBeUndefined();
  });
});

describe('a large batch', () => {
  /** Queues writes together; each reports whether the event loop has turned since the first one ran. */
  function queueTogether(store: IndexStore, count: number): Promise<boolean[]> {
    let turned = false;
    return Promise.all(
      Array.from({ length: count }, (_, i) =>
        store.write(() => {
          if (i === 0) setImmediate(() => (turned = true));
          store.meta.putSync(`k${i}`, i);
          return turned;
        }),
      ),
    );
  }

  it('with no other batch in flight, runs its first half, then the rest after the event loop turns', async () => {
    const { store } = openIndex();
    const turned = await queueTogether(store, 20);
    expect(turned).toEqual([...Array(10).fill(false), ...Array(10).fill(true)]);
    expect(Array.from({ length: 20 }, (_, i) => store.meta.get(`k${i}`))).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('a batch of 8 or fewer runs whole', async () => {
    const { store } = openIndex();
    expect(await queueTogether(store, 8)).toEqual(Array(8).fill(false));
  });

  it('drain waits for the second half as well', async () => {
    const { store } = openIndex();
    const batcher = new WriteBatcher(store.root);
    const settled: number[] = [];
    const writes = Array.from({ length: 20 }, (_, i) => batcher.write(() => i).then((n) => settled.push(n)));
    await batcher.drain();
    expect(settled).toHaveLength(20);
    await Promise.all(writes);
  });

  it('closing the store right after queueing keeps every write', async () => {
    const { store, dir } = openIndex();
    const acknowledged = queueTogether(store, 30);
    await store.close();
    await acknowledged;
    const reopened = openIndex(dir).store;
    expect(Array.from({ length: 30 }, (_, i) => reopened.meta.get(`k${i}`))).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});

describe('small objects written together', () => {
  it('each keeps its own bytes, and the counters add up', async () => {
    const s = await openStore();
    stores.push(s);
    await s.engine.createContainer(s.account, 'many');
    const ref = Engine.ref(s.account, 'many');
    const body = (i: number) => Buffer.alloc(100 + i * 37, String.fromCharCode(97 + (i % 26)));
    await Promise.all(Array.from({ length: 40 }, (_, i) => s.engine.putObject(ref, `o${i}`, body(i))));
    for (let i = 0; i < 40; i++) expect((await readAll((await s.engine.getObject(ref, `o${i}`)).body)).equals(body(i))).toBe(true);
    const bytes = Array.from({ length: 40 }, (_, i) => body(i).length).reduce((a, b) => a + b, 0);
    expect(s.engine.getContainer(ref).usage).toMatchObject({ objects: 40, bytes });
    expect(s.engine.getAccount(s.account).usage).toMatchObject({ objects: 40, bytes });
  });
});
