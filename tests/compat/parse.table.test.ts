// The S3 router as a table (Garage's router tests): example requests -> the operation, the
// parameters it carries and the access it needs. Pure: no server, no engine, milliseconds.
import { describe, expect, it } from 'vitest';
import { S3Error } from '../../src-main/http/compat/errors.js';
import { accessOf, BYPASS_GOVERNANCE_ACTION, POLICY_ACTION, type S3Operation } from '../../src-main/http/compat/operation.js';
import { parseS3 } from '../../src-main/http/compat/parse.js';
import { parseQuery } from '../../src-main/http/common/url.js';

type Headers = Record<string, string>;

function request(method: string, target: string, headers: Headers = {}, domain?: string) {
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const rawQuery = q < 0 ? '' : target.slice(q + 1);
  const lower: Headers = { host: '127.0.0.1:7480' };
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  return { method, rawPath, rawQuery, query: parseQuery(rawQuery), headers: lower, domain };
}

const parse = (method: string, target: string, headers?: Headers, domain?: string) => parseS3(request(method, target, headers, domain));

/** [method, path?query, headers, operation, access] */
type Row = [string, string, Headers, S3Operation['name'], ReturnType<typeof accessOf>];

const SERVICE: Row[] = [
  ['GET', '/', {}, 'ListBuckets', 'service'],
  ['HEAD', '/', {}, 'HeadService', 'service'],
  ['PUT', '/', {}, 'MethodNotAllowed', 'service'],
  ['POST', '/', {}, 'MethodNotAllowed', 'service'],
  ['DELETE', '/', {}, 'MethodNotAllowed', 'service'],
  ['GET', '/?acl', {}, 'ListBuckets', 'service'],
];

const BUCKET: Row[] = [
  ['GET', '/b', {}, 'ListObjects', 'list'],
  ['GET', '/b/', {}, 'ListObjects', 'list'],
  ['GET', '/b?list-type=2', {}, 'ListObjectsV2', 'list'],
  ['GET', '/b?list-type=1', {}, 'ListObjects', 'list'],
  ['GET', '/b?prefix=a&delimiter=/', {}, 'ListObjects', 'list'],
  ['GET', '/b?location', {}, 'GetBucketLocation', 'admin'],
  ['GET', '/b?versioning', {}, 'GetBucketVersioning', 'admin'],
  ['GET', '/b?acl', {}, 'GetBucketAcl', 'read-acl'],
  ['GET', '/b?policy', {}, 'GetBucketPolicy', 'admin'],
  ['GET', '/b?policyStatus', {}, 'GetBucketPolicyStatus', 'admin'],
  ['GET', '/b?uploads', {}, 'ListMultipartUploads', 'admin'],
  ['GET', '/b?versions', {}, 'ListObjectVersions', 'admin'],
  ['GET', '/b?versions&list-type=2', {}, 'ListObjectVersions', 'admin'],
  ['HEAD', '/b', {}, 'HeadBucket', 'list'],
  ['HEAD', '/b?acl', {}, 'HeadBucket', 'list'],
  ['PUT', '/b', {}, 'CreateBucket', 'service'],
  ['PUT', '/b?versioning', {}, 'PutBucketVersioning', 'admin'],
  ['PUT', '/b?acl', {}, 'PutBucketAcl', 'write-acl'],
  ['PUT', '/b?policy', {}, 'PutBucketPolicy', 'admin'],
  ['DELETE', '/b', {}, 'DeleteBucket', 'admin'],
  ['DELETE', '/b?policy', {}, 'DeleteBucketPolicy', 'admin'],
  ['GET', '/b?lifecycle', {}, 'GetBucketLifecycle', 'admin'],
  ['PUT', '/b?lifecycle', { 'Content-MD5': '1B2M2Y8AsgTpgAmY7PhCfg==' }, 'PutBucketLifecycle', 'admin'],
  ['DELETE', '/b?lifecycle', {}, 'DeleteBucketLifecycle', 'admin'],
  ['GET', '/b/k?lifecycle', {}, 'NotImplemented', 'service'],
  ['POST', '/b?delete', { 'Content-MD5': '1B2M2Y8AsgTpgAmY7PhCfg==' }, 'DeleteObjects', 'write-object'],
  ['POST', '/b', {}, 'PostObject', 'none'],
  ['POST', '/b', { 'content-type': 'multipart/form-data; boundary=x' }, 'PostObject', 'none'],
  ['POST', '/b?uploads', {}, 'MethodNotAllowed', 'service'],
  ['PATCH', '/b', {}, 'MethodNotAllowed', 'service'],
  ['OPTIONS', '/b', {}, 'PreflightCors', 'none'],
  ['OPTIONS', '/b/k', {}, 'PreflightCors', 'none'],
  ['OPTIONS', '/b/k?X-Amz-Signature=x', {}, 'PreflightCors', 'none'],
  ['GET', '/b?cors', {}, 'GetBucketCors', 'admin'],
  ['PUT', '/b?cors', { 'Content-MD5': '1B2M2Y8AsgTpgAmY7PhCfg==' }, 'PutBucketCors', 'admin'],
  ['DELETE', '/b?cors', {}, 'DeleteBucketCors', 'admin'],
];

