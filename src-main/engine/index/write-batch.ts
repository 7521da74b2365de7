import { ABORT, type Database, type RootDatabase } from 'lmdb';

/**
 * What a write runs: a synchronous function (it runs inside the batch's transaction callback, and
 * may run twice, see `run`). An async one would not compile.
 */
export type WriteFn<T> = () => T extends PromiseLike<unknown> ? never : T;

interface Queued {
  fn: () => unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  value?: unknown;
}

interface Cached {
  value: unknown;
  dirty: boolean;
}

/**
 * Records that most writes of a batch touch (the object sequence, a container's and an
 * account's usage): each is read once per batch, changed in memory, and written back once just
 * before the batch commits. Changes made by a write that fails are undone with it.
 */
export class BatchCache {
  private readonly tables = new Map<Database<unknown, string>, Map<string, Cached>>();
  private journal: (() => void)[] = [];

  read<V>(table: Database<V, string>, key: string): V | undefined {
    return this.entry(table as Database<unknown, string>, key).value as V | undefined;
  }

  /** `undefined` removes the record. */
  set<V>(table: Database<V, string>, key: string, value: V | undefined): void {
    const entry = this.entry(table as Database<unknown, string>, key);
    const before = { ...entry };
    this.journal.push(() => Object.assign(entry, before));
    entry.value = value;
    entry.dirty = true;
  }

  private entry(table: Database<unknown, string>, key: string): Cached {
    let perTable = this.tables.get(table);
    if (!perTable) this.tables.set(table, (perTable = new Map()));
    let entry = perTable.get(key);
    if (!entry) perTable.set(key, (entry = { value: table.get(key), dirty: false }));
    return entry;
  }

  /** Runs one write: its cached changes stay if it succeeds and are undone if it throws. */
  attempt<T>(fn: () => T): T {
    this.journal = [];
    try {
      return fn();
    } catch (err) {
      for (const undo of this.journal.reverse()) undo();
      throw err;
    } finally {
      this.journal = [];
    }
  }

  writeBack(): void {
    for (const [table, entries] of this.tables) {
      for (const [key, { value, dirty }] of entries) {
        if (!dirty) continue;
        if (value === undefined) table.removeSync(key);
        else table.putSync(key, value);
      }
    }
  }
}

/** A batch with more writes than this, when no other batch is in flight, is split in two (see `pipelined`). */
const SPLIT_ABOVE = 8;

/**
 * Groups the writes queued while the previous batch was committing into one lmdb-js child
 * transaction: one transaction callback, one cache of shared counters and one wait for the
 * flush per batch instead of per write. A write that throws still undoes only its own changes
 * and rejects only its own caller (see `run`).
 */
export class WriteBatcher {
  private queued: Queued[] = [];
  private scheduled = false;
  /** Batches scheduled and not yet settled. */
  private inFlight = 0;
  private last: Promise<unknown> = Promise.resolve();
  /** The cache of the batch running now (writes run synchronously inside it). */
  current: BatchCache | undefined;

  constructor(private readonly root: RootDatabase) {}

  write<T>(fn: WriteFn<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) this.schedule();
    });
  }

  /** Settles once every write queued so far is durable (or has failed). */
  async drain(): Promise<void> {
    // A batch split in two schedules its second half after it runs: wait for that one too.
    for (;;) {
      const last = this.last;
      await last.catch(() => undefined);
      if (last !== this.last) continue;
      if (this.queued.length === 0) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private schedule(): void {
    this.scheduled = true;
    this.inFlight++;
    let batch: Queued[] | undefined;
    const take = () => {
      this.scheduled = false;
      batch = this.queued;
      this.queued = [];
      return batch;
    };
    const committed = this.root.childTransaction(() => this.run(this.pipelined(take())));
    // `flushed` stands for the newest transaction when it is read: read once this batch has
    // committed, it could be a later batch's, and this one's writes would wait for that one's sync.
    const flushed = Promise.resolve(this.root.flushed);
    this.last = Promise.all([committed, flushed])
      .finally(() => this.inFlight--)
      .then(
        () => batch!.forEach((q) => q.resolve(q.value)),
        // A batch that never started (the store was closing) fails what was queued for it.
        (err: unknown) => (batch ?? take()).forEach((q) => q.reject(err)),
      );
  }

  /**
   * A batch that is the only one in flight, and holds more than SPLIT_ABOVE writes, keeps the
   * first half (at least SPLIT_ABOVE) and hands the rest to a transaction of its own. Otherwise
   * concurrent writers all wait on the same commit and sync, and the main thread idles through
   * each sync with nothing to do. Split, the second half runs while the first one syncs; the two
   * groups of writers then keep alternating, as each batch that finds another in flight takes
   * everything queued. Half, and at least SPLIT_ABOVE: a fixed cap costs a commit and a sync per
   * cap's worth of writes when many clients write at once, and halving alone breaks batches down
   * to a few writes each. The rest is queued once the event loop
   * turns: queued during this callback, it would join this transaction. lmdb-js may still add it
   * to this one if that has not committed yet, which costs only the overlap.
   */
  private pipelined(batch: Queued[]): Queued[] {
    if (this.inFlight > 1 || batch.length <= SPLIT_ABOVE) return batch;
    this.queued = batch.splice(Math.max(SPLIT_ABOVE, Math.ceil(batch.length / 2))).concat(this.queued);
    this.scheduled = true;
    setImmediate(() => this.schedule());
    return batch;
  }

  /**
   * Runs a batch's writes. Most succeed, so they first run together in one nested transaction:
   * a nested transaction per write (so that one that fails undoes only its own changes) took a
   * quarter of a small write's main-thread time in the batch (4-5 µs, measured). When one fails,
   * that attempt is undone whole and the batch runs again write by write, each in its own nested
   * transaction. So a write may run twice: it must change nothing but the index.
   */
  private run(batch: Queued[]): void {
    if (batch.length > 1 && this.runTogether(batch)) return;
    this.runEach(batch);
  }

  private runTogether(batch: Queued[]): boolean {
    const cache = new BatchCache();
    this.current = cache;
    let failed = false;
    try {
      nested(this.root, () => {
        for (const q of batch) {
          try {
            q.value = q.fn();
          } catch {
            failed = true;
            return ABORT;
          }
        }
        cache.writeBack();
        return undefined;
      });
    } finally {
      this.current = undefined;
    }
    return !failed;
  }

  private runEach(batch: Queued[]): void {
    const cache = new BatchCache();
    this.current = cache;
    try {
      for (let i = 0; i < batch.length; i++) {
        const q = batch[i]!;
        try {
          q.value = cache.attempt(() => nested(this.root, q.fn));
        } catch (err) {
          q.reject(err);
          batch.splice(i--, 1);
        }
      }
      cache.writeBack();
    } finally {
      this.current = undefined;
    }
  }
}

/**
 * A child transaction inside the batch's own: lmdb-js runs a synchronous callback there at once,
 * returning its result or throwing its error (its typings say Promise, which only the outermost
 * transaction returns).
 */
function nested<T>(root: RootDatabase, fn: () => T): T {
  return root.childTransaction(fn) as unknown as T;
}
