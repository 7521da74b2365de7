import type { TransferItem } from '../../../src-shared/contract/transfers.js';
import type { ObjectBackend } from '../../backends/object-backend.js';
import { bodyInFlight } from '../../engine/index.js';
import { afterFailure, attemptContext, backoffMs } from './attempt.js';
import { laneOf, SMALL_LANE_FACTOR } from './lanes.js';
import type { JobSpec, SavedJob } from './persisted.js';
import { copyItem, newJob, queuedItem, type Job, type Runner } from './job.js';
import { FINAL, JobIndex } from './job-index.js';
import { PendingFiles, type PendingBatch, type PendingFile, type SavedPending } from './pending.js';

export interface QueueHooks {
  backend(account: string): ObjectBackend;
  run: Runner;
  /** After every state change (and progress, throttled): persistence and events. A pending file's item comes alone. */
  changed(job: Pick<Job, 'item'>, persist: boolean): void;
  /** A cancelled or cleared job's leftovers (resumable parts, partial files). */
  discard(job: Job): Promise<void>;
}

/**
 * The scheduling half of the transfer service: bounded concurrency, pause/resume, cancel, retries
 * with backoff, speed, throttled progress. What a job does is the runner's business.
 */
export class JobQueue {
  private readonly index = new JobIndex();
  /** Folder transfers' files not made into jobs yet, by id prefix, oldest first (pending.ts). */
  private readonly pending = new Map<string, PendingFiles>();
  private running = 0;
  /** Attempts under way, so stopping can wait until each has recorded where it stopped. */
  private readonly attempts = new Set<Promise<void>>();
  private stopped = false;

  /** Every job by id (what the list shows first; finished ones beyond KEEP_FINISHED are dropped). */
  get jobs(): ReadonlyMap<string, Job> {
    return this.index.all;
  }

  constructor(
    private readonly hooks: QueueHooks,
    public concurrency = 3,
  ) {}

  add(spec: JobSpec, item: Omit<TransferItem, 'id' | 'transferred' | 'state' | 'error' | 'attempts' | 'verified' | 'bytesPerSecond'>): Job {
    const job = newJob(queuedItem(item), spec, null);
    this.index.add(job);
    this.hooks.changed(job, true);
    return job;
  }

  /** A folder's files, queued without a job each (pending.ts), and announced as queued items. */
  addPending(batch: PendingBatch, files: readonly PendingFile[]): PendingFiles {
    const p = new PendingFiles(batch, files, laneOf);
    if (p.empty) return p;
    this.pending.set(p.idPrefix, p);
    for (const item of p.items()) this.hooks.changed({ item }, true);
    return p;
  }

  /** A job by its id: one of the queue's, or a pending file's, made into its job now. */
  find(id: string): Job | undefined {
    const job = this.jobs.get(id);
    if (job) return job;
    const p = this.pending.get(id.slice(0, id.lastIndexOf('-') + 1));
    const i = p ? p.indexOf(id) : -1;
    return i < 0 ? undefined : this.adopt(p!, i);
  }

  /** Pending file `i` made into its job, in the state it had (queued, paused or cancelled). */
  private adopt(p: PendingFiles, i: number): Job {
    const job = newJob(p.item(i), p.spec(i), null);
    p.take(i);
    if (p.empty) this.pending.delete(p.idPrefix);
    this.index.add(job);
    return job;
  }

  /** Every item, jobs' first, then pending files' (made now): what the list shows. */
  *items(): Generator<TransferItem> {
    for (const job of this.jobs.values()) yield job.item;
    for (const p of this.pending.values()) yield* p.items();
  }

  /** The jobs as kept on disk; pending files are kept by batch (savedPending). */
  *savedJobs(): Generator<SavedJob> {
    for (const job of this.jobs.values()) yield { item: job.item, spec: job.spec, resumeToken: job.resumeToken };
  }

  *savedPending(): Generator<SavedPending> {
    for (const p of this.pending.values()) yield p.toSaved();
  }

  /** A folder's pending files from the last run, paused as every unfinished item comes back. */
  restorePending(saved: SavedPending): void {
    const p = new PendingFiles(saved.batch, saved, laneOf);
    if (!p.empty) this.pending.set(p.idPrefix, p);
  }

  restore(saved: SavedJob): Job {
    const job = newJob(copyItem(saved.item), saved.spec, saved.resumeToken);
    this.index.add(job);
    return job;
  }

  /**
   * Starts queued jobs while slots are free; a browser upload waits for its bytes. Large files
   * take the `concurrency` slots first; small ones fill the lane up to SMALL_LANE_FACTOR times it.
   */
  pump(): void {
    if (this.stopped) return;
    for (const lane of ['large', 'small'] as const) {
      const limit = lane === 'large' ? this.concurrency : this.concurrency * SMALL_LANE_FACTOR;
      for (const job of this.index.queued[lane]) {
        if (this.running >= limit) break;
        if (job.retryTimer || (job.spec.kind === 'stream' && !job.stream)) continue;
        this.launch(job);
      }
      // Then folders' files with no job yet, oldest batch first.
      for (const p of this.pending.values()) {
        for (let i = 0; this.running < limit && (i = p.next(lane)) >= 0; ) this.launch(this.adopt(p, i));
        if (this.running >= limit) break;
      }
    }
  }

  private launch(job: Job): void {
    this.index.unqueue(job);
    const attempt: Promise<void> = this.start(job).finally(() => this.attempts.delete(attempt));
    this.attempts.add(attempt);
  }

