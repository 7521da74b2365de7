import type { CofferError } from '../../../src-shared/errors.js';
import type { AclSpec, Action, ChecksumAlgorithm, Checksums, LockSettings, RangeRequest, RequestFields, UploadChecksum } from '../../engine/index.js';
import type { ConditionalHeaders } from '../common/conditionals.js';
import type { S3Error } from './errors.js';
import type { WriteConditions } from './params.js';
import type { S3Address } from './router.js';

/**
 * What a request body must be for an object upload, read from its headers (§18): the framing
 * (aws-chunked or plain), the length and the digests the engine checks as the bytes arrive.
 */
export interface PayloadSpec {
  /** Known length of the decoded body (Content-Length, or x-amz-decoded-content-length). */
  size: number | undefined;
  expectedMd5: string | undefined;
  expectedChecksums: Checksums;
  checksumAlgorithms: ChecksumAlgorithm[];
  /** The signed payload hash (lowercase hex). */
  contentSha256: string | undefined;
  /** aws-chunked framing: whether chunks are signed (SigV4 header auth only) and a trailer follows. */
  chunked: { signed: boolean; trailer: boolean } | undefined;
}

/**
 * The integrity headers of a small document (XML, policy JSON), checked once the body is read,
 * in the order AWS checks them. A malformed header is kept as its error, raised at that point.
 */
export interface DocumentCheck {
  streaming: boolean;
  sha256: string | undefined;
  checksums: Checksums | S3Error;
  md5: string | undefined | S3Error;
}

/** `x-amz-copy-source` parsed: the tenant, when named, else the caller's (known after authentication). */
export interface CopySource {
  tenant: string | undefined;
  bucket: string;
  key: string;
  versionId: string | undefined;
}

/** What a ListObjects page asks for; names echo back encoded when `encodingType` is 'url'. */
export interface ListParams {
  encodingType: 'url' | undefined;
  maxKeys: number;
  prefix: string | undefined;
  delimiter: string | undefined;
}

/** The answer to a sub-resource this server does not configure (§20), decided from the request alone. */
export type NotConfiguredAnswer =
  | { kind: 'empty' }
  | { kind: 'logging' }
  | { kind: 'request-payment' }
  | { kind: 'missing'; code: string; message: string }
  | { kind: 'not-implemented' };

export interface NotConfiguredParams {
  answer: NotConfiguredAnswer;
}

type Op<N extends string, P = object> = { name: N; address: S3Address } & P;

/**
 * Every request the compatible API answers, with all it carries (Garage's `Endpoint`). Parameters
 * that failed to parse are kept as `invalid`: raised after the access decision, as the handlers
 * raised them, so an unauthorised caller still learns nothing but AccessDenied.
 */
