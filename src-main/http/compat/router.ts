import { decodeStrict } from '../common/url.js';
import type { S3OpName } from './operation.js';

/** Where an S3 request points: the service, a bucket, or an object. */
export interface S3Address {
  /** Bucket name (undefined: the service). */
  bucket?: string;
  /** Explicit tenant from `/tenant:bucket` (path style only). */
  tenant?: string;
  /** Object key (undefined: the bucket itself). */
  key?: string;
  /** How the bucket was named, for anonymous-access rules (virtual-host needs credentials). */
  style: 'path' | 'virtual-host';
}

export type Addressing = S3Address | { invalid: 'InvalidURI' | 'InvalidBucketName' };

/** The bucket named by the Host header: `<bucket>.<domain>` for the configured domain, and `<bucket>.localhost`. */
export function bucketFromHost(host: string | undefined, domain: string | undefined): string | undefined {
  if (!host) return undefined;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  for (const suffix of [domain, 'localhost']) {
    if (suffix && name.endsWith(`.${suffix.toLowerCase()}`)) {
      const bucket = name.slice(0, -(suffix.length + 1));
      if (bucket) return bucket;
    }
  }
  return undefined;
}

/**
 * Parses the bucket and key (§15). The path is percent-decoded once and never normalised:
 * `a//b`, `./` and a trailing `/` are part of the key.
 */
export function parseAddress(rawPath: string, host: string | undefined, domain: string | undefined): Addressing {
  const path = decodeStrict(rawPath);
  if (path === undefined || path.includes('\0') || !path.startsWith('/')) return { invalid: 'InvalidURI' };
  const hostBucket = bucketFromHost(host, domain);
  if (hostBucket !== undefined) {
    const key = path.slice(1);
    return { bucket: hostBucket, style: 'virtual-host', ...(key ? { key } : {}) };
  }
  const rest = path.slice(1);
  if (rest === '') return { style: 'path' };
  const slash = rest.indexOf('/');
  const first = slash < 0 ? rest : rest.slice(0, slash);
  const key = slash < 0 ? '' : rest.slice(slash + 1);
  const colon = first.indexOf(':');
  const tenant = colon < 0 ? undefined : first.slice(0, colon);
  const bucket = colon < 0 ? first : first.slice(colon + 1);
  if (!bucket) return { invalid: 'InvalidBucketName' };
  return { bucket, style: 'path', ...(tenant !== undefined ? { tenant } : {}), ...(key ? { key } : {}) };
}

/** Bucket sub-resources clients probe; answered as "not configured" (§20). */
export const NOT_CONFIGURED = ['website', 'encryption', 'publicAccessBlock', 'logging', 'requestPayment', 'ownershipControls'];
const UNSUPPORTED = [
  'notification', 'replication', 'accelerate', 'analytics', 'inventory', 'metrics', 'intelligent-tiering',
  'restore', 'select', 'torrent', 'attributes', 'legal-hold', 'retention', 'object-lock', 'website', 'cors', 'lifecycle',
];

/**
 * Sub-resources S3 has no DELETE for: such a request is 405 MethodNotAllowed (as Swift's s3api,
 * written against AWS, answers), never a delete of the bucket or object it names.
 */
const NO_DELETE_BUCKET = ['acl', 'versioning', 'location', 'uploads', 'versions'];
const NO_DELETE_OBJECT = ['acl', 'retention', 'legal-hold', 'attributes', 'restore', 'select', 'torrent'];

