// A transfer queue whose jobs do what the test scripts (no backend, no files), and a wait for a
// condition: the queue's own tests and the heap bound's.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import type { Job, RunContext } from '../../src-main/services/transfers/job.js';
import { SMALL_FILE_BYTES } from '../../src-main/services/transfers/lanes.js';
import { JobQueue } from '../../src-main/services/transfers/queue.js';

export function scriptedQueue(
  run: (job: Job, ctx: RunContext) => Promise<{ verified: boolean }>,
  concurrency = 2,
  hooks: { backend?: (account: string) => ObjectBackend; discard?: (job: Job) => Promise<void> } = {},
) {
  const { backend = () => ({}) as ObjectBackend, discard = async () => undefined } = hooks;
  const q = new JobQueue({ backend, run, changed: () => undefined, discard }, concurrency);
  // Files above the small-file lane by default: each takes one of `concurrency` slots.
  const add = (name: string, size = SMALL_FILE_BYTES + 1, account = 'local') =>
    q.add({ kind: 'path', path: `/tmp/${name}`, name }, { batchId: 'b', direction: 'upload', account, container: 'c', name, path: `/tmp/${name}`, size, resumable: true });
  return { q, add };
}

/** Waits up to 4 s for `check`, then asserts it. */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await sleep(10);
  expect(check()).toBe(true);
}
