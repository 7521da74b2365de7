import type { TransferItem } from '../../../src-shared/contract/transfers.js';
import { isCofferError } from '../../../src-shared/errors.js';
import type { ObjectBackend } from '../../backends/object-backend.js';
import { bodyInFlight } from '../../engine/index.js';
import { SpeedMeter } from './speed.js';
import type { JobSpec, SavedJob } from './persisted.js';
import { copyItem, isTransient, newJob, queuedItem, type Job, type RunContext, type Runner } from './job.js';
import { PendingFiles, type Lane, type PendingBatch, type PendingFile, type SavedPending } from './pending.js';

const PROGRESS_INTERVAL_MS = 250;
const AUTO_RETRIES = 3;
/**
 * Files up to this size run in a wider lane: SMALL_LANE_FACTOR times the concurrency (48 at once
 * by default). A small file's time is its requests' round trips, not bandwidth: three at a time
 * leave the connection and both ends idle between requests (10,000 × 4 KiB to coffer serve: 3 at
 * once 362 files/s), and a server writing many at once commits them together. Uploads: 48 at once
 * 3.46-3.92 s against 24 at once 4.04-4.47 s (interleaved, 4 of 4 pairs faster; 72 and 96 no
 * faster): while some files' requests wait for one of the pool's connections, others are read.
 * Downloads, 2026-11-28, seven interleaved rounds with the disk settled (no mass deletion in the
 * minutes before, README: ext4's recently deleted inodes): 48 at once 5.23-6.52 s against 24 at
 * once 5.16-7.12 s, faster in 6 of 7 rounds (medians of four: 5.47 against 6.15; 36 at once 5.85,
 * 72 at once 5.84).
 */
export const SMALL_FILE_BYTES = 1024 * 1024;
export const SMALL_LANE_FACTOR = 16;
/**
 * Finished items kept in memory (and on disk, persisted.ts): the queue's history, not a log.
 * Beyond it the oldest finished ones are dropped, so a folder of 100,000 files costs the same
 * memory (and the same write of transfers.json) as one of a few thousand.
 */
