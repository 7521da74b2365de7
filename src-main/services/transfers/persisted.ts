import { mkdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TransferItem } from '../../../src-shared/contract/transfers.js';

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

/** Finished items kept across restarts, newest first: history, not a log. */
const KEEP_FINISHED = 1000;

/**
 * The queue on disk (`transfers.json` next to the store): rewritten whole (small: items, not
 * bytes) through a temp file and a rename, at most every 500 ms and at shutdown.
 */
export class TransferFile {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SavedJob[],
  ) {}

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

  schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, 500);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const body = JSON.stringify({ version: 1, jobs: this.snapshot() });
    this.writing = this.writing.then(async () => {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp`;
      await writeFile(tmp, body);
      await rename(tmp, this.file);
    }).catch(() => undefined);
    return this.writing;
  }
}
