import type { Readable } from 'node:stream';
import type {
  AccountSummary,
  Capabilities,
  ContainerOptions,
  ContainerSummary,
  DeleteManyResult,
  FolderPage,
  MetadataSet,
  ObjectDetails,
  VersionEntry,
  VersioningStatus,
} from '../../src-shared/model/storage.js';
import type { ContainerTag, LifecycleRuleChange, LifecycleView, TagsView } from '../../src-shared/model/container-settings.js';

/** The content type S3 consoles give zero-byte folder markers; the local and remote S3 backends create folders with it. */
export const FOLDER_CONTENT_TYPE = 'application/x-directory';

export interface ListFolderOptions {
  prefix?: string;
  /** Default '/'; '' lists flat. */
  delimiter?: string;
  marker?: string;
  /** Entries per page. */
  pageSize?: number;
  /**
   * Non-current versions and delete markers too, after each object's current version (a
   * deleted object is its latest delete marker); the marker is then the backend's own.
   */
  versions?: boolean;
  signal?: AbortSignal;
}

export interface TransferOptions {
  signal?: AbortSignal;
  /** Bytes moved so far; called as bytes go, a few times a second at most. */
  onProgress?: (bytes: number) => void;
}

export type UploadSource =
  | { path: string }
  | {
      stream: Readable;
      size?: number;
      /** The whole body, where the caller holds it in memory (a small file): a backend may send it as it is and leave the stream unread. */
      bytes?: Buffer;
    };

export interface UploadOptions extends TransferOptions {
  contentType?: string;
  meta?: Record<string, string>;
  headers?: MetadataSet['headers'];
  /**
   * Makes a large upload from a file path resumable: parts already stored under `token` (from an
   * earlier attempt, even before an app restart) are checked against the file and not sent again,
   * and a failed or cancelled attempt leaves its parts for the next one (`discardUpload` drops
   * them). `save` receives the token as soon as there is one.
   */
  resume?: { token: string | null; save: (token: string) => void };
  /**
   * The MD5 (hex) of the whole body, when the caller already hashed the bytes it hands over: a
   * backend that sends Content-MD5 with a single request uses it instead of hashing them again.
   */
  md5?: string;
  /**
   * The caller found no object under this name moments ago (an upload batch's conflict check): a
   * backend may skip looking for one to replace (Swift: the HEAD for an old SLO's segments, a
   * second request per small file). If one appeared since, what it leaves costs space, not
   * correctness.
   */
  absent?: boolean;
}

/** An upload's result; `checked: 'parts'` when the backend compared every part's MD5 and the composite ETag itself. */
export type UploadResult = ObjectDetails & { checked?: 'parts' };

export interface UnfinishedUploadEntry {
  name: string;
  uploadId: string;
  /** ISO 8601 */
  initiated: string | null;
}

export interface DownloadOptions extends TransferOptions {
  /** Inclusive byte range. */
  range?: { start: number; end?: number };
  versionId?: string;
}

/** How an object stored in parts lies in its bytes, so that a download can check each of them against its ETag. */
export interface PartLayout {
  /**
   * Each part's bytes, [start, end), in order, covering the object; its MD5 (hex) where the store
   * lists it (a Swift SLO's manifest); and where the part is an object of its own (an SLO's
   * segment), that object: read directly, the server need not resolve the manifest for each range.
   */
  parts: { start: number; end: number; md5?: string; source?: { container: string; name: string } }[];
  /** The ETag the store makes of its parts' MD5s (hex, in order): what the object's must be. */
  etagOf(md5s: readonly string[]): string;
  /**
   * Present when the parts were inferred rather than each asked for (an S3 object whose first
   * and last parts say it was uploaded in parts of one size, as the common clients do): the
   * layout asked part by part, for when the inferred parts' MD5s do not make the ETag.
   */
  exact?: (signal?: AbortSignal) => Promise<PartLayout | undefined>;
  /**
   * Guessed from the part sizes common clients upload in, nothing asked of the store: parts whose
   * MD5s make the ETag verify the download, but ones that do not prove no damage (the guess may
   * be what is wrong), so they leave it checked by length only.
   */
  guessed?: boolean;
  /** With `guessed`: the other common sizes that make as many parts, to try when this one's MD5s do not make the ETag. */
  alternatives?: PartLayout[];
}

/** Parts of these sizes, one after another from the object's first byte. */
export function partsOfSizes(sizes: readonly number[]): PartLayout['parts'] {
  const parts: PartLayout['parts'] = [];
  let start = 0;
  for (const size of sizes) {
    parts.push({ start, end: start + size });
    start += size;
  }
  return parts;
}

/**
 * One interface over every store the app browses: the embedded engine, a remote Swift account
 * and a remote S3 endpoint (the app's equivalent of RGW's store abstraction). Services and the UI
 * see only this. Errors are CofferErrors with the server's message kept; unknown figures are null.
 */
