/** Records kept in the index, and the values the engine hands to its callers. */

import type { StandardHeaders } from '../../src-shared/standard-headers.js';
import type { Grant } from './acl.js';
import type { CorsRule } from './cors.js';
import type { LifecycleRule } from './lifecycle.js';
import type { ObjectLockConfig, ObjectRetention } from './object-lock.js';

export type ChecksumAlgorithm = 'crc32' | 'crc32c' | 'crc64nvme' | 'sha1' | 'sha256';
export const CHECKSUM_ALGORITHMS: readonly ChecksumAlgorithm[] = ['crc32', 'crc32c', 'crc64nvme', 'sha1', 'sha256'];
/**
 * How an object's checksum covers it (S3's x-amz-checksum-type): FULL_OBJECT, of all its bytes
 * (every single upload; a multipart upload's CRC combined from its parts'), or COMPOSITE, the
 * checksum of its parts' checksums with `-<parts>` appended.
 */
export type ChecksumType = 'COMPOSITE' | 'FULL_OBJECT';
/** Checksums by algorithm, each the base64 of the big-endian digest (as S3 sends them). */
export type Checksums = Partial<Record<ChecksumAlgorithm, string>>;

/** One tag of an object or a container (S3 tagging): kept in the order given. */
export interface Tag {
  key: string;
  value: string;
}

/** The standard headers stored with an object and returned as they were (src-shared/standard-headers.ts). */
export type { StandardHeaders };

export interface Quota {
  /** -1 = unlimited */
  maxBytes: number;
  /** -1 = unlimited */
  maxObjects: number;
}
export const UNLIMITED: Quota = { maxBytes: -1, maxObjects: -1 };

export interface Usage {
  objects: number;
  bytes: number;
  /** Each object rounded up to 4 KiB. */
  bytesActual: number;
  /**
   * A container's current objects (its latest versions, delete markers not counted), where
   * `objects` counts every stored version, as quotas and S3 usage do: what Swift's
   * X-Container-Object-Count counts, its versions living in another container.
   */
  current?: number;
}

export interface AccessKey {
  accessKey: string;
  secretKey: string;
}
export interface SwiftKey {
  /** Full v1 user name: `<tenant>$<name>:<sub>` */
  user: string;
  secretKey: string;
}

export interface AccountRecord {
  id: string;
  tenant: string;
  name: string;
  displayName: string;
  created: number;
  meta: Record<string, string>;
  quota: Quota;
  keys: AccessKey[];
  swiftKeys: SwiftKey[];
  maxContainers: number;
  /** X-Account-Access-Control (tempauth's account ACL); absent when none is set. */
  acl?: AccountAcl;
}

/**
 * An account ACL (Swift's `X-Account-Access-Control`, tempauth's keys): the identities given
 * read-only, read-write or admin rights over every container and object of the account.
 */
export interface AccountAcl {
  admin?: string[];
  'read-write'?: string[];
  'read-only'?: string[];
}

export type VersioningState = 'unversioned' | 'enabled' | 'suspended';

/**
 * X-Versions-Location ('stack': a delete brings the previous version back) or X-History-Location
 * ('history': a delete archives the object and a delete marker). `container` is as the client sent it.
 */
export interface LegacyArchive {
  container: string;
  mode: 'stack' | 'history';
}

export interface ContainerRecord {
  cid: number;
  tenant: string;
  name: string;
  owner: string;
  created: number;
  mtime: number;
  meta: Record<string, string>;
  publicRead: boolean;
  /** Native ACL headers kept verbatim (X-Container-Read / -Write). */
  acl: { read?: string; write?: string };
  /** The S3 ACL when one was set through S3 (acl.ts); absent: the one `publicRead` implies. */
  grants?: Grant[];
  policy: string | null;
  versioning: VersioningState;
  quota: Quota;
  storagePolicy: string;
  /** S3 bucket tagging; absent: no tag set (NoSuchTagSet). */
  tags?: Tag[];
  /** S3 lifecycle rules (absent: none configured), acted on by the expiry sweep. */
  lifecycle?: LifecycleRule[];
  /** Cross-origin rules (S3 PutBucketCors), absent when none. */
  cors?: CorsRule[];
  /** Swift's legacy versioned writes: where overwritten versions are kept, and how deletes treat them. */
  archive?: LegacyArchive;
  /** S3 Object Lock: present when enabled (versioning is then on for good), with its default retention. */
  objectLock?: ObjectLockConfig;
}

