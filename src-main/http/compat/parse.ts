import { isCofferError, type CofferError } from '../../../src-shared/errors.js';
import { S3Error, s3 } from './errors.js';
import { encryptionRefusal } from './encryption.js';
import { OBJECT_ATTRIBUTES, type DocumentCheck, type ListParams, type NotConfiguredAnswer, type ObjectAttribute, type PayloadSpec, type S3OpName, type S3Operation } from './operation.js';
import {
  conditions, copyRange, copySource, encodingType, headerOf, int32Param, maxKeys, objectFields, readPartNumber, responseOverrides,
  uploadPartNumber, writeConditions, type RequestHeaders,
} from './params.js';
import { aclFromHeaders } from './acl-input.js';
import { documentCheck, payloadSpec, requireIntegrityHeader, uploadChecksumOf } from './payload.js';
import { bypassAsked, lockHeaders } from './lock-input.js';
import { operationName, parseAddress, type S3Address } from './router.js';
import { ParamReader } from '../common/param-reader.js';
import { parseContentDisposition } from '../common/multipart.js';
import { parseRange } from '../common/range.js';

/** `x-amz-object-attributes`: a comma-separated list of known names, at least one. */
function objectAttributes(value: string | undefined): ObjectAttribute[] {
  if (value === undefined || value.trim() === '') throw s3.invalidArgument('Missing required header for this request: x-amz-object-attributes');
  const names = value.split(',').map((n) => n.trim());
  for (const n of names) if (!(OBJECT_ATTRIBUTES as readonly string[]).includes(n)) throw s3.invalidArgument('Invalid attribute name specified.');
  return names as ObjectAttribute[];
}

/** What parsing needs of a request: nothing but its head. */
export interface S3Request {
  method: string;
  rawPath: string;
  rawQuery: string;
  /** Decoded query parameters; undefined when the query string itself is malformed. */
  query: Map<string, string> | undefined;
  headers: RequestHeaders;
  /** Domain for virtual-host style addressing. */
  domain: string | undefined;
}

/** The protocol's own refusals: what a parameter that does not parse is answered with. */
const refusal = (err: unknown): err is S3Error | CofferError => err instanceof S3Error || isCofferError(err);
type Reader = ParamReader<S3Error | CofferError>;

/** Bucket sub-resources answered as "not configured", and AWS's code when one is asked for (§20). */
const MISSING: Record<string, [string, string]> = {
  website: ['NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration'],
  encryption: ['ServerSideEncryptionConfigurationNotFoundError', 'The server side encryption configuration was not found'],
  publicAccessBlock: ['NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found'],
  ownershipControls: ['OwnershipControlsNotFoundError', 'The bucket ownership controls were not found'],
};

function notConfigured(method: string, has: (q: string) => boolean): NotConfiguredAnswer {
  if (method === 'DELETE') return { kind: 'empty' };
  if (has('logging')) return { kind: 'logging' };
  if (has('requestPayment')) return { kind: 'request-payment' };
  const sub = Object.keys(MISSING).find(has);
  if (!sub) return { kind: 'not-implemented' };
  const [code, message] = MISSING[sub]!;
  return { kind: 'missing', code, message };
}

/**
 * A request's operation and every parameter it carries (§15, §20-§24); pure, no engine and no
 * body. A path or query string that cannot be decoded throws (InvalidURI, InvalidBucketName),
 * before authentication as before.
 */
export function parseS3(req: S3Request): S3Operation {
  const parsed = parseAddress(req.rawPath, headerOf(req.headers, 'host'), req.domain);
  if ('invalid' in parsed) throw new S3Error(400, parsed.invalid, parsed.invalid === 'InvalidURI' ? "Couldn't parse the specified URI." : 'The specified bucket is not valid.');
  const query = req.query;
  if (!query) throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
  const h = (n: string) => headerOf(req.headers, n);
  const name = operationName(req.method, parsed, query, h);
  const r: Reader = new ParamReader(refusal);
  const op = withParams(name, req, parsed, query, r);
  if (r.invalid) op.invalid = r.invalid;
  const encryption = encryptionRefusal(req.headers, query, req.rawQuery);
  if (encryption) op.encryption = encryption;
  const origin = h('origin');
  if (origin) op.corsOrigin = origin;
  return op;
}

