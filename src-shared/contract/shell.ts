import { z } from 'zod';
import type { In } from './types.js';

export const shellMethods = {
  /** The native open dialog: files, or folders, to upload. */
  pickPaths: z.object({ folders: z.boolean().default(false), multiple: z.boolean().default(true), title: z.string().max(200).optional() }),
  /** The native save dialog, for "Download to...". */
  pickSavePath: z.object({ defaultName: z.string().max(1024), title: z.string().max(200).optional() }),
  /** Folder picker for downloading several objects or folders. */
  pickFolder: z.object({ title: z.string().max(200).optional() }),
  /** Starts an OS drag of local files (staged by transfers.stageForDrag) from the app window. */
  startDrag: z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(1000) }),
};

type M = typeof shellMethods;

/** What only the desktop shell can do. The browser build answers NotSupported. */
export interface ShellService {
  pickPaths(a: In<M['pickPaths']>): Promise<{ paths: string[] }>;
  pickSavePath(a: In<M['pickSavePath']>): Promise<{ path: string | null }>;
  pickFolder(a: In<M['pickFolder']>): Promise<{ path: string | null }>;
  startDrag(a: In<M['startDrag']>): Promise<void>;
}