// Every sub-resource clients probe: "not configured" on GET and DELETE, refused on PUT.
const NOT_CONFIGURED = ['website', 'encryption', 'publicAccessBlock', 'logging', 'requestPayment', 'ownershipControls'];
const UNSUPPORTED = ['notification', 'replication', 'accelerate', 'analytics', 'inventory', 'metrics', 'intelligent-tiering', 'restore', 'select', 'torrent', 'attributes'];
const SUBRESOURCES: Row[] = [
  ...NOT_CONFIGURED.flatMap((sub): Row[] => [
    ['GET', `/b?${sub}`, {}, 'NotConfigured', 'admin'],
    ['DELETE', `/b?${sub}`, {}, 'NotConfigured', 'admin'],
    ['PUT', `/b?${sub}`, {}, 'NotImplemented', 'service'],
  ]),
  ...UNSUPPORTED.flatMap((sub): Row[] => [
    ['GET', `/b?${sub}`, {}, 'NotImplemented', 'service'],
    ['PUT', `/b?${sub}`, {}, 'NotImplemented', 'service'],
    ['DELETE', `/b?${sub}`, {}, 'NotConfigured', 'admin'],
    sub === 'attributes'
      ? ['GET', `/b/k?${sub}`, { 'x-amz-object-attributes': 'ETag' }, 'GetObjectAttributes', 'admin']
      : ['GET', `/b/k?${sub}`, {}, 'NotImplemented', 'service'],
    ['PUT', `/b/k?${sub}`, {}, 'NotImplemented', 'service'],
  ]),
  // Object lock (issue 26): the bucket's configuration, a version's retention and legal hold.
  ['GET', '/b?object-lock', {}, 'GetObjectLockConfiguration', 'admin'],
  ['PUT', '/b?object-lock', {}, 'PutObjectLockConfiguration', 'admin'],
  ['DELETE', '/b?object-lock', {}, 'NotConfigured', 'admin'],
  ...['retention', 'legal-hold'].flatMap((sub): Row[] => [
    ['GET', `/b?${sub}`, {}, 'NotImplemented', 'service'],
    ['PUT', `/b?${sub}`, {}, 'NotImplemented', 'service'],
    ['DELETE', `/b?${sub}`, {}, 'NotConfigured', 'admin'],
  ]),
  ['GET', '/b/k?retention', {}, 'GetObjectRetention', 'admin'],
  ['GET', '/b/k?retention&versionId=v', {}, 'GetObjectRetention', 'admin'],
  ['PUT', '/b/k?retention', {}, 'PutObjectRetention', 'admin'],
  ['GET', '/b/k?legal-hold', {}, 'GetObjectLegalHold', 'admin'],
  ['PUT', '/b/k?legal-hold', {}, 'PutObjectLegalHold', 'admin'],
  ['PUT', '/b/k?legal-hold&versionId=v', {}, 'PutObjectLegalHold', 'admin'],
];