function withParams(name: S3OpName, req: S3Request, address: S3Address, query: Map<string, string>, r: Reader): S3Operation {
  const q = (n: string) => query.get(n);
  const h = (n: string) => headerOf(req.headers, n);
  const headers = req.headers;
  const doc = (): DocumentCheck => documentCheck(headers);
  const acl = () => r.read(() => aclFromHeaders(headers), undefined);
  const list = (limitName = 'max-keys'): ListParams => ({
    encodingType: r.read(() => encodingType(q('encoding-type')), undefined),
    maxKeys: r.read(() => maxKeys(q(limitName), limitName), 0),
    prefix: q('prefix'),
    delimiter: q('delimiter'),
  });
  const uploadId = q('uploadId') ?? '';
  const noFields = { meta: {}, headers: {} };
  const noConditions = { ifMatch: undefined, ifNoneMatch: undefined };
  const lock = () => r.read(() => lockHeaders(h), undefined);
  const noPayload: PayloadSpec = { size: undefined, expectedMd5: undefined, expectedChecksums: {}, checksumAlgorithms: [], contentSha256: undefined, chunked: undefined };
  switch (name) {
    case 'ListBuckets': {
      // AWS's paging of ListBuckets: max-buckets 1 to 10,000, an opaque continuation token (the
      // last name of the page before, base64url, as ListObjectsV2's), a prefix.
      const raw = q('max-buckets');
      const maxBuckets = r.read(() => {
        if (raw === undefined) return undefined;
        const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
        if (!(n >= 1 && n <= 10000)) throw s3.invalidArgument('Argument max-buckets must be an integer between 1 and 10000', { ArgumentName: 'max-buckets', ArgumentValue: raw });
        return n;
      }, undefined);
      const token = q('continuation-token');
      const after = r.read(() => {
        if (!token) return undefined;
        const decoded = Buffer.from(token, 'base64url').toString('utf8');
        if (Buffer.from(decoded, 'utf8').toString('base64url') !== token) throw s3.invalidArgument('The continuation token provided is incorrect', { ArgumentName: 'continuation-token' });
        return decoded;
      }, undefined);
      return { name, address, maxBuckets, after, prefix: q('prefix') };
    }
    case 'HeadService':
    case 'DeleteBucket':
    case 'HeadBucket':
    case 'GetBucketLocation':
    case 'GetBucketVersioning':
    case 'GetBucketAcl':
    case 'GetBucketPolicy':
    case 'DeleteBucketPolicy':
    case 'GetBucketPolicyStatus':
    case 'GetBucketLifecycle':
    case 'DeleteBucketLifecycle':
    case 'GetBucketCors':
    case 'DeleteBucketCors':
    case 'NotImplemented':
    case 'MethodNotAllowed':
      return { name, address };
    case 'CreateBucket':
      return { name, address, acl: acl(), document: doc(), objectLock: h('x-amz-bucket-object-lock-enabled')?.trim().toLowerCase() === 'true' };
    case 'PutBucketAcl':
      return { name, address, acl: acl(), document: doc() };
    case 'PutObjectAcl':
      return { name, address, acl: acl(), document: doc(), versionId: q('versionId') };
    case 'PutBucketVersioning':
    case 'PutBucketPolicy':
      return { name, address, document: doc() };
    case 'PutBucketLifecycle':
    case 'PutBucketCors':
      r.read(() => requireIntegrityHeader(headers), undefined);
      return { name, address, document: doc() };
    case 'PutObjectLockConfiguration':
      return { name, address, document: doc() };
    case 'DeleteObjects':
      r.read(() => requireIntegrityHeader(headers), undefined);
      return { name, address, document: doc(), bypassGovernance: bypassAsked(h) };
    case 'GetObjectLockConfiguration':
      return { name, address };
    case 'GetObjectRetention':
    case 'GetObjectLegalHold':
      return { name, address, versionId: q('versionId') };
    case 'PutObjectRetention':
      return { name, address, versionId: q('versionId'), document: doc(), bypassGovernance: bypassAsked(h) };
    case 'PutObjectLegalHold':
      return { name, address, versionId: q('versionId'), document: doc() };
    case 'CompleteMultipartUpload': {
      // Its x-amz-checksum-* is the whole object's (a FULL_OBJECT upload's), not the XML's.
      const document = doc();
      const objectChecksums = document.checksums instanceof S3Error ? {} : document.checksums;
      const conditions = r.read(() => writeConditions(headers), noConditions);
      return { name, address, uploadId, document: { ...document, checksums: {} }, host: h('host'), objectChecksums, conditions };
    }
    case 'ListObjects':
      return { name, address, list: list(), marker: q('marker') };
    case 'ListObjectsV2': {
      const params = list();
      const token = q('continuation-token');
      const fromToken = r.read(() => {
        // An empty token starts the listing, as AWS and RGW take it (some clients send one on the first page).
        if (token === undefined || token === '') return undefined;
        const decoded = Buffer.from(token, 'base64url').toString('utf8');
        if (Buffer.from(decoded, 'utf8').toString('base64url') !== token) throw s3.invalidArgument('The continuation token provided is incorrect', { ArgumentName: 'continuation-token' });
        return decoded;
      }, undefined);
      const startAfter = q('start-after');
      return { name, address, list: params, continuationToken: token, startAfter, marker: token ? fromToken : startAfter, fetchOwner: q('fetch-owner') === 'true' };
    }
    case 'ListObjectVersions':
      return { name, address, list: list(), keyMarker: q('key-marker'), versionIdMarker: q('version-id-marker') };
    case 'ListMultipartUploads':
      return { name, address, list: list('max-uploads'), keyMarker: q('key-marker'), uploadIdMarker: q('upload-id-marker') };
    case 'ListParts': {
      const maxParts = r.read(() => maxKeys(q('max-parts'), 'max-parts'), 0);
      const marker = q('part-number-marker');
      // RGW refuses a marker that is no integer (strict_strtol); a negative one lists from the start.
      const after = r.read(() => (marker ? Math.max(0, int32Param(marker, 'part-number-marker')) : undefined), undefined);
      return { name, address, uploadId, maxParts, partNumberMarker: marker, after };
    }
    case 'NotConfigured':
      return { name, address, answer: notConfigured(req.method, query.has.bind(query)) };
    case 'GetBucketTagging':
    case 'DeleteBucketTagging':
      return { name, address };
    case 'PutBucketTagging':
      return { name, address, document: doc() };
    case 'GetObjectAttributes': {
      const attributes = r.read(() => objectAttributes(h('x-amz-object-attributes')), []);
      const maxParts = r.read(() => maxKeys(h('x-amz-max-parts'), 'x-amz-max-parts'), 1000);
      const marker = h('x-amz-part-number-marker');
      const partNumberMarker = r.read(() => (marker ? Math.max(0, int32Param(marker, 'x-amz-part-number-marker')) : 0), 0);
      return { name, address, versionId: q('versionId'), attributes, maxParts, partNumberMarker };
    }
    case 'GetObjectTagging':
    case 'DeleteObjectTagging':
      return { name, address, versionId: q('versionId') };
    case 'PutObjectTagging':
      return { name, address, versionId: q('versionId'), document: doc() };
    case 'PutObject': {
      const payload = r.read(() => payloadSpec(headers), noPayload);
      const fields = r.read(() => objectFields(headers), noFields);
      return { name, address, payload, fields, acl: acl(), conditions: r.read(() => writeConditions(headers), noConditions), lock: lock() };
    }
    case 'PostObject': {
      const [type, attrs] = parseContentDisposition(h('content-type') ?? '');
      return { name, address, boundary: type.toLowerCase() === 'multipart/form-data' ? attrs.boundary : undefined };
    }
    case 'CopyObject': {
      const source = r.read(() => copySource(h('x-amz-copy-source')), { tenant: undefined, bucket: '', key: '', versionId: undefined });
      const directive = r.read(() => {
        const d = (h('x-amz-metadata-directive') ?? 'COPY').toUpperCase();
        if (d !== 'COPY' && d !== 'REPLACE') throw s3.invalidArgument('Unknown metadata directive.', { ArgumentName: 'x-amz-metadata-directive' });
        return d;
      }, 'COPY');
      const taggingDirective = r.read(() => {
        const d = (h('x-amz-tagging-directive') ?? 'COPY').toUpperCase();
        if (d !== 'COPY' && d !== 'REPLACE') throw s3.invalidArgument('Unknown tagging directive.', { ArgumentName: 'x-amz-tagging-directive' });
        return d;
      }, 'COPY');
      const fields = r.read(() => objectFields(headers), noFields);
      const destination = r.read(() => writeConditions(headers), noConditions);
      return { name, address, source, sourceConditions: conditions(headers, 'x-amz-copy-source-'), directive, taggingDirective, fields, acl: acl(), lock: lock(), conditions: destination };
    }
    case 'GetObject':
    case 'HeadObject': {
      const versionId = q('versionId');
      r.read(() => {
        if (versionId === '') throw new S3Error(400, 'InvalidArgument', 'Version id cannot be the empty string');
      }, undefined);
      const overrides = r.read(() => responseOverrides(query), []);
      const partNumber = r.read(() => readPartNumber(q('partNumber')), undefined);
      const checksumMode = h('x-amz-checksum-mode')?.toUpperCase() === 'ENABLED';
      return { name, address, versionId, range: parseRange(h('range')), partNumber, conditions: conditions(headers), overrides, checksumMode };
    }
    case 'DeleteObject':
      return { name, address, versionId: q('versionId'), bypassGovernance: bypassAsked(h) };
    case 'GetObjectAcl':
      return { name, address, versionId: q('versionId') };
    case 'CreateMultipartUpload':
      return { name, address, fields: r.read(() => objectFields(headers), noFields), acl: acl(), checksum: r.read(() => uploadChecksumOf(h), undefined), lock: lock() };
    case 'UploadPart': {
      const partNumber = r.read(() => uploadPartNumber(q('partNumber')), 0);
      const payload = r.read(() => payloadSpec(headers), noPayload);
      return { name, address, uploadId, partNumber, payload };
    }
    case 'UploadPartCopy': {
      const source = r.read(() => copySource(h('x-amz-copy-source')), { tenant: undefined, bucket: '', key: '', versionId: undefined });
      const partNumber = r.read(() => uploadPartNumber(q('partNumber')), 0);
      return { name, address, uploadId, partNumber, source, sourceConditions: conditions(headers, 'x-amz-copy-source-'), sourceRange: copyRange(h('x-amz-copy-source-range')) };
    }
    case 'AbortMultipartUpload':
      return { name, address, uploadId };
    case 'PreflightCors': {
      const requested = h('access-control-request-headers');
      const requestHeaders = requested ? requested.split(',').map((v) => v.trim()).filter(Boolean) : [];
      return { name, address, origin: h('origin'), requestMethod: h('access-control-request-method'), requestHeaders };
    }
  }
}
