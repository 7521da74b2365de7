import { randomBytes } from 'node:crypto';
import type { TransferItem } from '../../../src-shared/contract/transfers.js';
import type { JobSpec } from './persisted.js';

/** A file of a folder transfer before its turn: what its job is made of then. */
export interface PendingFile {
  name: string;
  path: string;
  size: number;
  /** An upload's: the plan found no object under its name. */
  absent?: boolean;
}

export interface PendingBatch {
  batchId: string;
  account: string;
  container: string;
  /** Path uploads and downloads: the kinds a folder has many of, and that resume by themselves. */
  kind: 'path' | 'download';
}

export type Lane = 'small' | 'large';

/** A folder's pending files as kept on disk (transfers.json): the columns, and the ids' prefix. */
export interface SavedPending {
  batch: PendingBatch;
  idPrefix: string;
  names: string[];
  paths: string[];
  sizes: number[];
  /** Per file: 0 queued, 1 paused, 2 cancelled, 3 no longer here (a job of its own, or cleared). */
  states: number[];
}

/**
 * V8 builds a string made by concatenation (a path joined, a name with its prefix, randomUUID's
 * hex pairs) as a tree of pieces, 32 bytes each: a UUID is 16 of them (512 bytes), where its text
 * takes 56. Turning it into a number makes V8 flatten it in place, and the collector then keeps
 * the flat text alone. What lives as long as the queue keeps flat strings.
 */
export function flat(s: string): string {
  void Number(s);
  return s;
}

/** A file's state, in its column: queued, paused and cancelled are its item's states (STATES). */
const QUEUED = 0;
const PAUSED = 1;
const CANCELLED = 2;
/** Made into a job (running, or asked for by its id): the queue's business from then on. */
const TAKEN = 3;
/** Cancelled, then cleared from the list. */
const CLEARED = 4;
const STATES = ['queued', 'paused', 'cancelled'] as const;

/**
 * The queued files of one folder transfer (an upload batch, a page of a folder's listing), kept
 * as columns until each one's turn: its job and item are made when it starts, or when something
 * asks for it by id. Why: a job with its item is about 600 bytes of heap, and the collector lets
 * the heap grow to a multiple of what lives, so 10,000 queued jobs cost tens of MiB of peak RSS
 * (30,000 x 4 KiB up: 303 MiB against 230 for 10,000). Here a queued file is its name, its local
 * path and 9 bytes of columns; its id is made when asked for, from the batch's prefix and its index.
 */
export class PendingFiles {
  /** Ids are this and the file's index in base 36: unique across restarts (random), never stored per file. */
  readonly idPrefix: string;
  private readonly names: string[];
  private readonly paths: string[];
  private readonly sizes: Float64Array;
  private readonly states: Uint8Array;
  /** Per file, 1 where the plan found no object under its name; in memory only (a restart forgets it). */
  private readonly absent: Uint8Array;
  /** Per lane, the first index at or after which a queued file of that lane may be. */
  private readonly cursor = { small: 0, large: 0 };
  /** Files queued, paused or cancelled: the ones the list still shows from here. */
  private shown: number;

  /** From a folder's files (all queued), or from their record on disk (queued ones come back paused). */
  constructor(
    readonly batch: PendingBatch,
    files: readonly PendingFile[] | SavedPending,
    private readonly laneOf: (size: number) => Lane,
  ) {
    if ('idPrefix' in files) {
      this.idPrefix = files.idPrefix;
      this.names = files.names;
      this.paths = files.paths;
      this.sizes = Float64Array.from(files.sizes);
      this.states = Uint8Array.from(files.states, (st) => (st === QUEUED ? PAUSED : st));
      this.shown = this.states.reduce((n, st) => n + (st <= CANCELLED ? 1 : 0), 0);
      this.absent = new Uint8Array(this.names.length);
      return;
    }
    this.idPrefix = `${randomBytes(12).toString('hex')}-`;
    this.names = files.map((f) => flat(f.name));
    this.paths = files.map((f) => flat(f.path));
    this.sizes = Float64Array.from(files, (f) => f.size);
    this.states = new Uint8Array(files.length);
    this.absent = Uint8Array.from(files, (f) => (f.absent ? 1 : 0));
    this.shown = files.length;
  }

