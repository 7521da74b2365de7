/**
 * What the app shows of any object store (the embedded one, a remote Swift account, a remote S3
 * endpoint): JSON-safe, so the same values cross IPC, HTTP and the renderer. Unknown numbers are
 * null, never zero.
 */
import type { StandardHeaderValues } from '../standard-headers.js';

/** What a backend can do, so the UI hides what cannot work. */
export interface Capabilities {
  /** Versions kept per object: listed, restored, undeleted, and versioning turned on or suspended per container. */
  versions: boolean;
  /** Containers can be made publicly readable. */
  publicRead: boolean;
  /** Single objects can be made publicly readable (S3 object ACLs; Swift has none). */
  publicObjects: boolean;
  shareLinks: boolean;
  quota: boolean;
  serverSideCopy: boolean;
  bulkDelete: boolean;
  /** Large uploads in parts (S3 multipart, Swift SLO). */
  multipartUpload: boolean;
  /** A new container can be given a quota of its own (S3 has no request for that). */
  containerQuota: boolean;
  /** A new bucket can be made with S3 object lock (write once, read many). */
  objectLock: boolean;
  /** A container's lifecycle rules can be read and changed (S3 bucket lifecycle). */
  lifecycle: boolean;
  /** A container's tags can be read and changed (S3 bucket tagging). */
  containerTags: boolean;
  /** Why a capability the UI offers is missing here, in a sentence a user can act on. */
  why: Partial<Record<'versions' | 'containerQuota' | 'objectLock' | 'lifecycle' | 'containerTags', string>>;
}

/**
 * A container's versioning: never turned on, on, or suspended (versions kept so far stay, no
 * new ones are made). Once on, S3 and the local store can only suspend it, never go back.
 */
export type VersioningStatus = 'unversioned' | 'enabled' | 'suspended';

/** What a new container starts with; each one the backend cannot honour fails the creation before anything is made. */
export interface ContainerOptions {
  versioning?: boolean;
  public?: boolean;
  /** null = no limit. */
  quota?: { maxBytes: number | null; maxObjects: number | null };
  objectLock?: boolean;
}

export interface Usage {
  objects: number | null;
  /** The objects' real sizes added up: what users and Swift call bytes used. */
  bytes: number | null;
  containers: number | null;
  /**
   * Bytes as this store's byte quota counts them, where that differs from `bytes` and the store
   * says so: Ceph RGW and the embedded store round each object up to 4 KiB. Absent where the quota
   * counts plain `bytes` (Swift) or the store tells nothing (S3).
   */
  quotaBytes?: number;
}

export interface QuotaLimits {
  /** null = unlimited or unknown */
  maxBytes: number | null;
  maxObjects: number | null;
}

export interface AccountSummary {
  /** Account id, S3 owner id, or the endpoint's user. */
  id: string;
  displayName: string | null;
  usage: Usage;
  quota: QuotaLimits;
}

export interface ContainerSummary {
  name: string;
  objects: number | null;
  bytes: number | null;
  /** Bytes as the store's byte quota counts them (see Usage.quotaBytes); absent where it is `bytes` or unknown. */
  quotaBytes?: number;
  /** ISO 8601, when the backend tells. */
  created: string | null;
  /** Readable by anyone (public read ACL or policy); null when the listing cannot tell cheaply. */
  public: boolean | null;
  /** The container's own quota; null when none is set or the backend cannot tell. */
  quota: QuotaLimits | null;
}

/** An object's standard headers, as the one table in standard-headers.ts names them. */
export type { StandardHeaderValues };

export interface ObjectDetails {
  container: string;
  name: string;
  size: number;
  /** Unquoted; multipart/large-object ETags as the server gives them. */
  etag: string;
  /** ISO 8601 */
  lastModified: string;
  contentType: string;
  /** User metadata, keys lower-case. */
  meta: Record<string, string>;
  headers: StandardHeaderValues;
  versionId: string | null;
  storageClass: string | null;
  publicRead: boolean | null;
  /**
   * True when the ETag is computed from parts, not the MD5 of the bytes, though it looks like
   * one: a Swift SLO's (the MD5 of its segments' MD5s) or DLO's. Absent otherwise.
   */
  compositeEtag?: true;
  /**
   * The CRC32 of all the object's bytes (base64), where the server keeps one: S3's full-object
   * checksum (a multipart upload created with x-amz-checksum-type FULL_OBJECT, or a single PUT
   * that sent it). Absent otherwise, and for a COMPOSITE checksum (`…-<parts>`).
   */
  crc32?: string;
  /** S3 object tags, in their order; absent when the object has none (or the backend does not say). */
  tags?: { key: string; value: string }[];
  /** S3 Object Lock retention of this version (until: ISO 8601); absent when none (or the backend does not say). */
  retention?: { mode: 'GOVERNANCE' | 'COMPLIANCE'; until: string };
  /** S3 legal hold of this version when one was set (true: ON); absent when never set or not said. */
  legalHold?: boolean;
}

export type FolderEntry =
  /** `versionId` only in a listing with versions ('null' for the null version). */
  | { kind: 'object'; name: string; size: number; etag: string; lastModified: string; contentType: string | null; versionId?: string }
  | { kind: 'folder'; prefix: string }
  /**
   * Listed only when versions are asked for: a non-current version or a delete marker, after
   * the object's current version (an `object` entry); a deleted object is its latest marker.
   */
  | { kind: 'version'; name: string; versionId: string; isLatest: boolean; deleteMarker: boolean; size: number; etag: string; lastModified: string; contentType: string | null };

export interface FolderPage {
  entries: FolderEntry[];
  /** Present when more entries follow; pass it back as the marker. */
  nextMarker: string | null;
}

export interface MetadataSet {
  contentType: string;
  meta: Record<string, string>;
  headers: StandardHeaderValues;
}

export interface VersionEntry {
  versionId: string;
  isLatest: boolean;
  deleteMarker: boolean;
  size: number;
  etag: string;
  lastModified: string;
}

export interface DeleteManyResult {
  deleted: string[];
  errors: { name: string; code: string; message: string }[];
}
