import { z } from 'zod';
import type { In } from './types.js';

/**
 * queued: waiting for a slot (or, for a browser upload, for its bytes to arrive);
 * paused: stopped by the user or by an app restart, resumable; the rest are final until retried.
 */
export type TransferState = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

export interface TransferItem {
  id: string;
  /** Items started together (one drop, one dialog pick, one folder download). */
  batchId: string;
  direction: 'upload' | 'download';
  account: string;
  container: string;
  name: string;
  /** Local file path (uploads from paths, downloads); null for a browser upload's stream. */
  path: string | null;
  size: number | null;
  transferred: number;
  /** Recent speed, bytes per second; null while unknown (not started, or finished). */
  bytesPerSecond: number | null;
  state: TransferState;
  error: string | null;
  /** Attempts made so far (failed transient attempts are retried by themselves with backoff). */
  attempts: number;
  /** Upload: the server's ETag matched the MD5 (or multipart/SLO composite) computed while reading. */
  verified: boolean;
  /**
   * Continues where it stopped when paused and resumed (path uploads and downloads). A browser
   * upload (not resumable) can be paused too: its page sends the file again on resume.
   */
  resumable: boolean;
}

export type ConflictPolicy = 'replace' | 'skip' | 'keepBoth';

/** What an upload batch would do, before it starts: the renderer asks about conflicts and quota. */
export interface UploadPlan {
  batchId: string;
  files: number;
  bytes: number;
  /** Target names that already exist: how many, and the first few to show. */
  conflicts: { count: number; sample: string[] };
  /**
   * Set when the batch would exceed a quota of the account or the container, with the figures
   * compared. `roundedTo` is set when those are bytes as the store's quota counts them (each
   * object rounded up to that many bytes), not the plain sizes.
   */
  quota: { scope: 'account' | 'container'; limit: 'bytes' | 'objects'; used: number; max: number; adding: number; roundedTo?: number } | null;
}

export interface UnfinishedUpload {
  name: string;
  uploadId: string;
  /** ISO 8601 */
  initiated: string | null;
}

/** A connection id: a UUID, or `local:<account id>` (account ids up to 256 bytes). */
const account = z.string().min(1).max(300);
const container = z.string().min(1).max(256);
const name = z.string().min(1).max(1024);
const path = z.string().min(1).max(4096);
const prefix = z.string().max(1024).default('');
const id = z.string().min(1).max(100);
/** Omitted: every item the call applies to. */
const ids = z.array(id).max(100000).optional();

export const transfersMethods = {
  /**
   * Plans an upload into `prefix`: files and folders by local path (desktop: main reads them),
   * or the names and sizes of browser files (relative paths keep their folders).
   */
  planUpload: z.object({
    account,
    container,
    prefix,
    paths: z.array(path).max(10000).default([]),
    files: z.array(z.object({ relativePath: name, size: z.number().int().min(0) })).max(100000).default([]),
  }),
  /** Starts a planned batch. Browser files become items waiting for their bytes at `/_coffer/upload?id=`; returned in the plan's order, skipped ones left out. */
  startUpload: z.object({ batchId: id, conflict: z.enum(['replace', 'skip', 'keepBoth']).default('replace') }),
  /** Objects by name and whole folders by prefix into a local folder (folders recursively). */
  download: z.object({ account, container, names: z.array(name).max(100000).default([]), prefixes: z.array(z.string().min(1).max(1024)).max(1000).default([]), folder: path }),
  /** One object to a chosen file path ("Download to..." with a save dialog). */
  downloadToPath: z.object({ account, container, name, path }),
  /**
   * Local files for dragging objects and folders out of the window: the local store's blobs are
   * hard-linked or copied, remote objects downloaded; a folder becomes a local folder tree. Small selections are ready when this returns; larger
   * ones come back as transfer items to wait for, after which a second call returns the paths.
   */
  stageForDrag: z
    .object({ account, container, names: z.array(name).max(1000).default([]), prefixes: z.array(z.string().min(1).max(1024)).max(100).default([]) })
    .refine((a) => a.names.length + a.prefixes.length > 0, 'Nothing to drag'),
  list: z.object({}),
  pause: z.object({ ids }),
  resume: z.object({ ids }),
  cancel: z.object({ ids }),
  retry: z.object({ ids }),
  clearFinished: z.object({}),
  setConcurrency: z.object({ concurrency: z.number().int().min(1).max(16) }),
  /** Multipart uploads started and never completed (S3 and the local store), to abort. */
  listUnfinished: z.object({ account, container }),
  abortUnfinished: z.object({ account, container, name, uploadId: z.string().min(1).max(1024) }),
};

type M = typeof transfersMethods;

export interface UploadStart {
  items: { id: string; relativePath: string; name: string }[];
}

export type StageResult = { ready: true; paths: string[] } | { ready: false; ids: string[] };

export interface TransfersService {
  planUpload(a: In<M['planUpload']>): Promise<UploadPlan>;
  startUpload(a: In<M['startUpload']>): Promise<UploadStart>;
  download(a: In<M['download']>): Promise<{ ids: string[] }>;
  downloadToPath(a: In<M['downloadToPath']>): Promise<{ id: string }>;
  stageForDrag(a: In<M['stageForDrag']>): Promise<StageResult>;
  list(a: In<M['list']>): Promise<{ items: TransferItem[]; concurrency: number }>;
  pause(a: In<M['pause']>): Promise<void>;
  resume(a: In<M['resume']>): Promise<void>;
  cancel(a: In<M['cancel']>): Promise<void>;
  retry(a: In<M['retry']>): Promise<void>;
  clearFinished(a: In<M['clearFinished']>): Promise<void>;
  setConcurrency(a: In<M['setConcurrency']>): Promise<void>;
  listUnfinished(a: In<M['listUnfinished']>): Promise<UnfinishedUpload[]>;
  abortUnfinished(a: In<M['abortUnfinished']>): Promise<void>;
}