export const KEEP_FINISHED = 1000;
const laneOf = (size: number): Lane => (size <= SMALL_FILE_BYTES ? 'small' : 'large');
const backoffMs = (attempt: number) => 1000 * 4 ** (attempt - 1);
const FINAL = new Set(['done', 'failed', 'cancelled']);

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
  readonly jobs = new Map<string, Job>();
  /**
   * Jobs in the queued state, in the order they are to start, large and small apart: pump()
   * never walks finished jobs, nor a long line of large files waiting for a slot.
   */
  private readonly queued = { large: new Set<Job>(), small: new Set<Job>() };
  /** Finished jobs, oldest first, bounded by KEEP_FINISHED. */
  private readonly finished = new Set<Job>();
  /** Folder transfers' files not made into jobs yet, by id prefix, oldest first (pending.ts). */
  private readonly pending = new Map<string, PendingFiles>();
  private running = 0;
  /** Attempts under way, so stopping can wait until each has recorded where it stopped. */
  private readonly attempts = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly hooks: QueueHooks,
    public concurrency = 3,
  ) {}

  add(spec: JobSpec, item: Omit<TransferItem, 'id' | 'transferred' | 'state' | 'error' | 'attempts' | 'verified' | 'bytesPerSecond'>): Job {
    const job = newJob(queuedItem(item), spec, null);
    this.jobs.set(job.item.id, job);
    this.track(job);
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
    this.jobs.set(job.item.id, job);
    this.track(job);
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
    this.jobs.set(job.item.id, job);
    this.track(job);
    return job;
  }

  /** Files its lane: the queued set, the finished history (trimmed to KEEP_FINISHED), or neither. */
  private track(job: Job): void {
    const state = job.item.state;
    this.queued.large.delete(job);
    this.queued.small.delete(job);
    if (state === 'queued') this.queued[this.isSmall(job) ? 'small' : 'large'].add(job);
    if (!FINAL.has(state)) return void this.finished.delete(job);
    this.finished.delete(job);
    this.finished.add(job);
    for (const old of this.finished) {
      if (this.finished.size <= KEEP_FINISHED) break;
      this.finished.delete(old);
      this.jobs.delete(old.item.id);
    }
  }

  private isSmall(job: Job): boolean {
    return job.item.size !== null && job.item.size <= SMALL_FILE_BYTES;
  }

  /**
   * Starts queued jobs while slots are free; a browser upload waits for its bytes. Large files
   * take the `concurrency` slots first; small ones fill the lane up to SMALL_LANE_FACTOR times it.
   */
  pump(): void {
    if (this.stopped) return;
    for (const lane of ['large', 'small'] as const) {
      const limit = lane === 'large' ? this.concurrency : this.concurrency * SMALL_LANE_FACTOR;
      for (const job of this.queued[lane]) {
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
    this.queued.large.delete(job);
    this.queued.small.delete(job);
    const attempt: Promise<void> = this.start(job).finally(() => this.attempts.delete(attempt));
    this.attempts.add(attempt);
  }

  private async start(job: Job): Promise<void> {
    this.running++;
    // A file of unknown size counts as bulk.
    const bodyEnded = bodyInFlight(job.item.size);
    const controller = new AbortController();
    job.controller = controller;
    const item = job.item;
    Object.assign(item, { state: 'running', error: null, attempts: item.attempts + 1 });
    // Not a reason to write the queue down: a restart finds a running item paused, as a queued one.
    this.hooks.changed(job, false);
    const speed = new SpeedMeter();
    let lastEvent = 0;
    const ctx: RunContext = {
      backend: this.hooks.backend(item.account),
      signal: controller.signal,
      progress: (n) => {
        item.transferred = n;
        item.bytesPerSecond = speed.sample(n);
        if (Date.now() - lastEvent >= PROGRESS_INTERVAL_MS) {
          lastEvent = Date.now();
          this.hooks.changed(job, false);
        }
      },
      setSize: (n) => (item.size = n),
      resumeToken: job.resumeToken,
      saveResumeToken: (token) => {
        job.resumeToken = token;
        this.hooks.changed(job, true);
      },
    };
    try {
      const { verified } = await this.hooks.run(job, ctx);
      Object.assign(item, { state: 'done', verified, transferred: item.size ?? item.transferred });
      job.resumeToken = null;
    } catch (err) {
      this.failed(job, err, controller.signal.reason as string | undefined);
    } finally {
      bodyEnded();
      this.running--;
      job.controller = undefined;
      job.stream = undefined;
      item.bytesPerSecond = null;
      this.track(job);
      this.hooks.changed(job, true);
      // A browser upload's request waits on its item: it ends when the item does, or when a pause
      // leaves its bytes unread (the page sends them again on resume).
      if (FINAL.has(item.state) || job.spec.kind === 'stream') this.wake(job);
      this.pump();
    }
  }

  private failed(job: Job, err: unknown, abortReason: string | undefined): void {
    const item = job.item;
    if (abortReason === 'pause') {
      item.state = 'paused';
      return;
    }
    if (abortReason === 'cancel') {
      item.state = 'cancelled';
      void this.hooks.discard(job);
      return;
    }
    item.error = (err as Error).message ?? String(err);
    job.errorCode = isCofferError(err) ? err.code : 'InternalError';
    // A browser upload's stream is spent: only the renderer can send it again.
    if (isTransient(err) && item.attempts < AUTO_RETRIES && job.spec.kind !== 'stream') {
      item.state = 'queued';
      job.retryTimer = setTimeout(() => {
        job.retryTimer = undefined;
        this.pump();
      }, backoffMs(item.attempts)).unref();
      return;
    }
    item.state = 'failed';
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
      void this.hooks.discard(job);
      this.wake(job);
    }
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
    for (const job of this.finished) this.jobs.delete(job.item.id);
    this.finished.clear();
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
    this.track(job);
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