  private async start(job: Job): Promise<void> {
    this.running++;
    // A file of unknown size counts as bulk.
    const bodyEnded = bodyInFlight(job.item.size);
    const item = job.item;
    Object.assign(item, { state: 'running', error: null, attempts: item.attempts + 1 });
    let controller: AbortController | undefined;
    try {
      // Inside the try: a connection removed, or whose saved settings cannot be read, fails its jobs.
      const attempt = attemptContext(job, this.hooks.backend(item.account), (persist) => this.hooks.changed(job, persist));
      controller = job.controller = attempt.controller;
      // Not a reason to write the queue down: a restart finds a running item paused, as a queued one.
      this.hooks.changed(job, false);
      const { verified } = await this.hooks.run(job, attempt.ctx);
      Object.assign(item, { state: 'done', verified, transferred: item.size ?? item.transferred });
      job.resumeToken = null;
    } catch (err) {
      this.failed(job, err, controller?.signal.reason as string | undefined);
    } finally {
      bodyEnded();
      this.running--;
      job.controller = undefined;
      job.stream = undefined;
      item.bytesPerSecond = null;
      this.index.file(job);
      this.hooks.changed(job, true);
      // A browser upload's request waits on its item: it ends when the item does, or when a pause
      // leaves its bytes unread (the page sends them again on resume).
      if (FINAL.has(item.state) || job.spec.kind === 'stream') this.wake(job);
      this.pump();
    }
  }

  private failed(job: Job, err: unknown, abortReason: string | undefined): void {
    const next = afterFailure(job, err, abortReason);
    if (next === 'cancelled') this.discard(job);
    if (next !== 'retry') return void (job.item.state = next);
    job.item.state = 'queued';
    job.retryTimer = setTimeout(() => {
      job.retryTimer = undefined;
      this.pump();
    }, backoffMs(job.item.attempts)).unref();
  }

  /** Resolves when the job ends done, failed or cancelled (a browser upload's also when paused). */
  settled(job: Job): Promise<TransferItem> {
    return new Promise((resolve) => (job.waiters ??= []).push(resolve));
  }

  /** A browser upload (not resumable) pauses too: its request ends, and the page sends the file again on resume. */
  pause(job: Job): void {
    if (!job.item.resumable && job.spec.kind !== 'stream') return;
    if (job.item.state === 'running') job.controller?.abort('pause');
    else if (job.item.state === 'queued') this.setState(job, 'paused');
  }

  resume(job: Job): void {
    if (job.item.state === 'paused') this.setState(job, 'queued');
  }

  cancel(job: Job): void {
    if (job.item.state === 'running') return job.controller?.abort('cancel');
    if (job.item.state === 'queued' || job.item.state === 'paused') {
      this.setState(job, 'cancelled');
      this.discard(job);
      this.wake(job);
    }
  }

  /**
   * Best effort: leftovers out of reach (a connection since removed, a partial file that cannot
   * be deleted) stay, as a server's incomplete multipart uploads stay until its own expiry; the
   * job is cancelled all the same.
   */
  private discard(job: Job): void {
    this.hooks.discard(job).catch(() => undefined);
  }

  private wake(job: Job): void {
    const waiters = job.waiters;
    job.waiters = undefined;
    for (const w of waiters ?? []) w(copyItem(job.item));
  }

  retry(job: Job): void {
    if (job.item.state !== 'failed' && job.item.state !== 'cancelled') return;
    // A browser upload goes back to waiting for its bytes: the page that holds the file sends them again.
    job.item.attempts = 0;
    job.item.transferred = 0;
    this.setState(job, 'queued');
  }

  clearFinished(): void {
    this.index.clearFinished();
    this.movePending('cancelled', null);
  }

  /** Pause, resume, cancel or retry of the whole queue: every job, and every pending file without making its job. */
  pauseAll(): void {
    for (const job of [...this.jobs.values()]) this.pause(job);
    this.movePending('queued', 'paused');
  }

  resumeAll(): void {
    for (const job of [...this.jobs.values()]) this.resume(job);
    this.movePending('paused', 'queued');
    this.pump();
  }

  cancelAll(): void {
    for (const job of [...this.jobs.values()]) this.cancel(job);
    this.movePending('queued', 'cancelled');
    this.movePending('paused', 'cancelled');
  }

  retryAll(): void {
    for (const job of [...this.jobs.values()]) this.retry(job);
    this.movePending('cancelled', 'queued');
    this.pump();
  }

  private movePending(from: 'queued' | 'paused' | 'cancelled', to: 'queued' | 'paused' | 'cancelled' | null): void {
    for (const p of [...this.pending.values()]) {
      p.moveAll(from, to, (item) => this.hooks.changed({ item }, true));
      if (p.empty) this.pending.delete(p.idPrefix);
    }
  }

  private setState(job: Job, state: TransferItem['state']): void {
    if (job.retryTimer) clearTimeout(job.retryTimer);
    job.retryTimer = undefined;
    job.item.state = state;
    this.index.file(job);
    this.hooks.changed(job, true);
    this.pump();
  }

  /**
   * Stops everything running without marking it (the next start finds it paused) and starts
   * nothing more; resolves when every stopped attempt has settled and saved its resume token.
   */
  async stopAll(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) {
      if (job.retryTimer) clearTimeout(job.retryTimer);
      if (job.item.state === 'running') job.controller?.abort('pause');
    }
    await Promise.allSettled(this.attempts);
  }
}
