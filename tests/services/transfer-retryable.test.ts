// Which failures the transfer queue tries again by itself: the codes that can reach it from the
// backends (a remote server's 5xx arrives as RemoteError with its status), typed as the error
// vocabulary's codes so a code that cannot reach it cannot be listed.
import { describe, expect, it, vi } from 'vitest';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import { isTransient } from '../../src-main/services/transfers/job.js';
import { JobQueue } from '../../src-main/services/transfers/queue.js';
import { CofferError } from '../../src-shared/errors.js';

describe('isTransient', () => {
  it('is true for the network, a store shutting down, a cut body, and a remote 5xx/429/408', () => {
    const yes = [
      new CofferError('Unreachable'),
      new CofferError('Closed'),
      new CofferError('IncompleteBody'),
      new CofferError('InternalError'),
      new CofferError('RemoteError', 'ServiceUnavailable', { status: 503 }),
      new CofferError('RemoteError', 'SlowDown', { status: 503 }),
      new CofferError('RemoteError', 'Too Many Requests', { status: 429 }),
      new CofferError('RemoteError', 'Request Timeout', { status: 408 }),
      new CofferError('RemoteError', 'socket hang up'),
    ];
    expect(yes.map(isTransient)).toEqual(yes.map(() => true));
  });

  it('is false for the server\'s own answers and for what is not a CofferError', () => {
    const no = [new CofferError('AccessDenied'), new CofferError('QuotaExceeded'), new CofferError('BadDigest'), new CofferError('RemoteError', 'Bad Request', { status: 400 }), new Error('boom'), 'text'];
    expect(no.map(isTransient)).toEqual(no.map(() => false));
  });
});

it('retries a job whose remote answered 503, and one whose store was closing', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  try {
    const failures = new Map([['remote', new CofferError('RemoteError', 'ServiceUnavailable', { status: 503 })], ['closing', new CofferError('Closed', 'The store is closing')]]);
    const q = new JobQueue({
      backend: () => ({}) as ObjectBackend,
      run: async (job) => {
        const err = failures.get(job.spec.name);
        failures.delete(job.spec.name);
        if (err) throw err;
        return { verified: true };
      },
      changed: () => undefined,
      discard: async () => undefined,
    });
    const jobs = ['remote', 'closing'].map((name) => q.add({ kind: 'path', path: `/tmp/${name}`, name }, { batchId: 'b', direction: 'upload', account: 'local', container: 'c', name, path: `/tmp/${name}`, size: 1, resumable: true }));
    q.pump();
    await vi.waitFor(() => expect(jobs.map((j) => j.item.state)).toEqual(['queued', 'queued']));
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(jobs.map((j) => [j.item.state, j.item.attempts])).toEqual([['done', 2], ['done', 2]]));
  } finally {
    vi.useRealTimers();
  }
});
