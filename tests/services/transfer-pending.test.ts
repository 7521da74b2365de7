// A folder's files waiting in the queue without a job each (pending.ts), with runners scripted by
// the test: each is announced as a queued item at once, runs in its lane when its turn comes, is
// listed and saved while it waits, and the whole queue's pause, resume, cancel, retry and clear
// reach it; asked for by its id, it becomes a job like any other.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import type { TransferItem } from '../../src-shared/contract/transfers.js';
import type { Job } from '../../src-main/services/transfers/job.js';
import { JobQueue, SMALL_FILE_BYTES, SMALL_LANE_FACTOR } from '../../src-main/services/transfers/queue.js';

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await sleep(5);
  expect(check()).toBe(true);
};

function setup(run: (job: Job) => Promise<void> = () => sleep(5)) {
  const events: TransferItem[] = [];
  const ran: string[] = [];
  let running = 0;
  let most = 0;
  const q = new JobQueue(
    {
      backend: () => ({}) as ObjectBackend,
      run: async (job) => {
        most = Math.max(most, ++running);
        ran.push(job.item.name);
        try {
          await run(job);
        } finally {
          running--;
        }
        return { verified: true };
      },
      changed: ({ item }) => events.push({ ...item }),
      discard: async () => undefined,
    },
    2,
  );
  const files = (n: number, size = 4096, from = 0) => Array.from({ length: n }, (_, i) => ({ name: `dir/f${from + i}`, path: `/tmp/out/f${from + i}`, size }));
  const stateOf = (id: string) => [...q.saved()].find((s) => s.item.id === id)?.item.state;
  return { q, events, ran, files, stateOf, most: () => most };
}

const batch = { batchId: 'b', account: 'a', container: 'c', kind: 'download' as const };

describe('pending files of a folder transfer', () => {
  it('are announced as queued items at once, run in their lanes, and end done like jobs', async () => {
    const { q, events, ran, files, stateOf, most } = setup();
    const small = q.addPending(batch, files(40));
    const large = q.addPending(batch, files(3, SMALL_FILE_BYTES + 1, 100));
    const ids = [...Array(small.count).keys()].map((i) => small.idOf(i)).concat([...Array(large.count).keys()].map((i) => large.idOf(i)));
    expect(new Set(ids).size).toBe(43);
    expect(events.filter((e) => e.state === 'queued').map((e) => e.id)).toEqual(ids);
    expect(events.every((e) => e.direction === 'download' && e.batchId === 'b' && e.resumable)).toBe(true);
    // Listed (and saved) while they wait, each with its spec.
    const waiting = [...q.saved()];
    expect(waiting.map((s) => s.item.id)).toEqual(ids);
    expect(waiting[0]!.spec).toEqual({ kind: 'download', name: 'dir/f0', path: '/tmp/out/f0' });

    q.pump();
    await until(() => ids.every((id) => stateOf(id) === 'done'));
    expect(ran).toHaveLength(43);
    expect(most()).toBe(2 * SMALL_LANE_FACTOR);
    // A large file took one of the two slots while small ones filled the wider lane.
    expect(ran.indexOf('dir/f100')).toBeLessThan(2 * SMALL_LANE_FACTOR);
  });

  it('are paused, resumed, cancelled, retried and cleared with the whole queue, without a job each', async () => {
    const { q, events, ran, files, stateOf } = setup();
    const p = q.addPending({ ...batch, kind: 'path' }, files(30));
    const id = (i: number) => p.idOf(i);
    q.pauseAll();
    q.pump();
    await sleep(20);
    expect(ran).toHaveLength(0);
    expect(stateOf(id(29))).toBe('paused');
    expect(events.filter((e) => e.state === 'paused')).toHaveLength(30);
    expect(q.jobs.size).toBe(0);

    q.cancelAll();
    expect(stateOf(id(0))).toBe('cancelled');
    q.retryAll();
    await until(() => [...Array(30).keys()].every((i) => stateOf(id(i)) === 'done'));
    expect(ran).toHaveLength(30);

    const second = q.addPending({ ...batch, kind: 'path' }, files(5, 4096, 50));
    q.cancelAll();
    q.clearFinished();
    expect([...q.saved()].some((s) => s.item.id.startsWith(second.idPrefix))).toBe(false);
  });

  it('become a job when asked for by id, in the state they had, and go on as one', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { q, files, stateOf } = setup(() => gate);
    const p = q.addPending(batch, files(3));
    q.pauseAll();
    const job = q.find(p.idOf(1))!;
    expect(job.item).toMatchObject({ id: p.idOf(1), name: 'dir/f1', state: 'paused', size: 4096 });
    expect(job.spec).toEqual({ kind: 'download', name: 'dir/f1', path: '/tmp/out/f1' });
    expect(q.find(p.idOf(1))).toBe(job);
    // An id that is not one of the batch's files (out of range, or not in base 36 as made) is none.
    expect(q.find(p.idOf(3))).toBeUndefined();
    expect(q.find(`${p.idPrefix}01`)).toBeUndefined();

    q.resume(job);
    await until(() => job.item.state === 'running');
    expect(stateOf(p.idOf(0))).toBe('paused');
    release();
    await until(() => job.item.state === 'done');
    // Listed once, as the job it became.
    expect([...q.saved()].filter((s) => s.item.id === p.idOf(1))).toHaveLength(1);
  });
});
