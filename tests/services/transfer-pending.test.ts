// A folder's files waiting in the queue without a job each (pending.ts), with runners scripted by
// the test: each is announced as a queued item at once, runs in its lane when its turn comes, is
// listed while it waits and saved with its batch as one record (back paused, under the same ids,
// after a restart), and the whole queue's pause, resume, cancel, retry and clear reach it; asked
// for by its id, it becomes a job like any other.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import type { TransferItem } from '../../src-shared/contract/transfers.js';
import type { Job } from '../../src-main/services/transfers/job.js';
import type { SavedPending } from '../../src-main/services/transfers/pending.js';
import { SMALL_FILE_BYTES, SMALL_LANE_FACTOR } from '../../src-main/services/transfers/lanes.js';
import { JobQueue } from '../../src-main/services/transfers/queue.js';

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
  const stateOf = (id: string) => [...q.items()].find((item) => item.id === id)?.state;
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
    // Listed while they wait, and saved as one record a batch (no job each).
    expect([...q.items()].map((item) => item.id)).toEqual(ids);
    expect([...q.savedJobs()]).toHaveLength(0);
    const [record] = q.savedPending();
    expect(record).toMatchObject({ batch, idPrefix: small.idPrefix, states: Array(40).fill(0) });
    expect([record!.names[0], record!.paths[0], record!.sizes[0]]).toEqual(['dir/f0', '/tmp/out/f0', 4096]);

    q.pump();
    await until(() => ids.every((id) => stateOf(id) === 'done'));
    expect(ran).toHaveLength(43);
    expect(most()).toBe(2 * SMALL_LANE_FACTOR);
    // A large file took one of the two slots while small ones filled the wider lane.
    expect(ran.indexOf('dir/f100')).toBeLessThan(2 * SMALL_LANE_FACTOR);
  });

  it('of an upload and of a download run in lanes of the same width', async () => {
    const down = setup();
    down.q.addPending(batch, down.files(100));
    down.q.pump();
    await until(() => down.ran.length === 100);
    const up = setup();
    up.q.addPending({ ...batch, kind: 'path' }, up.files(100));
    up.q.pump();
    await until(() => up.ran.length === 100);
    expect([down.most(), up.most()]).toEqual([2 * SMALL_LANE_FACTOR, 2 * SMALL_LANE_FACTOR]);
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
    expect([...q.items()].some((item) => item.id.startsWith(second.idPrefix))).toBe(false);
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
    expect([...q.items()].filter((item) => item.id === p.idOf(1))).toHaveLength(1);
  });

  it("of an upload carry 'the plan found no object under this name' to their jobs, and forget it after a restart", async () => {
    const specs: Job['spec'][] = [];
    const upload = { ...batch, kind: 'path' as const };
    const first = setup(async (job) => void specs.push(job.spec));
    const files = first.files(4).map((f, i) => ({ ...f, absent: i % 2 === 0 }));
    const p = first.q.addPending(upload, files);
    first.q.pump();
    await until(() => specs.length === 4);
    expect(specs.map((spec) => (spec.kind === 'path' ? spec.absent : 'not an upload'))).toEqual([true, undefined, true, undefined]);

    // Saved before any ran: after the restart, every name is looked at again (time has passed).
    const paused = setup();
    paused.q.addPending(upload, files);
    const [record] = JSON.parse(JSON.stringify([...paused.q.savedPending()])) as SavedPending[];
    const second = setup(async (job) => void specs.push(job.spec));
    second.q.restorePending(record!);
    specs.length = 0;
    second.q.resumeAll();
    await until(() => specs.length === 4);
    expect(specs.every((spec) => spec.kind === 'path' && spec.absent === undefined)).toBe(true);
    expect(p.count).toBe(4);
  });

  it('come back from their record after a restart: queued ones paused, under the same ids, the ones made into jobs left out', async () => {
    // Large files, two slots: the first two start (and hang), as jobs of their own.
    const first = setup(() => new Promise(() => undefined));
    const p = first.q.addPending(batch, first.files(6, SMALL_FILE_BYTES + 1));
    first.q.pump();
    first.q.cancel(first.q.find(p.idOf(5))!);
    // As it goes through transfers.json.
    const [record] = JSON.parse(JSON.stringify([...first.q.savedPending()])) as SavedPending[];
    expect(record!.states).toEqual([3, 3, 0, 0, 0, 3]);

    const second = setup();
    second.q.restorePending(record!);
    expect([...second.q.items()].map((item) => [item.id, item.state])).toEqual([2, 3, 4].map((i) => [p.idOf(i), 'paused']));
    expect(second.q.find(p.idOf(0))).toBeUndefined();
    second.q.resumeAll();
    await until(() => [2, 3, 4].every((i) => second.stateOf(p.idOf(i)) === 'done'));
    expect(second.ran.sort()).toEqual(['dir/f2', 'dir/f3', 'dir/f4']);
  });
});