const COPY = { 'x-amz-copy-source': '/src/key' };
const OBJECT: Row[] = [
  ['GET', '/b/k', {}, 'GetObject', 'read-object'],
  ['GET', '/b/a/b/c', {}, 'GetObject', 'read-object'],
  ['GET', '/b/k?versionId=v1', {}, 'GetObject', 'read-object'],
  ['GET', '/b/k?partNumber=2', {}, 'GetObject', 'read-object'],
  ['GET', '/b/k?response-content-type=text/plain', {}, 'GetObject', 'read-object'],
  ['GET', '/b/k?acl', {}, 'GetObjectAcl', 'read-object-acl'],
  ['GET', '/b/k?uploadId=u', {}, 'ListParts', 'write-object'],
  ['GET', '/b/k?tagging', {}, 'GetObjectTagging', 'admin'],
  ['HEAD', '/b/k', {}, 'HeadObject', 'read-object'],
  ['HEAD', '/b/k?acl', {}, 'HeadObject', 'read-object'],
  ['HEAD', '/b/k?partNumber=1', {}, 'HeadObject', 'read-object'],
  ['PUT', '/b/k', { 'Content-Length': '0' }, 'PutObject', 'write-object'],
  ['PUT', '/b/k', COPY, 'CopyObject', 'write-object'],
  ['PUT', '/b/k?acl', {}, 'PutObjectAcl', 'write-object-acl'],
  ['PUT', '/b/k?acl', COPY, 'PutObjectAcl', 'write-object-acl'],
  ['PUT', '/b/k?uploadId=u&partNumber=1', { 'Content-Length': '0' }, 'UploadPart', 'write-object'],
  ['PUT', '/b/k?partNumber=1', { 'Transfer-Encoding': 'chunked' }, 'UploadPart', 'write-object'],
  ['PUT', '/b/k?uploadId=u&partNumber=1', COPY, 'UploadPartCopy', 'write-object'],
  ['PUT', '/b/k?tagging', {}, 'PutObjectTagging', 'admin'],
  ['GET', '/b?tagging', {}, 'GetBucketTagging', 'admin'],
  ['PUT', '/b?tagging', {}, 'PutBucketTagging', 'admin'],
  ['DELETE', '/b?tagging', {}, 'DeleteBucketTagging', 'admin'],
  ['DELETE', '/b?acl', {}, 'MethodNotAllowed', 'service'],
  ['DELETE', '/b?versioning', {}, 'MethodNotAllowed', 'service'],
  ['POST', '/b/k?uploads', {}, 'CreateMultipartUpload', 'write-object'],
  ['POST', '/b/k?uploadId=u', {}, 'CompleteMultipartUpload', 'write-object'],
  ['POST', '/b/k', {}, 'NotImplemented', 'service'],
  ['POST', '/b/k?delete', {}, 'NotImplemented', 'service'],
  ['DELETE', '/b/k', {}, 'DeleteObject', 'write-object'],
  ['DELETE', '/b/k?versionId=v1', {}, 'DeleteObject', 'write-object'],
  ['DELETE', '/b/k?uploadId=u', {}, 'AbortMultipartUpload', 'write-object'],
  ['DELETE', '/b/k?tagging', {}, 'DeleteObjectTagging', 'admin'],
  // No DELETE exists for these: refused, never read as a delete of the object.
  ['DELETE', '/b/k?acl', {}, 'MethodNotAllowed', 'service'],
  ['DELETE', '/b/k?retention', {}, 'MethodNotAllowed', 'service'],
  ['DELETE', '/b/k?legal-hold', {}, 'MethodNotAllowed', 'service'],
  ['DELETE', '/b/k?attributes', {}, 'MethodNotAllowed', 'service'],
  ['PATCH', '/b/k', {}, 'MethodNotAllowed', 'service'],
  ['COPY', '/b/k', {}, 'MethodNotAllowed', 'service'],
];

/** The same rows through the other addressings: `tenant:bucket` paths and virtual-host style. */
const ADDRESSED: Row[] = [...BUCKET, ...OBJECT, ...SUBRESOURCES].flatMap(([m, target, h, name, access]): Row[] => [
  [m, target.replace(/^\/b/, '/t1:b'), h, name, access],
  [m, target.replace(/^\/b\/?/, '/'), { ...h, Host: 'b.s3.example.com' }, name === 'ListBuckets' ? name : name, access],
]);

describe('S3 requests parse to their operation and access', () => {
  const rows = [...SERVICE, ...BUCKET, ...SUBRESOURCES, ...OBJECT];
  it(`has hundreds of rows (${rows.length + ADDRESSED.length})`, () => {
    expect(rows.length + ADDRESSED.length).toBeGreaterThan(300);
  });
  it.each(rows)('%s %s %j -> %s (%s)', (method, target, headers, name, access) => {
    const op = parse(method, target, headers);
    expect(op.name).toBe(name);
    expect(accessOf(op.name)).toBe(access);
    expect(op.invalid).toBeUndefined();
  });
  it.each(ADDRESSED)('%s %s %j -> %s (%s)', (method, target, headers, name, access) => {
    const op = parse(method, target, headers, 's3.example.com');
    // A virtual-host request for `/` names the bucket, never the service.
    expect(op.name).toBe(name);
    expect(accessOf(op.name)).toBe(access);
  });
});

