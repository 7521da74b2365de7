import { isCofferError } from '../../../src-shared/errors.js';
import type { ObjectBackend } from '../../backends/object-backend.js';
import { isTransient, type Job, type RunContext } from './job.js';
import { SpeedMeter } from './speed.js';

const PROGRESS_INTERVAL_MS = 250;
/** Attempts a job gets by itself for a transient failure (the network, a busy server). */
const AUTO_RETRIES = 3;
export const backoffMs = (attempt: number) => 1000 * 4 ** (attempt - 1);

/**
 * What one attempt of a job runs with: the controller that stops it (its reason 'pause' or
 * 'cancel'), progress with the item's speed, told on at most every PROGRESS_INTERVAL_MS, and
 * the resume token, written down (`changed(true)`) whenever the runner saves one.
 */
export function attemptContext(job: Job, backend: ObjectBackend, changed: (persist: boolean) => void): { ctx: RunContext; controller: AbortController } {
  const controller = new AbortController();
  const item = job.item;
  const speed = new SpeedMeter();
  let lastEvent = 0;
  const ctx: RunContext = {
    backend,
    signal: controller.signal,
    progress: (n) => {
      item.transferred = n;
      item.bytesPerSecond = speed.sample(n);
      if (Date.now() - lastEvent >= PROGRESS_INTERVAL_MS) {
        lastEvent = Date.now();
        changed(false);
      }
    },
    setSize: (n) => (item.size = n),
    resumeToken: job.resumeToken,
    saveResumeToken: (token) => {
      job.resumeToken = token;
      changed(true);
    },
  };
  return { ctx, controller };
}

/**
 * Where a failed attempt leaves its job: paused or cancelled when it was stopped so; else with
 * the error on its item, and queued again ('retry', after backoffMs) while a transient failure
 * has attempts left, or failed. A browser upload's stream is spent: only the page can send it
 * again, so it is never retried here.
 */
export function afterFailure(job: Job, err: unknown, abortReason: string | undefined): 'paused' | 'cancelled' | 'retry' | 'failed' {
  if (abortReason === 'pause' || abortReason === 'cancel') return abortReason === 'pause' ? 'paused' : 'cancelled';
  const item = job.item;
  item.error = (err as Error).message ?? String(err);
  job.errorCode = isCofferError(err) ? err.code : 'InternalError';
  return isTransient(err) && item.attempts < AUTO_RETRIES && job.spec.kind !== 'stream' ? 'retry' : 'failed';
}
