// The queue's scheduling on its own, with runners scripted by the test (what a job does is
// covered against real servers in transfers.test.ts): the concurrency bound, retries of
// transient failures with backoff, no automatic retry of permanent ones, a retry asked for (the job
// runs again from the start), pause and resume of a running job, stopping everything at shutdown,
// the wider lane of small files, and the bounded history of finished ones.
import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { CofferError } from '../../src-shared/errors.js';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import { KEEP_FINISHED } from '../../src-main/services/transfers/job-index.js';
import { SMALL_LANE_FACTOR } from '../../src-main/services/transfers/lanes.js';
import { scriptedQueue as queue, until } from './scripted-queue.js';

describe('the transfer queue', () => {
  it('never runs more jobs at once than its concurrency', async () => {
    let running = 0;
    let most = 0;
    const { q, add } = queue(async () => {
      most = Math.max(most, ++running);
      await sleep(20);
      running--;
      return { verified: true };
    }, 3);
    const jobs = Array.from({ length: 10 }, (_, i) => add(`f${i}`));
    q.pump();
    await until(() => jobs.every((j) => j.item.state === 'done'));
    expect(most).toBe(3);
    expect(jobs.every((j) => j.item.verified && j.item.attempts === 1)).toBe(true);
  });

  it('runs small uploads in a lane SMALL_LANE_FACTOR times wider, and a large file in one of the concurrency slots', async () => {
    let running = 0;
    let most = 0;
    let bigStartedWith = -1;
    const { q, add } = queue(async (job) => {
      if (job.spec.name === 'big') bigStartedWith = running;
      most = Math.max(most, ++running);
      await sleep(20);
      running--;
      return { verified: true };
    }, 3);
    const jobs = Array.from({ length: 4 * 3 * SMALL_LANE_FACTOR }, (_, i) => add(`f${i}`, 4096));
    jobs.splice(5, 0, add('big'));
    q.pump();
    await until(() => jobs.every((j) => j.item.state === 'done'));
    expect(most).toBe(3 * SMALL_LANE_FACTOR);
    // Queued behind five small ones, it went first: a slot was free.
    expect(bigStartedWith).toBeLessThan(3);
  });

  it(`keeps the newest ${KEEP_FINISHED} finished jobs, and every unfinished one`, async () => {
    const { q, add } = queue(async (job) => {
      if (job.spec.name === 'stuck') await new Promise(() => undefined);
      return { verified: true };
    }, 4);
    const stuck = add('stuck');
    const jobs = Array.from({ length: KEEP_FINISHED + 50 }, (_, i) => add(`f${i}`, 10));
    q.pump();
    await until(() => jobs.every((j) => j.item.state === 'done'));
    expect(q.jobs.size).toBe(KEEP_FINISHED + 1);
    expect(q.jobs.has(stuck.item.id)).toBe(true);
    expect(q.jobs.has(jobs[49]!.item.id)).toBe(false);
    expect(q.jobs.has(jobs[50]!.item.id)).toBe(true);
  });

  it('retries a transient failure with backoff, and fails a permanent one at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let calls = 0;
      const { q, add } = queue(async (job) => {
        calls++;
        if (job.spec.name === 'denied') throw new CofferError('AccessDenied', 'Access Denied');
        if (calls < 3) throw new CofferError('Unreachable', 'connection refused');
        return { verified: true };
      });
      const flaky = add('flaky');
      q.pump();
      await vi.waitFor(() => expect(flaky.item).toMatchObject({ state: 'queued', attempts: 1, error: 'connection refused' }));
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(flaky.item.attempts).toBe(2));
      // The second backoff is four times the first: not yet after one more second.
      await vi.advanceTimersByTimeAsync(1000);
      expect(flaky.item.attempts).toBe(2);
      await vi.advanceTimersByTimeAsync(3000);
      await vi.waitFor(() => expect(flaky.item).toMatchObject({ state: 'done', attempts: 3, error: null }));

      const denied = add('denied');
      q.pump();
      await vi.waitFor(() => expect(denied.item).toMatchObject({ state: 'failed', attempts: 1, error: 'Access Denied' }));
      // No automatic retry of a permanent failure, however long it waits.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(denied.item).toMatchObject({ state: 'failed', attempts: 1 });
      expect(calls).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails a job whose connection is gone (removed, or its saved settings unreadable) and goes on with the rest', async () => {
    const backend = (account: string) => {
      if (account === 'gone') throw new CofferError('NoSuchAccount', 'No connection gone');
      return {} as ObjectBackend;
    };
    const { q, add } = queue(async () => ({ verified: true }), 1, { backend });
    const lost = add('lost', undefined, 'gone');
    const others = [add('a'), add('b')];
    q.pump();
    await until(() => others.every((j) => j.item.state === 'done'));
    expect(lost.item).toMatchObject({ state: 'failed', attempts: 1, error: 'No connection gone' });
  });

  it('cancels a job whose leftovers cannot be removed (the connection gone, a file locked): cancelled, and the queue goes on', async () => {
    const discarded: string[] = [];
    const discard = async (job: { spec: { name: string } }) => {
      discarded.push(job.spec.name);
      throw new CofferError('NoSuchAccount', 'No connection gone');
    };
    const { q, add } = queue(async (_job, ctx) => {
      await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new CofferError('Aborted', 'stopped'))));
      return { verified: true };
    }, 1, { discard });
    const running = add('running');
    const waiting = add('waiting');
    q.pump();
    await until(() => running.item.state === 'running');
    q.cancel(waiting);
    q.cancel(running);
    await until(() => running.item.state === 'cancelled' && waiting.item.state === 'cancelled');
    await until(() => discarded.length === 2);
    // An unhandled rejection fails the run: the discards' errors went nowhere.
    await sleep(10);
  });

  it('runs a failed job again when asked, from the start, and it can end done', async () => {
    // Refused at first (as a bucket the user could not write to), allowed once the user fixed it.
    let allowed = false;
    const runs: { transferred: number; attempts: number; error: string | null }[] = [];
    const { q, add } = queue(async (job, ctx) => {
      runs.push({ transferred: job.item.transferred, attempts: job.item.attempts, error: job.item.error });
      ctx.progress(4);
      if (!allowed) throw new CofferError('AccessDenied', 'Access Denied');
      ctx.progress(10);
      return { verified: true };
    });
    const job = add('report.pdf', 10);
    q.pump();
    await until(() => job.item.state === 'failed');
    expect(job.item).toMatchObject({ attempts: 1, error: 'Access Denied', transferred: 4 });

    allowed = true;
    q.retry(job);
    await until(() => job.item.state === 'done');
    // The runner ran a second time, its attempt counted from zero, with no progress nor error left over.
    expect(runs).toEqual([
      { transferred: 0, attempts: 1, error: null },
      { transferred: 0, attempts: 1, error: null },
    ]);
    expect(job.item).toMatchObject({ state: 'done', attempts: 1, error: null, verified: true, transferred: 10 });
  });

  it('a retried job gets its automatic retries back; a job not failed or cancelled is not run again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let calls = 0;
      const { q, add } = queue(async (job) => {
        calls++;
        if (job.spec.name === 'fine') return { verified: true };
        throw new CofferError('Unreachable', 'connection refused');
      });
      const job = add('offline');
      q.pump();
      // Three attempts (backoffs of 1 s and 4 s between them), then failed.
      await vi.advanceTimersByTimeAsync(10_000);
      await vi.waitFor(() => expect(job.item).toMatchObject({ state: 'failed', attempts: 3 }));
      expect(calls).toBe(3);

      q.retry(job);
      // It runs at once, and its transient failure is retried by itself again after the first backoff.
      await vi.waitFor(() => expect(calls).toBe(4));
      await vi.waitFor(() => expect(job.item).toMatchObject({ state: 'queued', attempts: 1, error: 'connection refused' }));
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(calls).toBe(5));
      await vi.advanceTimersByTimeAsync(10_000);
      await vi.waitFor(() => expect(job.item).toMatchObject({ state: 'failed', attempts: 3 }));
      expect(calls).toBe(6);

      const fine = add('fine');
      q.pump();
      await vi.waitFor(() => expect(fine.item.state).toBe('done'));
      q.retry(fine);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(fine.item).toMatchObject({ state: 'done', attempts: 1 });
      expect(calls).toBe(7);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a cancelled job again when asked', async () => {
    let calls = 0;
    const { q, add } = queue(async (_job, ctx) => {
      calls++;
      if (calls === 1) {
        await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new CofferError('Aborted', 'cancelled'))));
      }
      return { verified: true };
    });
    const job = add('big');
    q.pump();
    await until(() => job.item.state === 'running');
    q.cancel(job);
    await until(() => job.item.state === 'cancelled');
    q.retry(job);
    await until(() => job.item.state === 'done');
    expect(calls).toBe(2);
    expect(job.item).toMatchObject({ attempts: 1, error: null });
  });

  it('pauses a running job by aborting its attempt, and resumes it with the saved token', async () => {
    const tokens: (string | null)[] = [];
    const { q, add } = queue(async (_job, ctx) => {
      tokens.push(ctx.resumeToken);
      ctx.saveResumeToken('upload-1');
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, tokens.length === 1 ? 10_000 : 10);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new CofferError('Aborted', 'cancelled'));
        });
      });
      return { verified: true };
    });
    const job = add('big');
    q.pump();
    await until(() => job.item.state === 'running');
    q.pause(job);
    await until(() => job.item.state === 'paused');
    q.resume(job);
    await until(() => job.item.state === 'done');
    expect(tokens).toEqual([null, 'upload-1']);
    expect(job.resumeToken).toBeNull();
  });

  it('stops at shutdown once every running attempt has saved where it got to, and starts nothing more', async () => {
    const started: string[] = [];
    const { q, add } = queue(async (job, ctx) => {
      started.push(job.spec.name);
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      // Like a multipart upload recording its finished parts on the way out: not at once.
      await sleep(100);
      ctx.saveResumeToken(`${job.spec.name}-parts`);
      throw new CofferError('Aborted', 'stopped');
    }, 1);
    const first = add('first');
    const second = add('second');
    q.pump();
    await until(() => first.item.state === 'running');
    await q.stopAll();
    expect(first.resumeToken).toBe('first-parts');
    expect(first.item.state).toBe('paused');
    expect(second.item.state).toBe('queued');
    expect(started).toEqual(['first']);
  });

  it('pauses a browser upload too: its waiting request ends with the item paused, and it waits for its bytes again', async () => {
    const { q } = queue(
      (_job, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new CofferError('Aborted', 'stopped')));
        }),
    );
    const job = q.add({ kind: 'stream', name: 'page.bin' }, { batchId: 'b', direction: 'upload', account: 'local', container: 'c', name: 'page.bin', path: null, size: 10, resumable: false });
    job.stream = Readable.from([Buffer.from('x')]);
    const settled = q.settled(job);
    q.pump();
    await until(() => job.item.state === 'running');
    q.pause(job);
    expect(await settled).toMatchObject({ state: 'paused' });
    q.resume(job);
    expect(job.item.state).toBe('queued');
    // No bytes yet: it does not start until the page sends the file again.
    q.pump();
    expect(job.item.state).toBe('queued');
  });
});