describe('addresses', () => {
  it.each([
    ['/b/k', { bucket: 'b', key: 'k', style: 'path' }],
    ['/b/a//b/./c/', { bucket: 'b', key: 'a//b/./c/', style: 'path' }],
    ['/b/%E2%82%AC%20x', { bucket: 'b', key: '€ x', style: 'path' }],
    ['/t1:b/k', { bucket: 'b', tenant: 't1', key: 'k', style: 'path' }],
    ['/b', { bucket: 'b', style: 'path' }],
    ['/', { style: 'path' }],
  ])('%s', (target, address) => {
    expect(parse('GET', target).address).toEqual(address);
  });
  it('virtual-host: bucket from the Host under the domain or localhost; the whole path is the key', () => {
    expect(parse('GET', '/a/b', { Host: 'bk.s3.example.com:9000' }, 's3.example.com').address).toEqual({ bucket: 'bk', key: 'a/b', style: 'virtual-host' });
    expect(parse('GET', '/', { Host: 'bk.localhost' }).address).toEqual({ bucket: 'bk', style: 'virtual-host' });
  });
  it.each([
    ['/b/%ff', 'InvalidURI'],
    ['/b/%zz', 'InvalidURI'],
    ['/b/a%00b', 'InvalidURI'],
    ['/t:/k', 'InvalidBucketName'],
    ['/t:', 'InvalidBucketName'],
    ['/b?x=%ff', 'InvalidURI'],
  ])('%s is refused as %s before anything else', (target, code) => {
    expect(() => parse('GET', target)).toThrow(expect.objectContaining({ code }));
  });
});