export interface ObjectBackend {
  readonly kind: 'local' | 'swift' | 's3';
  /**
   * The most entries a listing page should hold here: what one request of the store answers
   * (S3's MaxKeys and RGW's container listings stop at 1,000), or, for the embedded engine, what
   * one call lists in well under a tenth of a second. Larger pages only cost more waiting per page.
   */
  readonly listPageLimit: number;
  capabilities(): Capabilities;

  accountInfo(): Promise<AccountSummary>;
  /**
   * One cheap request the server must authenticate: resolves once it accepted the credentials,
   * fails as the connection does (AuthFailed, Unreachable, ...). The connection state follows it.
   */
  checkAccess(): Promise<void>;
  listContainers(): Promise<ContainerSummary[]>;
  /** A new container with its options; an option this backend cannot honour fails before anything is created. */
  createContainer(name: string, options?: ContainerOptions): Promise<void>;
  deleteContainer(name: string): Promise<void>;

  /** A folder's entries (prefix + delimiter), page after page as marker pagination goes. */
  listFolder(container: string, opts?: ListFolderOptions): AsyncIterable<FolderPage>;
  head(container: string, name: string, opts?: { versionId?: string }): Promise<ObjectDetails>;
  download(container: string, name: string, opts?: DownloadOptions): Promise<{ details: ObjectDetails; body: Readable }>;
  upload(container: string, name: string, source: UploadSource, opts?: UploadOptions): Promise<UploadResult>;
  /**
   * The parts of an object whose ETag is made from its parts' MD5s (an S3 multipart upload's, a
   * Swift SLO's or DLO's), as `head` describes it; undefined when it is not in parts or the store
   * cannot say where they lie (an SLO of ranges or of SLOs, or whose manifest the server keeps to
   * itself and whose segments are not where the common clients put them; a server without `partNumber`).
   */
  partLayout?(container: string, name: string, head: ObjectDetails, opts?: { signal?: AbortSignal }): Promise<PartLayout | undefined>;
  /**
   * Where the parts of an object in parts would lie had a common client uploaded it, for when
   * `partLayout` cannot say; asks nothing of the store (a layout with `guessed`). Undefined when
   * its ETag does not tell how many parts it has.
   */
  guessPartLayout?(head: ObjectDetails): PartLayout | undefined;
  /** Drops what a resumable upload left behind (its multipart upload or segments). */
  discardUpload?(container: string, name: string, token: string): Promise<void>;
  /** Multipart uploads started and never completed or aborted. */
  listUnfinishedUploads?(container: string): Promise<UnfinishedUploadEntry[]>;
  abortUnfinishedUpload?(container: string, name: string, uploadId: string): Promise<void>;
  /**
   * Puts an object's bytes at a local path without the network where the store allows it (the
   * local store hard-links the stored blob); false when the caller should download instead.
   */
  exportToFile?(container: string, name: string, path: string): Promise<boolean>;
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
  /** Where anyone reads a public container: its URL, to which an object's name is appended. */
  publicUrl(container: string): Promise<string>;
  /** A time-limited link that reads one object without credentials (presigned URL, TempURL). */
  shareLink(container: string, name: string, expiresInSeconds: number): Promise<string>;

  listVersions(container: string, name: string): Promise<VersionEntry[]>;
  /** Makes an older version current again (a copy of it becomes the newest version). */
  restoreVersion(container: string, name: string, versionId: string): Promise<ObjectDetails>;
  versioning(container: string): Promise<VersioningStatus>;
  /** Turns versioning on, or suspends it (a container never versioned stays so); answers the new status. */
  setVersioning(container: string, on: boolean): Promise<VersioningStatus>;
  /**
   * Brings a deleted object back as its newest version was (NoSuchKey when it never had one);
   * an object that is not deleted stays as it is.
   */
  undelete(container: string, name: string): Promise<ObjectDetails>;

  /** A container's lifecycle rules (none: an empty list); NotSupported, saying why, where capabilities say so. */
  lifecycle(container: string): Promise<LifecycleView>;
  /**
   * Replaces the rules (none: removes the configuration). Kept rules are taken from the server's
   * configuration as they are; PreconditionFailed when it is no longer the one `basis` names.
   */
  setLifecycle(container: string, basis: string, rules: LifecycleRuleChange[]): Promise<LifecycleView>;
  /** A container's tags (none: an empty list). */
  tags(container: string): Promise<TagsView>;
  /** Replaces the tags (none: removes the tag set); PreconditionFailed as setLifecycle's. */
  setTags(container: string, basis: string, tags: ContainerTag[]): Promise<TagsView>;

  /** Lets go of connections and clients (keep-alive sockets); the backend is not used after. */
  close?(): void | Promise<void>;
}
