import { mkdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TransferItem } from '../../../src-shared/contract/transfers.js';
// Finished items kept across restarts, as in memory: history, not a log.
import { KEEP_FINISHED } from './queue.js';

/** What a job does, in a form that survives a restart. */
export type JobSpec =
  | { kind: 'path'; path: string; name: string }
  /** A browser upload: its bytes arrive over HTTP and are gone after a restart. */
  | { kind: 'stream'; name: string }
  | { kind: 'download'; name: string; path: string; etag?: string };

export interface SavedJob {
  item: TransferItem;
  spec: JobSpec;
  resumeToken: string | null;
}


/**
 * The queue on disk (`transfers.json` next to the store): rewritten whole (small: items, not
 * bytes) through a temp file and a rename, at most every 500 ms and at shutdown.
 */
export class TransferFile<K extends object = SavedJob> {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /**
   * Each job's JSON as last written, until it changes: a write serialises only what changed since
   * the last one (10,000 queued files are serialised once, not at every write while they wait).
   */
  private readonly written = new WeakMap<K, string>();

  /** `jobs` lists what to save, `saved` turns one into its saved form; `changed` must be told of every change. */
  constructor(
    private readonly file: string,
    private readonly jobs: () => Iterable<K>,
    private readonly saved: (job: K) => SavedJob,
  ) {}

  /** The job changed: its JSON is made again at the next write. */
  changed(job: K): void {
    this.written.delete(job);
  }

  private json(job: K): string {
    let text = this.written.get(job);
    if (text === undefined) {
      text = JSON.stringify(this.saved(job));
      this.written.set(job, text);
    }
    return text;
  }

  /** Jobs from the last run: unfinished ones come back paused (a browser upload's as failed). */
  load(): SavedJob[] {
    let saved: SavedJob[];
    try {
      saved = (JSON.parse(readFileSync(this.file, 'utf8')) as { jobs: SavedJob[] }).jobs;
    } catch {
      return [];
    }
    const finished = saved.filter((j) => ['done', 'failed', 'cancelled'].includes(j.item.state)).slice(-KEEP_FINISHED);
    const unfinished = saved.filter((j) => !['done', 'failed', 'cancelled'].includes(j.item.state));
    for (const j of unfinished) {
      j.item.bytesPerSecond = null;
      if (j.spec.kind === 'stream') Object.assign(j.item, { state: 'failed', error: 'The app restarted before this browser upload finished: drop the file again' });
      else j.item.state = 'paused';
    }
    return [...finished, ...unfinished];
  }

  /** What the last snapshot cost the main thread (serialising 10,000 queued items: tens of ms). */
  private lastCostMs = 0;

  /**
   * At most every 500 ms, and no more often than every 20 times what the last write cost: a
   * queue of 10,000 files spends at most about 5% of the main thread writing itself down.
   */
  schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, Math.max(500, 20 * this.lastCostMs));
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const started = performance.now();
    const parts: string[] = [];
    for (const job of this.jobs()) parts.push(this.json(job));
    const body = Buffer.from(`{"version":1,"jobs":[${parts.join(',')}]}`);
    this.lastCostMs = performance.now() - started;
    this.writing = this.writing.then(async () => {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp`;
      await writeFile(tmp, body);
      await rename(tmp, this.file);
    }).catch(() => undefined);
    return this.writing;
  }
}
