// What the panel shows about items and the whole queue, computed from the items alone.
import type { TransferItem, TransferState } from '../../../src-shared/contract/transfers';

export const FINISHED: ReadonlySet<TransferState> = new Set(['done', 'failed', 'cancelled']);
export const ACTIVE: ReadonlySet<TransferState> = new Set(['queued', 'running', 'paused']);

/** `sendsAgain`: this page holds the item's file (a browser upload), so a resume can send it again. */
export function canPause(item: TransferItem, sendsAgain = false): boolean {
  return (item.resumable || sendsAgain) && (item.state === 'queued' || item.state === 'running');
}
export function canResume(item: TransferItem): boolean {
  return item.state === 'paused';
}
export function canCancel(item: TransferItem): boolean {
  return ACTIVE.has(item.state);
}
export function canRetry(item: TransferItem): boolean {
  return item.state === 'failed' || item.state === 'cancelled';
}

/** 0..1, or null while the size is unknown; an item that failed or was cancelled stored nothing, so 0. */
export function fraction(item: Pick<TransferItem, 'size' | 'transferred' | 'state'>): number | null {
  if (item.state === 'done') return 1;
  if (item.state === 'failed' || item.state === 'cancelled') return 0;
  if (item.size === null) return null;
  if (item.size === 0) return 0;
  return Math.min(1, item.transferred / item.size);
}

/** Seconds left at the recent speed; null when it cannot be told. */
export function etaSeconds(item: Pick<TransferItem, 'size' | 'transferred' | 'bytesPerSecond'>): number | null {
  if (item.size === null || !item.bytesPerSecond || item.bytesPerSecond <= 0) return null;
  return Math.max(0, (item.size - item.transferred) / item.bytesPerSecond);
}

export interface QueueTotals {
  /** Items not finished (queued, running, paused). */
  active: number;
  failed: number;
  finished: number;
  /** Over the unfinished items and those done in the same batches, as a file manager counts. */
  bytes: number;
  transferred: number;
  bytesPerSecond: number;
  pausable: number;
  resumable: number;
}

export function totals(items: readonly TransferItem[], sendsAgain: (id: string) => boolean = () => false): QueueTotals {
  const t: QueueTotals = { active: 0, failed: 0, finished: 0, bytes: 0, transferred: 0, bytesPerSecond: 0, pausable: 0, resumable: 0 };
  const liveBatches = new Set<string>();
  for (const item of items) if (ACTIVE.has(item.state)) liveBatches.add(item.batchId);
  for (const item of items) {
    if (ACTIVE.has(item.state)) t.active++;
    else t.finished++;
    if (item.state === 'failed') t.failed++;
    if (canPause(item, sendsAgain(item.id))) t.pausable++;
    if (canResume(item)) t.resumable++;
    if (liveBatches.has(item.batchId) && item.state !== 'cancelled' && item.state !== 'failed') {
      t.bytes += item.size ?? 0;
      t.transferred += item.state === 'done' ? (item.size ?? item.transferred) : item.transferred;
      t.bytesPerSecond += item.bytesPerSecond ?? 0;
    }
  }
  return t;
}

/** "1:05:09", "4:07", "0:09". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
