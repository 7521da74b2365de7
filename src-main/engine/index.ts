/**
 * The engine as the rest of Coffer sees it: the facade (Engine), the values it takes and returns,
 * and the few rules its callers publish or render (limits, a name's type). Everything outside
 * src-main/engine imports the engine from here only; lint refuses imports of its internals
 * (ops/, blobs/, index/, context.ts...) from outside (eslint.config.js).
 *
 * Not to be confused with index/, the directory of the LMDB index: imports name this file
 * `engine/index.js`, which Node's ESM resolution and TypeScript read as this file, never the
 * directory (ESM resolves no directory imports).
 */
// First, so the bound on the heap's growth is set before the modules after it load (heap-growth.ts).
export { BULK_BODY_BYTES, bodyInFlight, heapGrowthBounded } from './heap-growth.js';
export { Engine } from './engine.js';
export type { EngineOptions, EngineEvents, ObjectsChanged } from './context.js';
export { typeFromName } from './content-type.js';
export { CHECKSUM_NAMES, verifyBytes, type DigestExpectations } from './blobs/digests.js';
export { multipartEtag } from './blobs/hashing.js';
export { combineCrcs } from './blobs/crc.js';
export { returnBlobBuffer } from './blobs/buffers.js';
// Who may do what to a container: the one access decision both front ends and the backends' "public"
// summaries share.
export {
  accountRole,
  actsAsOwner,
  allowed,
  decide,
  mayLearnAbsence,
  namesCaller,
  objectGrantsOf,
  objectIsPublic,
  publicAccess,
  segmentReader,
  type AccessQuestion,
  type AccountAction,
  type AccountQuestion,
  type Action,
  type ContainerQuestion,
  type Identity,
  type PolicyFacts,
} from './access.js';
export { parsePolicy, policyIsPublic, type ConditionContext } from './policy.js';

export {
  CANNED_ACLS,
  PERMISSIONS,
  cannedGrants,
  effectiveGrants,
  grantsPermit,
  resolveAcl,
  type AclGroup,
  type AclSpec,
  type CannedAcl,
  type Grant,
  type Permission,
} from './acl.js';
export type { AclChange } from './ops/object-acl.js';

export {
  CHECKSUM_ALGORITHMS,
  UNLIMITED,
  roundUp4k,
  type AccountAcl,
  type AccountInfo,
  type ChecksumAlgorithm,
  type ChecksumType,
  type Checksums,
  type ContainerInfo,
  type ContainerRef,
  type ListedObject,
  type ManifestSummary,
  type SloSegment,
  type ObjectInfo,
  type Quota,
  type StandardHeaders,
  type SymlinkTarget,
  type Tag,
  type LegacyArchive,
  type Usage,
  type VersioningState,
} from './types.js';

// Operations' parameters and results.
export type { CreateAccountInput } from './ops/accounts.js';
export { BULK_DELETE_LIMITS, type DeleteCheck, type DeleteFailure, type DeleteReport, type DeleteTarget } from './ops/bulk-delete.js';
export type { ContainerListParams, ContainerSettings, MetaPatch } from './ops/containers.js';
export type { AccountEntry } from './ops/account-listing.js';
export type { CopyOptions, CopyResult } from './ops/copy-object.js';
export type { DeleteOptions, DeleteResult } from './ops/delete-object.js';
export type { SegmentReadCheck } from './ops/large-object-read.js';
export { manifestDocument, SLO_LIMITS, sloProblems, type SegmentProblem, type SegmentProblemEntry, type SegmentRange, type SloPutOptions, type SloSegmentSpec } from './ops/large-objects.js';
export { MAX_LIST_LIMIT, type ListEntry, type ListPage, type ListParams } from './ops/list-objects.js';
export type { UploadPage } from './ops/list-uploads.js';
export type { LifecycleReport } from './ops/lifecycle-sweep.js';
export { corsProblem, matchCors, wildcardMatch, CORS_METHODS, type CorsProblem, type CorsRule } from './cors.js';
export {
  defaultRetentionProblem,
  isLocked,
  RETENTION_MODES,
  type DefaultRetention,
  type LockSettings,
  type ObjectLockConfig,
  type ObjectRetention,
  type RetentionMode,
} from './object-lock.js';
export type { VersionLock } from './ops/object-lock.js';
export { currentExpiry, lifecycleProblem, DAY_MS, type LifecycleFilterForm, type LifecycleProblem, type LifecycleRule } from './lifecycle.js';
export type { VersionEntry, VersionListParams, VersionPage } from './ops/list-versions.js';
export type { CompletedPart, PartInfo, UploadInfo } from './ops/multipart.js';
export { uploadChecksum, type UploadChecksum } from './ops/multipart-checksums.js';
export { MAX_DELETE_AT, type ObjectFields, type PutOptions, type RequestFields } from './ops/put-object.js';
export { rangeMeansWholeEmpty, resolveRange, type ByteRange, type ObjectRead, type RangeRequest, type ReadOptions } from './ops/read-object.js';
export type { Body, ReceiveOptions } from './ops/receive-body.js';
export type { RecoveryReport } from './ops/recovery.js';
export { TAG_LIMITS } from './ops/tagging.js';
