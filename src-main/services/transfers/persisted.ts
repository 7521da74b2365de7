import { mkdirSync, readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TransferItem } from '../../../src-shared/contract/transfers.js';
import type { SavedPending } from './pending.js';
// Finished items kept across restarts, as in memory: history, not a log.
import { KEEP_FINISHED } from './job-index.js';

/** What a job does, in a form that survives a restart. */
export type JobSpec =
  /** `absent`: the batch's plan found no object under `name` (not kept across a restart: time has passed). */
  | { kind: 'path'; path: string; name: string; absent?: true }
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
 * bytes) through a temp file and a rename, at most every 500 ms (less often when large, see
 * delayMs) and at shutdown. Each write serialises every job again: a cache of each job's JSON
 * saved that work but held about 700 bytes more per queued file (10,000 queued files: 7 MiB of
 * heap), so memory grew with the folder.
 * A folder's files not yet made into jobs are one record per batch (`pending`: its columns).
 */
export class TransferFile<K extends object = SavedJob> {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  /** `jobs` lists what to save, `saved` turns one into its saved form; `pending`, folders' files not made into jobs (one record a batch). */
  constructor(
    private readonly file: string,
    private readonly jobs: () => Iterable<K>,
    private readonly saved: (job: K) => SavedJob,
    private readonly pending: () => Iterable<SavedPending> = () => [],
  ) {}

  /**
   * Jobs and pending files from the last run: unfinished jobs come back paused (a browser
   * upload's as failed); pending files' records as saved (PendingFiles pauses their queued files).
   */
  load(): { jobs: SavedJob[]; pending: SavedPending[] } {
    let saved: SavedJob[];
    let pending: SavedPending[];
    try {
      const doc = JSON.parse(readFileSync(this.file, 'utf8')) as { jobs: SavedJob[]; pending?: SavedPending[] };
      saved = doc.jobs;
      pending = doc.pending ?? [];
    } catch {
      return { jobs: [], pending: [] };
    }
    const finished = saved.filter((j) => ['done', 'failed', 'cancelled'].includes(j.item.state)).slice(-KEEP_FINISHED);
    const unfinished = saved.filter((j) => !['done', 'failed', 'cancelled'].includes(j.item.state));
    for (const j of unfinished) {
      j.item.bytesPerSecond = null;
      if (j.spec.kind === 'path') delete j.spec.absent;
      if (j.spec.kind === 'stream') Object.assign(j.item, { state: 'failed', error: 'The app restarted before this browser upload finished: drop the file again' });
      else j.item.state = 'paused';
    }
    return { jobs: [...finished, ...unfinished], pending };
  }

  /** What the last snapshot cost the main thread (serialising 10,000 queued items: tens of ms). */
  private lastCostMs = 0;
  /** How large the last snapshot was. */
  private lastBytes = 0;

  /**
   * How long schedule() waits: at least 500 ms; at least 40 times what the last snapshot cost the
   * main thread (at most about 2.5% of it); and at least as long as writing the last snapshot's
   * size at WRITE_BYTES_PER_SEC, up to MAX_WAIT_MS. A queue that keeps its 1,000 finished items
   * is about 500 KB and costs about 10 ms of CPU a write: every 500 ms, an hour's transfer of a
   * large folder from a slow server wrote 3.6 GB and spent a minute of CPU on it. What a crash
   * loses is the progress of the last wait, done again after the restart.
   */
  get delayMs(): number {
    return Math.max(500, 40 * this.lastCostMs, Math.min(MAX_WAIT_MS, (this.lastBytes / WRITE_BYTES_PER_SEC) * 1000));
  }

  schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
  }

  /**
   * Writes the queue as it is now. The snapshot is taken at once (a closing app's paused items are
   * in it), in slices of SLICE jobs turned into bytes as they go: no string of the whole queue
   * and no array of every job's text on the heap at the same time.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const started = performance.now();
    const chunks: Buffer[] = [Buffer.from('{"version":1,"jobs":[')];
    let slice: string[] = [];
    const seal = () => {
      chunks.push(Buffer.from((chunks.length > 1 ? ',' : '') + slice.join(',')));
      slice = [];
    };
    for (const job of this.jobs()) {
      slice.push(JSON.stringify(this.saved(job)));
      if (slice.length === SLICE) seal();
    }
    if (slice.length) seal();
    chunks.push(Buffer.from('],"pending":['));
    let first = true;
    for (const record of this.pending()) {
      chunks.push(Buffer.from((first ? '' : ',') + JSON.stringify(record)));
      first = false;
    }
    chunks.push(Buffer.from(']}'));
    this.lastCostMs = performance.now() - started;
    this.lastBytes = chunks.reduce((n, c) => n + c.length, 0);
    this.writing = this.writing.then(async () => {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp`;
      const out = await open(tmp, 'w');
      try {
        await out.writev(chunks);
      } finally {
        await out.close();
      }
      await rename(tmp, this.file);
    }).catch(() => undefined);
    return this.writing;
  }
}

/** Jobs serialised into one piece of the file at a time. */
const SLICE = 500;
/** The queue file's share of the disk: 64 KiB a second (about 5.7 GB a day) for a file of up to 1.9 MB. */
const WRITE_BYTES_PER_SEC = 64 * 1024;
/** The longest a change waits to be written down. */
const MAX_WAIT_MS = 30_000;
