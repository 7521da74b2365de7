// The transfer queue lifts the bound on the heap's growth (engine/heap-growth.ts) while a large
// file runs, and not for small ones; a job's end, failed as well as done, ends its part. A file of
// its own: the bound is the process's, and jobs other tests leave waiting would hold it.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import { BULK_BODY_BYTES, heapGrowthBounded } from '../../src-main/engine/index.js';
import type { Job, RunContext } from '../../src-main/services/transfers/job.js';
import { JobQueue } from '../../src-main/services/transfers/queue.js';
import { CofferError } from '../../src-shared/errors.js';

function queue(run: (job: Job, ctx: RunContext) => Promise<{ verified: boolean }>) {
  const q = new JobQueue({ backend: () => ({}) as ObjectBackend, run, changed: () => undefined, discard: async () => undefined }, 2);
  const add = (name: string, size: number) =>
    q.add({ kind: 'path', path: `/tmp/${name}`, name }, { batchId: 'b', direction: 'upload', account: 'local', container: 'c', name, path: `/tmp/${name}`, size, resumable: true });
  return { q, add };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await sleep(10);
  expect(check()).toBe(true);
};

describe('the transfer queue and the heap growth bound', () => {
  it('lifts the bound on the heap growth while a large file runs, not for small ones, and it is back once they end', async () => {
    const seen: Record<string, boolean> = {};
    let release: (() => void) | undefined;
    const { q, add } = queue(async (job) => {
      seen[job.spec.name] = heapGrowthBounded();
      if (job.spec.name === 'big') await new Promise<void>((r) => (release = r));
      if (job.spec.name === 'bad') throw new CofferError('AccessDenied', 'no');
      return { verified: true };
    });
    await until(heapGrowthBounded);
    const small = add('small', 4096);
    q.pump();
    await until(() => small.item.state === 'done');
    expect(seen.small).toBe(true);
    const big = add('big', BULK_BODY_BYTES);
    q.pump();
    await until(() => big.item.state === 'running');
    expect(heapGrowthBounded()).toBe(false);
    release!();
    await until(() => big.item.state === 'done');
    await until(heapGrowthBounded);
    // One that fails ends its part too.
    const bad = add('bad', BULK_BODY_BYTES * 4);
    q.pump();
    await until(() => bad.item.state === 'failed');
    expect(seen.bad).toBe(false);
    await until(heapGrowthBounded);
  });
});