/** Chooses the operation from the method, the address and the sub-resource in the query (§15, §20-§24). */
export function operationName(method: string, a: S3Address, query: Map<string, string>, header: (h: string) => string | undefined): S3OpName {
  const has = (q: string) => query.has(q);
  if (a.bucket === undefined) {
    if (method === 'GET') return 'ListBuckets';
    if (method === 'HEAD') return 'HeadService';
    return 'MethodNotAllowed';
  }
  if (a.key === undefined) {
    switch (method) {
      case 'GET':
        if (has('location')) return 'GetBucketLocation';
        if (has('versioning')) return 'GetBucketVersioning';
        if (has('acl')) return 'GetBucketAcl';
        if (has('policyStatus')) return 'GetBucketPolicyStatus';
        if (has('policy')) return 'GetBucketPolicy';
        if (has('lifecycle')) return 'GetBucketLifecycle';
        if (has('cors')) return 'GetBucketCors';
        if (has('uploads')) return 'ListMultipartUploads';
        if (has('versions')) return 'ListObjectVersions';
        if (has('tagging')) return 'GetBucketTagging';
        if (has('object-lock')) return 'GetObjectLockConfiguration';
        if (NOT_CONFIGURED.some(has)) return 'NotConfigured';
        if (UNSUPPORTED.some(has)) return 'NotImplemented';
        return query.get('list-type') === '2' ? 'ListObjectsV2' : 'ListObjects';
      case 'HEAD':
        return 'HeadBucket';
      case 'PUT':
        if (has('versioning')) return 'PutBucketVersioning';
        if (has('acl')) return 'PutBucketAcl';
        if (has('policy')) return 'PutBucketPolicy';
        if (has('lifecycle')) return 'PutBucketLifecycle';
        if (has('cors')) return 'PutBucketCors';
        if (has('tagging')) return 'PutBucketTagging';
        if (has('object-lock')) return 'PutObjectLockConfiguration';
        if ([...NOT_CONFIGURED, ...UNSUPPORTED].some(has)) return 'NotImplemented';
        return 'CreateBucket';
      case 'DELETE':
        if (has('policy')) return 'DeleteBucketPolicy';
        if (has('lifecycle')) return 'DeleteBucketLifecycle';
        if (has('cors')) return 'DeleteBucketCors';
        if (has('tagging')) return 'DeleteBucketTagging';
        if (NO_DELETE_BUCKET.some(has)) return 'MethodNotAllowed';
        if ([...NOT_CONFIGURED, ...UNSUPPORTED].some(has)) return 'NotConfigured';
        return 'DeleteBucket';
      case 'POST':
        if (has('delete')) return 'DeleteObjects';
        // A multipart upload needs a key; any other POST to a bucket is a browser's form upload
        // (POST Object), whatever its type (AWS refuses a type that is not a form as that upload's).
        return has('uploads') ? 'MethodNotAllowed' : 'PostObject';
      case 'OPTIONS':
        return 'PreflightCors';
      default:
        return 'MethodNotAllowed';
    }
  }
  switch (method) {
    case 'GET':
      if (has('acl')) return 'GetObjectAcl';
      if (has('uploadId')) return 'ListParts';
      if (has('tagging')) return 'GetObjectTagging';
      if (has('attributes')) return 'GetObjectAttributes';
      if (has('retention')) return 'GetObjectRetention';
      if (has('legal-hold')) return 'GetObjectLegalHold';
      if (UNSUPPORTED.some(has)) return 'NotImplemented';
      return 'GetObject';
    case 'HEAD':
      return 'HeadObject';
    case 'PUT':
      if (has('acl')) return 'PutObjectAcl';
      if (has('uploadId') || has('partNumber')) return header('x-amz-copy-source') !== undefined ? 'UploadPartCopy' : 'UploadPart';
      if (has('tagging')) return 'PutObjectTagging';
      if (has('retention')) return 'PutObjectRetention';
      if (has('legal-hold')) return 'PutObjectLegalHold';
      if (UNSUPPORTED.some(has)) return 'NotImplemented';
      return header('x-amz-copy-source') !== undefined ? 'CopyObject' : 'PutObject';
    case 'POST':
      if (has('uploads')) return 'CreateMultipartUpload';
      if (has('uploadId')) return 'CompleteMultipartUpload';
      return 'NotImplemented';
    case 'DELETE':
      if (has('uploadId')) return 'AbortMultipartUpload';
      if (has('tagging')) return 'DeleteObjectTagging';
      if (NO_DELETE_OBJECT.some(has)) return 'MethodNotAllowed';
      return 'DeleteObject';
    case 'OPTIONS':
      return 'PreflightCors';
    default:
      return 'MethodNotAllowed';
  }
}