export type S3Operation = (
  | Op<'ListBuckets', { maxBuckets: number | undefined; after: string | undefined; prefix: string | undefined }>
  | Op<'HeadService'>
  | Op<'CreateBucket', { acl: AclSpec | undefined; document: DocumentCheck; objectLock: boolean }>
  | Op<'DeleteBucket'>
  | Op<'HeadBucket'>
  | Op<'GetBucketLocation'>
  | Op<'GetBucketVersioning'>
  | Op<'PutBucketVersioning', { document: DocumentCheck }>
  | Op<'GetBucketAcl'>
  | Op<'PutBucketAcl', { acl: AclSpec | undefined; document: DocumentCheck }>
  | Op<'GetBucketPolicy'>
  | Op<'PutBucketPolicy', { document: DocumentCheck }>
  | Op<'DeleteBucketPolicy'>
  | Op<'GetBucketPolicyStatus'>
  | Op<'GetBucketLifecycle'>
  | Op<'PutBucketLifecycle', { document: DocumentCheck }>
  | Op<'DeleteBucketLifecycle'>
  | Op<'GetBucketCors'>
  | Op<'PutBucketCors', { document: DocumentCheck }>
  | Op<'DeleteBucketCors'>
  | Op<'PreflightCors', { origin: string | undefined; requestMethod: string | undefined; requestHeaders: string[] }>
  | Op<'ListObjects', { list: ListParams; marker: string | undefined }>
  | Op<'ListObjectsV2', { list: ListParams; continuationToken: string | undefined; startAfter: string | undefined; marker: string | undefined; fetchOwner: boolean }>
  | Op<'ListObjectVersions', { list: ListParams; keyMarker: string | undefined; versionIdMarker: string | undefined }>
  | Op<'ListMultipartUploads', { list: ListParams; keyMarker: string | undefined; uploadIdMarker: string | undefined }>
  | Op<'DeleteObjects', { document: DocumentCheck; bypassGovernance: boolean }>
  | Op<'NotConfigured', NotConfiguredParams>
  /** A browser's form upload (POST Object): `boundary` undefined when the body is not multipart/form-data. */
  | Op<'PostObject', { boundary: string | undefined }>
  | Op<'PutObject', { payload: PayloadSpec; fields: RequestFields; acl: AclSpec | undefined; conditions: WriteConditions; lock: LockSettings | undefined }>
  | Op<'CopyObject', {
      source: CopySource;
      sourceConditions: ConditionalHeaders;
      directive: 'COPY' | 'REPLACE';
      taggingDirective: 'COPY' | 'REPLACE';
      fields: RequestFields;
      acl: AclSpec | undefined;
      lock: LockSettings | undefined;
      /** If-Match / If-None-Match on the destination (AWS's conditional copy), as PutObject's. */
      conditions: WriteConditions;
    }>
  | Op<'GetObject', GetParams>
  | Op<'HeadObject', GetParams>
  | Op<'DeleteObject', { versionId: string | undefined; bypassGovernance: boolean }>
  | Op<'GetObjectAcl', { versionId: string | undefined }>
  | Op<'PutObjectAcl', { acl: AclSpec | undefined; document: DocumentCheck; versionId: string | undefined }>
  | Op<'GetObjectTagging', { versionId: string | undefined }>
  | Op<'PutObjectTagging', { versionId: string | undefined; document: DocumentCheck }>
  | Op<'DeleteObjectTagging', { versionId: string | undefined }>
  | Op<'GetBucketTagging'>
  | Op<'GetObjectAttributes', { versionId: string | undefined; attributes: ObjectAttribute[]; maxParts: number; partNumberMarker: number }>
  | Op<'PutBucketTagging', { document: DocumentCheck }>
  | Op<'DeleteBucketTagging'>
  | Op<'CreateMultipartUpload', { fields: RequestFields; acl: AclSpec | undefined; checksum: UploadChecksum | undefined; lock: LockSettings | undefined }>
  | Op<'UploadPart', { uploadId: string; partNumber: number; payload: PayloadSpec }>
  | Op<'UploadPartCopy', { uploadId: string; partNumber: number; source: CopySource; sourceConditions: ConditionalHeaders; sourceRange: CopyRange | undefined }>
  | Op<'CompleteMultipartUpload', { uploadId: string; document: DocumentCheck; host: string | undefined; objectChecksums: Checksums; conditions: WriteConditions }>
  | Op<'AbortMultipartUpload', { uploadId: string }>
  | Op<'ListParts', { uploadId: string; maxParts: number; partNumberMarker: string | undefined; after: number | undefined }>
  // S3 Object Lock (issue 26): the bucket's configuration, a version's retention and legal hold.
  | Op<'GetObjectLockConfiguration'>
  | Op<'PutObjectLockConfiguration', { document: DocumentCheck }>
  | Op<'GetObjectRetention', { versionId: string | undefined }>
  | Op<'PutObjectRetention', { versionId: string | undefined; document: DocumentCheck; bypassGovernance: boolean }>
  | Op<'GetObjectLegalHold', { versionId: string | undefined }>
  | Op<'PutObjectLegalHold', { versionId: string | undefined; document: DocumentCheck }>
  | Op<'NotImplemented'>
  | Op<'MethodNotAllowed'>
) & {
  /** The first parameter that failed to parse (raised after authentication and the access decision). */
  invalid?: S3Error | CofferError;
  /** A request for server-side encryption (refused once the caller is known, §18.5). */
  encryption?: S3Error;
  /** The Origin of a cross-origin request: the bucket's CORS rules may grant it (headers on the answer). */
  corsOrigin?: string;
};