/** Where an object's bytes are: inline in the index, or in one or more blob files in order. */
export type DataRef = InlineRef | { segments: Segment[] } | { none: true };
/** Bytes in the `inline` table; the last few kept in the record itself (see IndexStore.putInline). */
export interface InlineRef {
  inline: string;
  tail?: Uint8Array;
}
export interface Segment {
  blob: string;
  size: number;
}

/** One segment of a static large object, as checked when its manifest was stored. */
export interface SloSegment {
  /** A container of the manifest's tenant. */
  container: string;
  name: string;
  etag: string;
  size: number;
  contentType: string;
  /** Milliseconds since the epoch. */
  lastModified: number;
  /** The segment is itself an SLO manifest. */
  subSlo?: boolean;
  /** Only these bytes of the segment (`first-last`, inclusive, within its size), as Swift stores a segment's `range`. */
  range?: string;
}

/**
 * How a manifest object assembles its content from other objects of the same tenant: a static
 * list of segments (SLO, kept in the record: the manifest has no bytes of its own), or every
 * object of a container under a prefix, in name order (DLO, resolved at read time).
 */
export type Manifest =
  | {
      kind: 'slo';
      size: number;
      segments: SloSegment[];
      /**
       * The byte length of the manifest document as Swift stores it (`manifestDocument`): what
       * bytes-used counts for the manifest, as Swift's container counts its stored manifest.
       * Absent in manifests stored before it was kept, which are counted as 0, as they were.
       */
      documentBytes?: number;
      /** The MD5 of that document (Swift's X-Manifest-Etag); absent in manifests stored before it was kept. */
      documentEtag?: string;
    }
  | DloTarget;

/**
 * A DLO: its segments are `container`'s objects under `prefix`. `header` is X-Object-Manifest as
 * the client sent it, which Swift sends back unchanged (absent in manifests stored before it was kept).
 */
export interface DloTarget {
  kind: 'dlo';
  container: string;
  prefix: string;
  header?: string;
}

/** What readers of an ObjectInfo learn about a manifest (listings stay light: no segment list). */
export type ManifestSummary = { kind: 'slo'; segments: number } | DloTarget;

export interface ObjectRecord {
  /** Version id; null is the "null" version of unversioned or suspended containers. */
  versionId: string | null;
  seq: number;
  size: number;
  etag: string;
  /** Microseconds since the epoch. */
  mtime: number;
  contentType: string;
  headers: StandardHeaders;
  meta: Record<string, string>;
  data: DataRef;
  deleteMarker?: boolean;
  deleteAt?: number;
  publicRead?: boolean;
  /** The version's S3 ACL when one was set (acl.ts); absent: the one `publicRead` implies. */
  grants?: Grant[];
  checksums?: Checksums;
  /** Absent: FULL_OBJECT (what every single upload's checksum is). */
  checksumType?: ChecksumType;
  /** A multipart object's parts' checksums, in order (when its upload had a checksum algorithm). */
  partChecksums?: Checksums[];
  parts?: number;
  /** S3 object tags of this version. */
  tags?: Tag[];
  /** The multipart upload that made this version: a retried CompleteMultipartUpload finds its result here. */
  uploadId?: string;
  /**
   * A large-object manifest. For an SLO, `size` is 0 (it stores no bytes; bytes-used counts its
   * document's bytes, as Swift does: see ops/usage.ts countedSize) and `etag` the SLO ETag.
   */
  manifest?: Manifest;
  /** S3 Object Lock retention of this version (object-lock.ts decides what it forbids). */
  retention?: ObjectRetention;
  /** S3 legal hold: true ON, false OFF as set; absent when never set. */
  legalHold?: boolean;
  /** A symlink (Swift's symlink middleware): a zero-byte object naming the object it stands for. */
  link?: SymlinkTarget;
}

