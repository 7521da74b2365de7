import type { Readable } from 'node:stream';
import type {
  AccountSummary,
  Capabilities,
  ContainerSummary,
  DeleteManyResult,
  FolderPage,
  MetadataSet,
  ObjectDetails,
  VersionEntry,
} from '../../src-shared/model/storage.js';

export interface ListFolderOptions {
  prefix?: string;
  /** Default '/'; '' lists flat. */
  delimiter?: string;
  marker?: string;
  /** Entries per page. */
  pageSize?: number;
  signal?: AbortSignal;
}

export interface TransferOptions {
  signal?: AbortSignal;
  /** Bytes moved so far; called as bytes go, a few times a second at most. */
  onProgress?: (bytes: number) => void;
}

export type UploadSource = { path: string } | { stream: Readable; size?: number };

export interface UploadOptions extends TransferOptions {
  contentType?: string;
  meta?: Record<string, string>;
  headers?: MetadataSet['headers'];
}

export interface DownloadOptions extends TransferOptions {
  /** Inclusive byte range. */
  range?: { start: number; end?: number };
  versionId?: string;
}

/**
 * One interface over every store the app browses: the embedded engine, a remote Swift account
 * and a remote S3 endpoint (the app's equivalent of RGW's store abstraction). Services and the UI
 * see only this. Errors are CofferErrors with the server's message kept; unknown figures are null.
 */
export interface ObjectBackend {
  readonly kind: 'local' | 'swift' | 's3';
  capabilities(): Capabilities;

  accountInfo(): Promise<AccountSummary>;
  listContainers(): Promise<ContainerSummary[]>;
  createContainer(name: string): Promise<void>;
  deleteContainer(name: string): Promise<void>;

  /** A folder's entries (prefix + delimiter), page after page as marker pagination goes. */
  listFolder(container: string, opts?: ListFolderOptions): AsyncIterable<FolderPage>;
  head(container: string, name: string, opts?: { versionId?: string }): Promise<ObjectDetails>;
  download(container: string, name: string, opts?: DownloadOptions): Promise<{ details: ObjectDetails; body: Readable }>;
  upload(container: string, name: string, source: UploadSource, opts?: UploadOptions): Promise<ObjectDetails>;
  copy(from: { container: string; name: string }, to: { container: string; name: string }): Promise<ObjectDetails>;
  /** Replaces user metadata, content type and the standard headers; bytes and ETag stay. */
  setMetadata(container: string, name: string, set: MetadataSet): Promise<ObjectDetails>;
  /**
   * Deletes an object (in a versioned container: adds a delete marker; with `versionId`: removes
   * that version). Deleting a name that is not there succeeds, as on S3: deletes are idempotent.
   */
  delete(container: string, name: string, opts?: { versionId?: string }): Promise<void>;
  /** Deletes many objects; names not there count as deleted, other failures are listed per name. */
  deleteMany(container: string, names: string[]): Promise<DeleteManyResult>;
  /** A zero-byte `prefix/` marker object. */
  createFolder(container: string, prefix: string): Promise<void>;

  /** Public read for a container (name undefined) or one object. */
  setPublic(container: string, name: string | undefined, on: boolean): Promise<void>;
  /** A time-limited link that reads one object without credentials (presigned URL, TempURL). */
  shareLink(container: string, name: string, expiresInSeconds: number): Promise<string>;

  listVersions(container: string, name: string): Promise<VersionEntry[]>;
  /** Makes an older version current again (a copy of it becomes the newest version). */
  restoreVersion(container: string, name: string, versionId: string): Promise<ObjectDetails>;

  /** Lets go of connections and clients (keep-alive sockets); the backend is not used after. */
  close?(): void | Promise<void>;
}
