import type { Job } from './job.js';
import { laneOf } from './lanes.js';

/**
 * Finished items kept in memory (and on disk, persisted.ts): the queue's history, not a log.
 * Beyond it the oldest finished ones are dropped, so a folder of 100,000 files costs the same
 * memory (and the same write of transfers.json) as one of a few thousand.
 */
export const KEEP_FINISHED = 1000;
export const FINAL = new Set(['done', 'failed', 'cancelled']);

/**
 * Where each of the queue's jobs is filed: every job by id; the queued ones in the order they
 * are to start, large and small apart (so the queue's pump never walks finished jobs, nor a long
 * line of large files waiting for a slot); the finished ones oldest first, at most KEEP_FINISHED.
 */
export class JobIndex {
  readonly all = new Map<string, Job>();
  readonly queued = { large: new Set<Job>(), small: new Set<Job>() };
  private readonly finished = new Set<Job>();

  add(job: Job): void {
    this.all.set(job.item.id, job);
    this.file(job);
  }

  /** Files a job by its state now: in its lane's queued set, the finished history (trimmed), or neither. */
  file(job: Job): void {
    const state = job.item.state;
    this.unqueue(job);
    if (state === 'queued') this.queued[laneOf(job.item.size)].add(job);
    this.finished.delete(job);
    if (!FINAL.has(state)) return;
    this.finished.add(job);
    for (const old of this.finished) {
      if (this.finished.size <= KEEP_FINISHED) break;
      this.finished.delete(old);
      this.all.delete(old.item.id);
    }
  }

  /** Out of the queued sets: its attempt is starting. */
  unqueue(job: Job): void {
    this.queued.large.delete(job);
    this.queued.small.delete(job);
  }

  clearFinished(): void {
    for (const job of this.finished) this.all.delete(job.item.id);
    this.finished.clear();
  }
}