/** The parameters an operation carries: the handlers read nothing else of the request. */
describe('parameters', () => {
  const op = <N extends S3Operation['name']>(name: N, method: string, target: string, headers?: Headers) => {
    const o = parse(method, target, headers);
    expect(o.name).toBe(name);
    return o as Extract<S3Operation, { name: N }>;
  };

  it('ListObjects v1 and v2', () => {
    const v1 = op('ListObjects', 'GET', '/b?prefix=p%2F&delimiter=%2F&marker=m&max-keys=5&encoding-type=url');
    expect(v1.list).toEqual({ prefix: 'p/', delimiter: '/', maxKeys: 5, encodingType: 'url' });
    expect(v1.marker).toBe('m');
    expect(op('ListObjects', 'GET', '/b?max-keys=5000').list.maxKeys).toBe(1000);
    expect(op('ListObjects', 'GET', '/b').list.maxKeys).toBe(1000);
    const token = Buffer.from('after/this').toString('base64url');
    const v2 = op('ListObjectsV2', 'GET', `/b?list-type=2&continuation-token=${token}&start-after=x&fetch-owner=true`);
    expect(v2).toMatchObject({ continuationToken: token, startAfter: 'x', marker: 'after/this', fetchOwner: true });
    expect(op('ListObjectsV2', 'GET', '/b?list-type=2&start-after=x').marker).toBe('x');
  });

  it('versions, uploads and parts listings', () => {
    expect(op('ListObjectVersions', 'GET', '/b?versions&key-marker=k&version-id-marker=v&max-keys=3')).toMatchObject({ keyMarker: 'k', versionIdMarker: 'v', list: { maxKeys: 3 } });
    expect(op('ListMultipartUploads', 'GET', '/b?uploads&key-marker=k&upload-id-marker=u&max-uploads=2')).toMatchObject({ keyMarker: 'k', uploadIdMarker: 'u', list: { maxKeys: 2 } });
    expect(op('ListParts', 'GET', '/b/k?uploadId=u1&max-parts=7&part-number-marker=3')).toMatchObject({ uploadId: 'u1', maxParts: 7, partNumberMarker: '3', after: 3 });
    expect(op('ListParts', 'GET', '/b/k?uploadId=u1&part-number-marker=-4').after).toBe(0);
  });

  it('GetObject: version, range, part, conditionals, overrides, checksum mode', () => {
    const get = op('GetObject', 'GET', '/b/k?versionId=v9&response-content-type=text%2Fplain&response-expires=x', {
      Range: 'bytes=5-9',
      'If-Match': '"e"',
      'If-None-Match': '"f"',
      'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT',
      'If-Unmodified-Since': 'Tue, 02 Jan 2024 00:00:00 GMT',
      'x-amz-checksum-mode': 'enabled',
    });
    expect(get).toMatchObject({
      versionId: 'v9',
      range: { start: 5, end: 9 },
      partNumber: undefined,
      conditions: { ifMatch: '"e"', ifNoneMatch: '"f"', ifModifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT', ifUnmodifiedSince: 'Tue, 02 Jan 2024 00:00:00 GMT' },
      overrides: [['response-content-type', 'Content-Type', 'text/plain'], ['response-expires', 'Expires', 'x']],
      checksumMode: true,
    });
    expect(op('GetObject', 'GET', '/b/k', { Range: 'bytes=-20' }).range).toEqual({ suffix: 20 });
    expect(op('GetObject', 'GET', '/b/k', { Range: 'items=1-2' }).range).toBeUndefined();
    expect(op('HeadObject', 'HEAD', '/b/k?partNumber=3').partNumber).toBe(3);
  });

  it('PutObject: payload framing, digests, conditionals, fields', () => {
    const put = op('PutObject', 'PUT', '/b/k', {
      'Content-Length': '11',
      'Content-MD5': Buffer.alloc(16, 1).toString('base64'),
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
      'x-amz-checksum-crc32': 'AAAAAA==',
      'If-None-Match': '*',
      'Content-Type': 'text/plain',
      'Cache-Control': 'no-cache',
      'x-amz-meta-Colour': 'blue',
      'x-amz-acl': 'public-read',
    });
    expect(put.payload).toEqual({
      size: 11,
      expectedMd5: '01'.repeat(16),
      expectedChecksums: { crc32: 'AAAAAA==' },
      checksumAlgorithms: [],
      contentSha256: undefined,
      chunked: undefined,
    });
    expect(put.conditions).toEqual({ ifMatch: undefined, ifNoneMatch: '*' });
    // AWS takes If-None-Match only as `*`, and not with If-Match: 501 NotImplemented, after the access decision.
    expect(op('PutObject', 'PUT', '/b/k', { 'Content-Length': '1', 'If-None-Match': '"abc"' }).invalid).toMatchObject({ status: 501, code: 'NotImplemented', extra: { Header: 'If-None-Match' } });
    expect(op('PutObject', 'PUT', '/b/k', { 'Content-Length': '1', 'If-None-Match': '*', 'If-Match': '"abc"' }).invalid).toMatchObject({ status: 501, code: 'NotImplemented' });
    expect(op('CompleteMultipartUpload', 'POST', '/b/k?uploadId=u', { 'If-Match': '"abc"' }).conditions).toEqual({ ifMatch: '"abc"', ifNoneMatch: undefined });
    expect(put.fields).toEqual({ meta: { colour: 'blue' }, headers: { cacheControl: 'no-cache' }, contentType: 'text/plain' });
    expect(put.acl).toEqual({ canned: 'public-read' });
    const chunked = op('PutObject', 'PUT', '/b/k', { 'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER', 'x-amz-decoded-content-length': '100', 'x-amz-trailer': 'x-amz-checksum-crc32c' });
    expect(chunked.payload).toMatchObject({ size: 100, chunked: { signed: true, trailer: true }, checksumAlgorithms: ['crc32c'] });
    const signed = op('PutObject', 'PUT', '/b/k', { 'Content-Length': '0', 'x-amz-content-sha256': 'A'.repeat(64) });
    expect(signed.payload.contentSha256).toBe('a'.repeat(64));
  });

  it('CopyObject and UploadPartCopy: source, its conditionals, directive, range', () => {
    const copy = op('CopyObject', 'PUT', '/b/k', {
      'x-amz-copy-source': '/t2:src/a%20b?versionId=v%2B1',
      'x-amz-copy-source-if-match': '"e"',
      'x-amz-metadata-directive': 'replace',
      'x-amz-meta-a': '1',
    });
    expect(copy.source).toEqual({ tenant: 't2', bucket: 'src', key: 'a b', versionId: 'v+1' });
    expect(copy.sourceConditions.ifMatch).toBe('"e"');
    expect(copy.directive).toBe('REPLACE');
    expect(copy.fields.meta).toEqual({ a: '1' });
    expect(op('CopyObject', 'PUT', '/b/k', { 'x-amz-copy-source': 'src/k' }).source).toEqual({ tenant: undefined, bucket: 'src', key: 'k', versionId: undefined });
    const part = op('UploadPartCopy', 'PUT', '/b/k?uploadId=u&partNumber=4', { ...COPY, 'x-amz-copy-source-range': 'bytes=0-9' });
    expect(part).toMatchObject({ uploadId: 'u', partNumber: 4, sourceRange: { start: 0, end: 9 } });
    expect(op('UploadPartCopy', 'PUT', '/b/k?uploadId=u&partNumber=4', { ...COPY, 'x-amz-copy-source-range': 'bytes=5-' }).sourceRange).toEqual({ malformed: 'bytes=5-' });
    // One range only, both ends given: AWS refuses what a GET's Range would take.
    expect(op('UploadPartCopy', 'PUT', '/b/k?uploadId=u&partNumber=4', { ...COPY, 'x-amz-copy-source-range': 'bytes=0-1,4-5' }).sourceRange).toEqual({ malformed: 'bytes=0-1,4-5' });
  });

  it('multipart uploads, ACLs, documents, not-configured answers', () => {
    expect(op('UploadPart', 'PUT', '/b/k?uploadId=u&partNumber=10000', { 'Content-Length': '1' })).toMatchObject({ uploadId: 'u', partNumber: 10000, payload: { size: 1 } });
    expect(op('CompleteMultipartUpload', 'POST', '/b/k?uploadId=u').uploadId).toBe('u');
    expect(op('AbortMultipartUpload', 'DELETE', '/b/k?uploadId=u').uploadId).toBe('u');
    expect(op('CreateMultipartUpload', 'POST', '/b/k?uploads', { 'Content-Type': 'a/b' }).fields.contentType).toBe('a/b');
    expect(op('PutBucketAcl', 'PUT', '/b?acl', { 'x-amz-acl': 'private' }).acl).toEqual({ canned: 'private' });
    expect(op('PutObjectAcl', 'PUT', '/b/k?acl&versionId=v1')).toMatchObject({ acl: undefined, versionId: 'v1' });
    expect(op('CreateBucket', 'PUT', '/b', { 'x-amz-acl': 'public-read-write' }).acl).toEqual({ canned: 'public-read-write' });
    expect(op('PutObject', 'PUT', '/b/k', { 'Content-Length': '0', 'x-amz-grant-full-control': 'id="t$u"', 'x-amz-grant-read': 'uri="http://acs.amazonaws.com/groups/global/AllUsers", id=a$b' }).acl).toEqual({
      grants: [
        { group: 'AllUsers', permission: 'READ' },
        { user: 'a$b', permission: 'READ' },
        { user: 't$u', permission: 'FULL_CONTROL' },
      ],
    });
    expect(op('PutBucketAcl', 'PUT', '/b?acl', { 'x-amz-acl': 'private', 'x-amz-grant-read': 'id="x"' }).invalid).toMatchObject({ code: 'InvalidRequest' });
    expect(op('PutBucketAcl', 'PUT', '/b?acl', { 'x-amz-grant-read': 'emailAddress="a@b.c"' }).invalid).toMatchObject({ code: 'UnresolvableGrantByEmailAddress' });
    expect(op('PutBucketAcl', 'PUT', '/b?acl', { 'x-amz-grant-read': 'uri="http://example.com/x"' }).invalid).toMatchObject({ code: 'InvalidArgument' });
    expect(op('DeleteObjects', 'POST', '/b?delete', { 'Content-MD5': Buffer.alloc(16).toString('base64') }).document).toMatchObject({ streaming: false, md5: '0'.repeat(32) });
    expect(op('NotConfigured', 'GET', '/b?website').answer).toEqual({ kind: 'missing', code: 'NoSuchWebsiteConfiguration', message: 'The specified bucket does not have a website configuration' });
    expect(op('NotConfigured', 'GET', '/b?logging').answer).toEqual({ kind: 'logging' });
    expect(op('NotConfigured', 'DELETE', '/b?website').answer).toEqual({ kind: 'empty' });
    expect(op('GetObjectTagging', 'GET', '/b/k?tagging&versionId=v')).toMatchObject({ versionId: 'v' });
    expect(op('PutObject', 'PUT', '/b/k', { 'content-length': '0', 'x-amz-tagging': 'a=1&b=x%20y&c' }).fields.tags).toEqual([{ key: 'a', value: '1' }, { key: 'b', value: 'x y' }, { key: 'c', value: '' }]);
    expect(op('PutObject', 'PUT', '/b/k', { 'content-length': '0', 'x-amz-tagging': 'a=1&a=2' }).invalid).toMatchObject({ code: 'InvalidArgument' });
    expect(op('CopyObject', 'PUT', '/b/k', { 'x-amz-copy-source': 'b/s', 'x-amz-tagging-directive': 'replace' }).taggingDirective).toBe('REPLACE');
    expect(op('DeleteObject', 'DELETE', '/b/k?versionId=null').versionId).toBe('null');
  });

  it('object lock: lock headers on writes, the governance bypass, a lock-enabled bucket', () => {
    const date = '2030-01-02T03:04:05.000Z';
    const lock = { 'x-amz-object-lock-mode': 'COMPLIANCE', 'x-amz-object-lock-retain-until-date': date, 'x-amz-object-lock-legal-hold': 'ON' };
    const expected = { retention: { mode: 'COMPLIANCE', until: Date.parse(date) }, legalHold: true };
    expect(op('PutObject', 'PUT', '/b/k', { 'content-length': '0', ...lock }).lock).toEqual(expected);
    expect(op('CopyObject', 'PUT', '/b/k', { ...COPY, ...lock }).lock).toEqual(expected);
    expect(op('CreateMultipartUpload', 'POST', '/b/k?uploads', lock).lock).toEqual(expected);
    expect(op('PutObject', 'PUT', '/b/k', { 'content-length': '0' }).lock).toBeUndefined();
    expect(op('PutObject', 'PUT', '/b/k', { 'content-length': '0', 'x-amz-object-lock-legal-hold': 'OFF' }).lock).toEqual({ legalHold: false });
    const bads: Headers[] = [
      { 'x-amz-object-lock-mode': 'GOVERNANCE' },
      { 'x-amz-object-lock-retain-until-date': date },
      { 'x-amz-object-lock-mode': 'governance', 'x-amz-object-lock-retain-until-date': date },
      { 'x-amz-object-lock-mode': 'GOVERNANCE', 'x-amz-object-lock-retain-until-date': 'tomorrow' },
      { 'x-amz-object-lock-legal-hold': 'on' },
    ];
    for (const bad of bads) {
      expect(op('PutObject', 'PUT', '/b/k', { 'content-length': '0', ...bad }).invalid, JSON.stringify(bad)).toMatchObject({ code: 'InvalidArgument' });
    }
    expect(op('DeleteObject', 'DELETE', '/b/k?versionId=v', { 'x-amz-bypass-governance-retention': 'true' }).bypassGovernance).toBe(true);
    expect(op('DeleteObject', 'DELETE', '/b/k?versionId=v').bypassGovernance).toBe(false);
    expect(op('DeleteObjects', 'POST', '/b?delete', { 'x-amz-bypass-governance-retention': 'True' }).bypassGovernance).toBe(true);
    expect(op('PutObjectRetention', 'PUT', '/b/k?retention&versionId=v', { 'x-amz-bypass-governance-retention': 'true' })).toMatchObject({ versionId: 'v', bypassGovernance: true });
    expect(op('CreateBucket', 'PUT', '/b', { 'x-amz-bucket-object-lock-enabled': 'true' }).objectLock).toBe(true);
    expect(op('CreateBucket', 'PUT', '/b', { 'x-amz-bucket-object-lock-enabled': 'false' }).objectLock).toBe(false);
  });

  it('object lock: the policy actions AWS names', () => {
    expect(POLICY_ACTION).toMatchObject({
      GetObjectLockConfiguration: 's3:GetBucketObjectLockConfiguration',
      PutObjectLockConfiguration: 's3:PutBucketObjectLockConfiguration',
      GetObjectRetention: 's3:GetObjectRetention',
      PutObjectRetention: 's3:PutObjectRetention',
      GetObjectLegalHold: 's3:GetObjectLegalHold',
      PutObjectLegalHold: 's3:PutObjectLegalHold',
    });
    expect(BYPASS_GOVERNANCE_ACTION).toBe('s3:BypassGovernanceRetention');
  });

  it('asks for server-side encryption: kept to refuse once the caller is known', () => {
    expect(parse('PUT', '/b/k', { 'x-amz-server-side-encryption': 'AES256', 'Content-Length': '0' }).encryption).toMatchObject({ status: 501, code: 'NotImplemented' });
    expect(parse('GET', '/b/k', { 'x-amz-server-side-encryption-customer-key': 'k' }).encryption).toMatchObject({ status: 400, code: 'InvalidRequest' });
    expect(parse('GET', '/b/k?x-amz-server-side-encryption=aws%3Akms').encryption).toMatchObject({ code: 'NotImplemented' });
    expect(parse('GET', '/b/k').encryption).toBeUndefined();
  });
});

/** A parameter that does not parse is kept with the operation, in the words the handlers used, and raised after the access decision. */
describe('invalid parameters', () => {
  it.each<[string, string, Headers, string, number, string]>([
    ['GET', '/b?max-keys=abc', {}, 'ListObjects', 400, 'InvalidArgument'],
    ['GET', '/b?max-keys=-1', {}, 'ListObjects', 400, 'InvalidArgument'],
    ['GET', '/b?max-keys=2147483648', {}, 'ListObjects', 400, 'InvalidArgument'],
    ['GET', '/b?encoding-type=base64', {}, 'ListObjects', 400, 'InvalidArgument'],
    ['GET', '/b?list-type=2&continuation-token=%21%21', {}, 'ListObjectsV2', 400, 'InvalidArgument'],
    ['GET', '/b?uploads&max-uploads=x', {}, 'ListMultipartUploads', 400, 'InvalidArgument'],
    ['GET', '/b/k?uploadId=u&part-number-marker=x', {}, 'ListParts', 400, 'InvalidArgument'],
    ['GET', '/b/k?versionId=', {}, 'GetObject', 400, 'InvalidArgument'],
    ['GET', '/b/k?partNumber=0', {}, 'GetObject', 400, 'InvalidArgument'],
    ['GET', '/b/k?partNumber=10001', {}, 'GetObject', 400, 'InvalidArgument'],
    ['GET', '/b/k?response-content-type=a%0Ab', {}, 'GetObject', 400, 'InvalidArgument'],
    ['PUT', '/b/k?uploadId=u&partNumber=x', {}, 'UploadPart', 400, 'InvalidArgument'],
    ['PUT', '/b/k', {}, 'PutObject', 411, 'MissingContentLength'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'Content-MD5': 'nope' }, 'PutObject', 400, 'InvalidDigest'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'x-amz-checksum-crc32': 'a', 'x-amz-checksum-sha1': 'b' }, 'PutObject', 400, 'InvalidRequest'],
    ['PUT', '/b/k', { 'x-amz-content-sha256': 'STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD', 'x-amz-decoded-content-length': '1' }, 'PutObject', 501, 'NotImplemented'],
    ['PUT', '/b/k', { 'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' }, 'PutObject', 411, 'MissingContentLength'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'x-amz-content-sha256': 'nonsense' }, 'PutObject', 400, 'InvalidArgument'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'x-amz-storage-class': 'GLACIER' }, 'PutObject', 400, 'InvalidStorageClass'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'x-amz-acl': 'aws-exec-read' }, 'PutObject', 501, 'NotImplemented'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'x-amz-acl': 'bogus' }, 'PutObject', 400, 'InvalidArgument'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'x-amz-acl': 'private', 'x-amz-grant-read': 'id=x' }, 'PutObject', 400, 'InvalidRequest'],
    ['PUT', '/b/k', { 'Content-Length': '1', 'x-amz-grant-read': 'emailAddress=a@b.c' }, 'PutObject', 400, 'UnresolvableGrantByEmailAddress'],
    ['PUT', '/b/k', { 'x-amz-copy-source': 'nokey' }, 'CopyObject', 400, 'InvalidArgument'],
    ['PUT', '/b/k', { ...COPY, 'x-amz-metadata-directive': 'MERGE' }, 'CopyObject', 400, 'InvalidArgument'],
    ['PUT', '/b?acl', { 'x-amz-acl': 'nope' }, 'PutBucketAcl', 400, 'InvalidArgument'],
    // AWS: these three need Content-MD5 or an x-amz-checksum-* (x-amz-sdk-checksum-algorithm alone is not one).
    ['POST', '/b?delete', {}, 'DeleteObjects', 400, 'InvalidRequest'],
    ['POST', '/b?delete', { 'x-amz-sdk-checksum-algorithm': 'CRC32' }, 'DeleteObjects', 400, 'InvalidRequest'],
    ['PUT', '/b?cors', {}, 'PutBucketCors', 400, 'InvalidRequest'],
    ['PUT', '/b?lifecycle', {}, 'PutBucketLifecycle', 400, 'InvalidRequest'],
  ])('%s %s %j -> %s, then %i %s', (method, target, headers, name, status, code) => {
    const op = parse(method, target, headers);
    expect(op.name).toBe(name);
    expect(op.invalid).toBeInstanceOf(S3Error);
    expect(op.invalid).toMatchObject({ status, code });
  });

  it('x-amz-meta-* past 2 KB: MetadataTooLarge, from the error table', () => {
    const op = parse('PUT', '/b/k', { 'Content-Length': '1', 'x-amz-meta-big': 'x'.repeat(2100) });
    expect(op.invalid).toMatchObject({ code: 'MetadataTooLarge' });
  });
});

describe('the Origin of a cross-origin request', () => {
  it('is carried by the operation (the CORS grant reads it there, never the raw header)', () => {
    expect(parse('GET', '/b/k', { Origin: 'https://app.example' }).corsOrigin).toBe('https://app.example');
    expect(parse('PUT', '/b/k', { Origin: 'https://app.example', 'Content-Length': '0' }).corsOrigin).toBe('https://app.example');
    expect(parse('GET', '/b/k').corsOrigin).toBeUndefined();
  });
});