export interface GetParams {
  versionId: string | undefined;
  range: RangeRequest | undefined;
  /** `?partNumber=N`: part N of a multipart object. */
  partNumber: number | undefined;
  conditions: ConditionalHeaders;
  /** `response-*` overrides, as [query name, response header, value]. */
  overrides: [string, string, string][];
  checksumMode: boolean;
}

/** `x-amz-copy-source-range` when given: `bytes=first-last`, or the malformed value (refused once the source is known, as AWS does). */
export type CopyRange = { start: number; end: number } | { malformed: string };

/** What GetObjectAttributes may be asked for (x-amz-object-attributes). */
export const OBJECT_ATTRIBUTES = ['ETag', 'Checksum', 'ObjectParts', 'StorageClass', 'ObjectSize'] as const;
export type ObjectAttribute = (typeof OBJECT_ATTRIBUTES)[number];

export type S3OpName = S3Operation['name'];
export type OpOf<N extends S3OpName> = Extract<S3Operation, { name: N }>;

/** Operations on the caller's own account, or on no bucket yet: no container, no access question. */
export type ServiceOpName = 'ListBuckets' | 'HeadService' | 'CreateBucket' | 'NotImplemented' | 'MethodNotAllowed';
export type BucketOpName = Exclude<S3OpName, ServiceOpName>;

/** What each bucket or object operation asks of the access module on its bucket. Exhaustive by type. */
export const ACCESS: Record<BucketOpName, Action | 'none'> = {
  DeleteBucket: 'admin',
  HeadBucket: 'list',
  GetBucketLocation: 'admin',
  GetBucketVersioning: 'admin',
  PutBucketVersioning: 'admin',
  GetBucketAcl: 'read-acl',
  PutBucketAcl: 'write-acl',
  GetBucketPolicy: 'admin',
  PutBucketPolicy: 'admin',
  DeleteBucketPolicy: 'admin',
  GetBucketPolicyStatus: 'admin',
  GetBucketLifecycle: 'admin',
  PutBucketLifecycle: 'admin',
  DeleteBucketLifecycle: 'admin',
  GetBucketCors: 'admin',
  PutBucketCors: 'admin',
  DeleteBucketCors: 'admin',
  // Browsers send preflights without credentials: the bucket's CORS rules are the owner's answer.
  PreflightCors: 'none',
  ListObjects: 'list',
  ListObjectsV2: 'list',
  ListObjectVersions: 'admin',
  ListMultipartUploads: 'admin',
  DeleteObjects: 'write-object',
  NotConfigured: 'admin',
  // Who posts is in the form, read by the handler, which asks the access decision itself.
  PostObject: 'none',
  PutObject: 'write-object',
  CopyObject: 'write-object',
  GetObject: 'read-object',
  HeadObject: 'read-object',
  DeleteObject: 'write-object',
  GetObjectAcl: 'read-object-acl',
  PutObjectAcl: 'write-object-acl',
  // No ACL grants these (AWS maps object READ to s3:GetObject and bucket WRITE to s3:PutObject and
  // s3:DeleteObject only): the owner's, or what a bucket policy allows.
  GetObjectTagging: 'admin',
  GetObjectAttributes: 'admin',
  PutObjectTagging: 'admin',
  DeleteObjectTagging: 'admin',
  GetBucketTagging: 'admin',
  PutBucketTagging: 'admin',
  DeleteBucketTagging: 'admin',
  CreateMultipartUpload: 'write-object',
  UploadPart: 'write-object',
  UploadPartCopy: 'write-object',
  CompleteMultipartUpload: 'write-object',
  AbortMultipartUpload: 'write-object',
  ListParts: 'write-object',
  // No ACL grants object lock's operations (AWS maps none to an ACL permission): the owner's, or a policy's.
  GetObjectLockConfiguration: 'admin',
  PutObjectLockConfiguration: 'admin',
  GetObjectRetention: 'admin',
  PutObjectRetention: 'admin',
  GetObjectLegalHold: 'admin',
  PutObjectLegalHold: 'admin',
};

/**
 * The action a bucket policy names for each operation (AWS's "actions, resources and condition
 * keys" table); undefined: no policy grants it (the owner's alone). `[current, a version's]`
 * where a request for one version is its own action.
 */
