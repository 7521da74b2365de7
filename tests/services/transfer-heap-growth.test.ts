// The transfer queue lifts the bound on the heap's growth (engine/heap-growth.ts) while a large
// file runs, and not for small ones; a job's end, failed as well as done, ends its part. A file of
// its own: the bound is the process's, and jobs other tests leave waiting would hold it.
import { describe, expect, it } from 'vitest';
import { BULK_BODY_BYTES, heapGrowthBounded } from '../../src-main/engine/index.js';
import { CofferError } from '../../src-shared/errors.js';
import { scriptedQueue, until } from './scripted-queue.js';

describe('the transfer queue and the heap growth bound', () => {
  it('lifts the bound on the heap growth while a large file runs, not for small ones, and it is back once they end', async () => {
    const seen: Record<string, boolean> = {};
    let release: (() => void) | undefined;
    const { q, add } = scriptedQueue(async (job) => {
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
