import { z } from 'zod';
import type {
  Capabilities,
  ContainerSummary,
  DeleteManyResult,
  FolderPage,
  ObjectDetails,
  VersionEntry,
} from '../model/storage.js';
import type { In } from './types.js';

/** What a paste did, or (with conflicts: 'ask') the names already taken, before anything was done. */
export type PasteResult =
  | { status: 'conflicts'; names: string[] }
  | {
      status: 'done';
      /** Top-level entries, source name -> name given in the target ('a (copy).txt' when kept both). */
      pasted: { from: string; to: string }[];
      skipped: string[];
      /** Objects copied (or moved), folders counted by their contents. */
      objects: number;
      errors: { name: string; code: string; message: string }[];
    };

/** A connection id: a UUID, or `local:<account id>` (account ids up to 256 bytes). */
const account = z.string().min(1).max(300);
const container = z.string().min(1).max(256);
const name = z.string().min(1).max(1024);
const where = { account, container };
const folderPrefix = z.string().min(1).max(1024).endsWith('/');
/** Names the progress events of a long operation ('operation.progress'). */
const operationId = z.string().min(1).max(100).optional();
const objectRef = z.object({ account, container, name });
const standardHeaders = z.object({
  contentEncoding: z.string().max(8192).optional(),
  contentDisposition: z.string().max(8192).optional(),
  contentLanguage: z.string().max(8192).optional(),
  cacheControl: z.string().max(8192).optional(),
  expires: z.string().max(8192).optional(),
});

export const browseMethods = {
  capabilities: z.object({ account }),
  listContainers: z.object({ account }),
  /** A new container with its options; one the backend cannot honour fails the creation (NotSupported, saying why). */
  createContainer: z.object({
    ...where,
    options: z
      .object({
        versioning: z.boolean().optional(),
        public: z.boolean().optional(),
        quota: z.object({ maxBytes: z.number().int().min(0).nullable(), maxObjects: z.number().int().min(0).nullable() }).optional(),
        objectLock: z.boolean().optional(),
      })
      .default({}),
  }),
  deleteContainer: z.object(where),
  listFolder: z.object({
    ...where,
    prefix: z.string().max(1024).default(''),
    delimiter: z.string().max(16).default('/'),
    /** A name, or (listing versions) the backend's own marker of a name and a version. */
    marker: z.string().max(2200).optional(),
    /** Non-current versions and delete markers too ('version' entries), where the backend keeps versions. */
    versions: z.boolean().default(false),
    /**
     * At most this many entries: each backend answers up to its own limit (the local store
     * 10,000, remote S3 and Swift 1,000), so a shorter page is not the end; a null nextMarker is.
     */
    pageSize: z.number().int().min(1).max(10000).default(1000),
  }),
  head: z.object({ ...where, name, versionId: z.string().optional() }),
  setMetadata: z.object({
    ...where,
    name,
    contentType: z.string().min(1).max(256),
    meta: z.record(z.string().max(128), z.string().max(256)),
    headers: standardHeaders,
  }),
  createFolder: z.object({ ...where, prefix: z.string().min(1).max(1024) }),
  /** Objects by name, and whole folders by prefix. */
  delete: z.object({ ...where, names: z.array(name).max(100000).default([]), prefixes: z.array(z.string().min(1)).max(1000).default([]), operationId }),
  /** Server-side within an account, streamed across accounts. */
  copy: z.object({ from: objectRef, to: objectRef }),
  /** Copy then delete; a name ending in '/' moves a whole folder. */
  move: z.object({ from: objectRef, to: objectRef }),
  /**
   * Copies (or moves) objects and whole folders into a folder, maybe of another container or
   * account: server-side within an account, streamed across. Names taken in the target are not
   * overwritten unless asked: 'ask' reports them and does nothing; pasting onto the very source
   * (same folder) always keeps both, as "name (copy)".
   */
  paste: z.object({
    from: z.object({ account, container, names: z.array(name).max(100000).default([]), prefixes: z.array(folderPrefix).max(1000).default([]) }),
    to: z.object({ account, container, prefix: z.string().max(1024).default('') }),
    mode: z.enum(['copy', 'move']).default('copy'),
    conflicts: z.enum(['ask', 'keepBoth', 'replace', 'skip']).default('ask'),
    operationId,
  }),
  setPublic: z.object({ ...where, name: name.optional(), on: z.boolean() }),
  /** Where anyone reads a public container (an object's name appended). */
  publicUrl: z.object(where),
  shareLink: z.object({ ...where, name, expiresInSeconds: z.number().int().min(1).max(7 * 24 * 3600) }),
  listVersions: z.object({ ...where, name }),
  restoreVersion: z.object({ ...where, name, versionId: z.string().min(1) }),
  deleteVersion: z.object({ ...where, name, versionId: z.string().min(1) }),
  /** How many objects (and bytes) whole folders hold, for a confirmation; counting stops at `limit`. */
  countUnder: z.object({ ...where, prefixes: z.array(folderPrefix).min(1).max(1000), limit: z.number().int().min(1).max(1_000_000).default(100_000) }),
};

/** What folders hold; `complete` is false when counting stopped at the limit (there are at least that many). */
export interface FolderCount {
  objects: number;
  bytes: number;
  complete: boolean;
}

type M = typeof browseMethods;

export interface BrowseService {
  capabilities(a: In<M['capabilities']>): Promise<Capabilities>;
  listContainers(a: In<M['listContainers']>): Promise<ContainerSummary[]>;
  createContainer(a: In<M['createContainer']>): Promise<void>;
  deleteContainer(a: In<M['deleteContainer']>): Promise<void>;
  listFolder(a: In<M['listFolder']>): Promise<FolderPage>;
  head(a: In<M['head']>): Promise<ObjectDetails>;
  setMetadata(a: In<M['setMetadata']>): Promise<ObjectDetails>;
  createFolder(a: In<M['createFolder']>): Promise<void>;
  delete(a: In<M['delete']>): Promise<DeleteManyResult>;
  copy(a: In<M['copy']>): Promise<ObjectDetails>;
  move(a: In<M['move']>): Promise<void>;
  paste(a: In<M['paste']>): Promise<PasteResult>;
  setPublic(a: In<M['setPublic']>): Promise<void>;
  publicUrl(a: In<M['publicUrl']>): Promise<{ url: string }>;
  shareLink(a: In<M['shareLink']>): Promise<{ url: string; expiresAt: string }>;
  listVersions(a: In<M['listVersions']>): Promise<VersionEntry[]>;
  restoreVersion(a: In<M['restoreVersion']>): Promise<ObjectDetails>;
  deleteVersion(a: In<M['deleteVersion']>): Promise<void>;
  countUnder(a: In<M['countUnder']>): Promise<FolderCount>;
}