/**
 * Where a symlink points, as its PUT named it (Swift's X-Symlink-Target*): `account` only when
 * given (else the link's own), `etag` and `bytes` only for a static link, which must find that
 * very object (its ETag) when followed.
 */
export interface SymlinkTarget {
  account?: string;
  container: string;
  object: string;
  etag?: string;
  bytes?: number;
}

/** What a listing shows of an object (all that Swift and S3 listings carry; a symlink's target for Swift's). */
export type ListedObject = Pick<ObjectInfo, 'container' | 'name' | 'size' | 'etag' | 'lastModified' | 'mtimeMicros' | 'contentType' | 'link' | 'manifestEtag'>;

export interface ObjectInfo {
  container: string;
  name: string;
  size: number;
  etag: string;
  /** Milliseconds since the epoch (Date-compatible). */
  lastModified: number;
  /** Microseconds since the epoch, for X-Timestamp precision. */
  mtimeMicros: number;
  contentType: string;
  headers: StandardHeaders;
  meta: Record<string, string>;
  versionId: string | null;
  isLatest: boolean;
  deleteMarker: boolean;
  deleteAt?: number;
  publicRead: boolean;
  /** The version's S3 ACL when one was set; absent: the one `publicRead` implies (acl.ts effectiveGrants). */
  grants?: Grant[];
  checksums: Checksums;
  checksumType: ChecksumType;
  partsCount?: number;
  /** Sizes of the parts of an object made by a multipart upload, in order. */
  partSizes?: number[];
  /** Their checksums, when the upload had a checksum algorithm. */
  partChecksums?: Checksums[];
  /** The version's S3 tags, when it has any. */
  tags?: Tag[];
  /**
   * Set for SLO/DLO manifests. `size` and `etag` are those of the assembled object, except for a
   * DLO in a listing, which shows the manifest's own (resolving it would mean listing its segments).
   */
  manifest?: ManifestSummary;
  /**
   * An SLO's stored manifest document's MD5 (Swift's X-Manifest-Etag, and the `hash` its listings
   * show beside `slo_etag`); absent for manifests stored before it was kept.
   */
  manifestEtag?: string;
  /** The version's Object Lock retention and legal hold, when set. */
  retention?: ObjectRetention;
  legalHold?: boolean;
  link?: SymlinkTarget;
}

export interface ContainerInfo {
  name: string;
  tenant: string;
  owner: string;
  created: number;
  lastModified: number;
  meta: Record<string, string>;
  publicRead: boolean;
  acl: { read?: string; write?: string };
  /** The container's S3 ACL (acl.ts). */
  grants: Grant[];
  policy: string | null;
  versioning: VersioningState;
  quota: Quota;
  storagePolicy: string;
  lifecycle?: LifecycleRule[];
  cors?: CorsRule[];
  archive?: LegacyArchive;
  usage: Usage;
  tags?: Tag[];
  objectLock?: ObjectLockConfig;
}

export interface AccountInfo {
  id: string;
  tenant: string;
  name: string;
  displayName: string;
  created: number;
  meta: Record<string, string>;
  quota: Quota;
  keys: AccessKey[];
  swiftKeys: SwiftKey[];
  maxContainers: number;
  acl?: AccountAcl;
  usage: Usage & { containers: number };
}

/** A container is found by its tenant (one namespace per tenant) and its name. */
export interface ContainerRef {
  tenant: string;
  container: string;
}

export function roundUp4k(n: number): number {
  return Math.ceil(n / 4096) * 4096;
}