  get count(): number {
    return this.names.length;
  }

  get direction(): TransferItem['direction'] {
    return this.batch.kind === 'download' ? 'download' : 'upload';
  }

  /** Nothing left to show or to start: the queue forgets the batch. */
  get empty(): boolean {
    return this.shown === 0;
  }

  idOf(i: number): string {
    return this.idPrefix + i.toString(36);
  }

  /** The index of a file still here (queued, paused or cancelled) by its id, or -1. */
  indexOf(id: string): number {
    if (!id.startsWith(this.idPrefix)) return -1;
    const digits = id.slice(this.idPrefix.length);
    const i = parseInt(digits, 36);
    return i >= 0 && i < this.count && i.toString(36) === digits && this.states[i]! <= CANCELLED ? i : -1;
  }

  item(i: number): TransferItem {
    const b = this.batch;
    return {
      id: this.idOf(i),
      batchId: b.batchId,
      direction: this.direction,
      account: b.account,
      container: b.container,
      name: this.names[i]!,
      path: this.paths[i]!,
      size: this.sizes[i]!,
      transferred: 0,
      bytesPerSecond: null,
      state: STATES[this.states[i] as 0 | 1 | 2],
      error: null,
      attempts: 0,
      verified: false,
      resumable: true,
    };
  }

  spec(i: number): JobSpec {
    const name = this.names[i]!;
    const path = this.paths[i]!;
    if (this.batch.kind === 'download') return { kind: 'download', name, path };
    return this.absent[i] ? { kind: 'path', path, name, absent: true } : { kind: 'path', path, name };
  }

  /** The next queued file of the lane (the caller takes it and makes its job), or -1. */
  next(lane: Lane): number {
    for (let i = this.cursor[lane]; i < this.count; i++) {
      if (this.states[i] !== QUEUED || this.laneOf(this.sizes[i]!) !== lane) continue;
      this.cursor[lane] = i + 1;
      return i;
    }
    this.cursor[lane] = this.count;
    return -1;
  }

  /** Hands the file over to a job made for it. */
  take(i: number): void {
    this.states[i] = TAKEN;
    this.shown--;
  }

  /**
   * Moves every file in state `from` to `to`, and calls `changed` with each one's item after:
   * pause, resume, cancel and retry of the whole queue; clearing (to null) drops cancelled files.
   */
  moveAll(from: 'queued' | 'paused' | 'cancelled', to: 'queued' | 'paused' | 'cancelled' | null, changed: (item: TransferItem) => void): void {
    const f = STATES.indexOf(from);
    const t = to === null ? CLEARED : STATES.indexOf(to);
    for (let i = 0; i < this.count; i++) {
      if (this.states[i] !== f) continue;
      this.states[i] = t;
      if (t === CLEARED) this.shown--;
      else changed(this.item(i));
    }
    if (t === QUEUED) this.cursor.small = this.cursor.large = 0;
  }

  /** The items of the files still here, in their order. */
  *items(): Generator<TransferItem> {
    for (let i = 0; i < this.count; i++) if (this.states[i]! <= CANCELLED) yield this.item(i);
  }

  /** The batch as kept on disk: one record, not a job per file; files no longer here keep their index with empty names. */
  toSaved(): SavedPending {
    const here = (i: number) => this.states[i]! <= CANCELLED;
    return {
      batch: this.batch,
      idPrefix: this.idPrefix,
      names: this.names.map((n, i) => (here(i) ? n : '')),
      paths: this.paths.map((p, i) => (here(i) ? p : '')),
      sizes: Array.from(this.sizes),
      states: Array.from(this.states, (st, i) => (here(i) ? st : TAKEN)),
    };
  }
}