export const POLICY_ACTION: Record<BucketOpName, string | [string, string] | undefined> = {
  DeleteBucket: 's3:DeleteBucket',
  HeadBucket: 's3:ListBucket',
  GetBucketLocation: 's3:GetBucketLocation',
  GetBucketVersioning: 's3:GetBucketVersioning',
  PutBucketVersioning: 's3:PutBucketVersioning',
  GetBucketAcl: 's3:GetBucketAcl',
  PutBucketAcl: 's3:PutBucketAcl',
  GetBucketPolicy: 's3:GetBucketPolicy',
  PutBucketPolicy: 's3:PutBucketPolicy',
  DeleteBucketPolicy: 's3:DeleteBucketPolicy',
  GetBucketPolicyStatus: 's3:GetBucketPolicyStatus',
  GetBucketLifecycle: 's3:GetLifecycleConfiguration',
  PutBucketLifecycle: 's3:PutLifecycleConfiguration',
  DeleteBucketLifecycle: 's3:PutLifecycleConfiguration',
  GetBucketCors: 's3:GetBucketCORS',
  PutBucketCors: 's3:PutBucketCORS',
  DeleteBucketCors: 's3:PutBucketCORS',
  PreflightCors: undefined,
  ListObjects: 's3:ListBucket',
  ListObjectsV2: 's3:ListBucket',
  ListObjectVersions: 's3:ListBucketVersions',
  ListMultipartUploads: 's3:ListBucketMultipartUploads',
  DeleteObjects: 's3:DeleteObject',
  NotConfigured: undefined,
  PostObject: 's3:PutObject',
  PutObject: 's3:PutObject',
  CopyObject: 's3:PutObject',
  GetObject: ['s3:GetObject', 's3:GetObjectVersion'],
  HeadObject: ['s3:GetObject', 's3:GetObjectVersion'],
  DeleteObject: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
  GetObjectAcl: ['s3:GetObjectAcl', 's3:GetObjectVersionAcl'],
  PutObjectAcl: ['s3:PutObjectAcl', 's3:PutObjectVersionAcl'],
  GetObjectTagging: ['s3:GetObjectTagging', 's3:GetObjectVersionTagging'],
  GetObjectAttributes: ['s3:GetObjectAttributes', 's3:GetObjectVersionAttributes'],
  PutObjectTagging: ['s3:PutObjectTagging', 's3:PutObjectVersionTagging'],
  DeleteObjectTagging: ['s3:DeleteObjectTagging', 's3:DeleteObjectVersionTagging'],
  GetBucketTagging: 's3:GetBucketTagging',
  PutBucketTagging: 's3:PutBucketTagging',
  // AWS asks s3:PutBucketTagging of a DeleteBucketTagging (there is no s3:DeleteBucketTagging).
  DeleteBucketTagging: 's3:PutBucketTagging',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  UploadPartCopy: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  AbortMultipartUpload: 's3:AbortMultipartUpload',
  ListParts: 's3:ListMultipartUploadParts',
  // One action for a version and the current object alike (AWS has no *Version* variants of these).
  GetObjectLockConfiguration: 's3:GetBucketObjectLockConfiguration',
  PutObjectLockConfiguration: 's3:PutBucketObjectLockConfiguration',
  GetObjectRetention: 's3:GetObjectRetention',
  PutObjectRetention: 's3:PutObjectRetention',
  GetObjectLegalHold: 's3:GetObjectLegalHold',
  PutObjectLegalHold: 's3:PutObjectLegalHold',
};

/**
 * What `x-amz-bypass-governance-retention` asks on top of its operation (DeleteObject,
 * DeleteObjects, PutObjectRetention): the owner may, others where a bucket policy allows it.
 */
export const BYPASS_GOVERNANCE_ACTION = 's3:BypassGovernanceRetention';

export const isServiceOp = (name: S3OpName): name is ServiceOpName => !(name in ACCESS);

/** What an operation asks of the access module: an Action on its bucket, or 'service' (the caller's own account). */
export function accessOf(name: S3OpName): Action | 'none' | 'service' {
  return isServiceOp(name) ? 'service' : ACCESS[name];
}
