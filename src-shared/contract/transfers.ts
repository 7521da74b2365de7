import { z } from 'zod';
import type { In } from './types.js';

export type TransferState = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

export interface TransferItem {
  id: string;
  direction: 'upload' | 'download';
  account: string;
  container: string;
  name: string;
  /** Local file path (uploads from paths, downloads). */
  path: string | null;
  size: number | null;
  transferred: number;
  state: TransferState;
  error: string | null;
}

const account = z.string().min(1).max(200);
const container = z.string().min(1).max(256);
const path = z.string().min(1).max(4096);

export const transfersMethods = {
  /** Files and folders (recursively) under a target folder; only paths cross the contract. */
  uploadFromPaths: z.object({ account, container, prefix: z.string().max(1024).default(''), paths: z.array(path).min(1).max(10000) }),
  downloadToPath: z.object({ account, container, name: z.string().min(1).max(1024), path }),
  list: z.object({}),
  cancel: z.object({ id: z.string().min(1) }),
  retry: z.object({ id: z.string().min(1) }),
  clearFinished: z.object({}),
};

type M = typeof transfersMethods;

export interface TransfersService {
  uploadFromPaths(a: In<M['uploadFromPaths']>): Promise<{ ids: string[] }>;
  downloadToPath(a: In<M['downloadToPath']>): Promise<{ id: string }>;
  list(a: In<M['list']>): Promise<TransferItem[]>;
  cancel(a: In<M['cancel']>): Promise<void>;
  retry(a: In<M['retry']>): Promise<void>;
  clearFinished(a: In<M['clearFinished']>): Promise<void>;
}
