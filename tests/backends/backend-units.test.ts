// The pure pieces of the backends, table-tested: S3 error mapping, retry classification, RGW
// usage parsing, the public-read policy statement and read ACL, part sizes, progress throttling.
import { describe, expect, it } from 'vitest';
import { publicReadAcl } from '../../src-main/backends/local-mapping.js';
import { isRetryable } from '../../src-main/backends/remote-compat-client.js';
import { codeForS3, fromS3Error } from '../../src-main/backends/remote-compat-errors.js';
import { copySource, policyWithPublicRead } from '../../src-main/backends/remote-compat-mapping.js';
import { partSizeFor } from '../../src-main/backends/remote-compat-upload.js';
import { parseRgwUsage, sumBucketCounters } from '../../src-main/backends/remote-compat-usage.js';
import { statusError } from '../../src-main/backends/swift/errors.js';
import { ProgressMeter } from '../../src-main/backends/transfer.js';

const sdkError = (name: string, status: number, message = `${name} said so`) => Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });
const netError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });

describe('statusError (Swift)', () => {
  it.each([
    [403, '<html><h1>Forbidden</h1><p>Reached container limit of 1</p></html>', 'container', 'TooManyContainers'],
    [403, '<html><h1>Forbidden</h1><p>Access was denied to this resource.</p></html>', 'container', 'AccessDenied'],
    [409, 'Container already exists', 'container', 'ContainerExists'],
    [413, 'Upload exceeds quota.', 'object', 'QuotaExceeded'],
  ] as const)('%i %s (%s) is %s', (status, body, target, code) => {
    expect(statusError(status, body, target).code).toBe(code);
  });
});

describe('fromS3Error', () => {
  it.each([
    ['NoSuchBucket', 404, 'NoSuchContainer'],
    ['NoSuchKey', 404, 'NoSuchKey'],
    ['NotFound', 404, 'NoSuchKey'],
    ['BucketNotEmpty', 409, 'ContainerNotEmpty'],
    ['BucketAlreadyExists', 409, 'ContainerExists'],
    ['QuotaExceeded', 403, 'QuotaExceeded'],
    ['AccessDenied', 403, 'AccessDenied'],
    ['Forbidden', 403, 'AccessDenied'],
    ['InvalidAccessKeyId', 403, 'AuthFailed'],
    ['SignatureDoesNotMatch', 403, 'AuthFailed'],
    ['ExpiredToken', 400, 'AuthFailed'],
    ['InvalidRange', 416, 'InvalidRange'],
    ['NotImplemented', 501, 'NotSupported'],
    ['SlowDown', 503, 'RemoteError'],
    ['SomethingNew', 400, 'RemoteError'],
  ] as const)('%s (%d) -> %s, the server message kept', (name, status, code) => {
    const err = fromS3Error(sdkError(name, status));
    expect(err.code).toBe(code);
    expect(err.message).toContain(`${name} said so`);
    expect(err.details).toMatchObject({ s3Code: name, status });
  });

  it('a body-less HEAD failure is named by its status', () => {
    expect(fromS3Error(sdkError('Unknown', 500, 'UnknownError'))).toMatchObject({ code: 'RemoteError', message: 'HTTP 500: The server answered HTTP 500' });
    expect(fromS3Error(sdkError('Unknown', 403, 'UnknownError')).code).toBe('AccessDenied');
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN'])('%s -> Unreachable', (code) => {
    expect(fromS3Error(netError(code)).code).toBe('Unreachable');
  });

  it('finds network codes inside AggregateError and causes; timeouts and aborts too', () => {
    expect(fromS3Error(Object.assign(new AggregateError([netError('ECONNREFUSED')], 'all failed'))).code).toBe('Unreachable');
    expect(fromS3Error(Object.assign(new Error('wrapped'), { cause: netError('EHOSTUNREACH') })).code).toBe('Unreachable');
    expect(fromS3Error(Object.assign(new Error('timed out'), { name: 'TimeoutError' })).code).toBe('Unreachable');
    expect(fromS3Error(Object.assign(new Error('aborted'), { name: 'AbortError' })).code).toBe('Aborted');
  });

  it('maps DeleteObjects error codes', () => {
    expect(codeForS3('AccessDenied')).toBe('AccessDenied');
    expect(codeForS3('Weird')).toBe('RemoteError');
    expect(codeForS3(undefined)).toBe('RemoteError');
  });
});

describe('isRetryable', () => {
  it.each([
    [sdkError('SlowDown', 503), true],
    [sdkError('InternalError', 500), true],
    [sdkError('Unknown', 502), true],
    [sdkError('ServiceUnavailable', 503), true],
    [netError('ECONNRESET'), true],
    [netError('ECONNREFUSED'), true],
    [netError('ENOTFOUND'), false],
    [sdkError('AccessDenied', 403), false],
    [sdkError('NoSuchKey', 404), false],
    [sdkError('NotImplemented', 501), false],
    [Object.assign(new Error('x'), { name: 'AbortError' }), false],
  ])('%o -> %s', (err, expected) => {
    expect(isRetryable(err)).toBe(expected);
  });
});

describe('RGW usage', () => {
  it('reads totals and quotas of the Summary, negative limits as unlimited (null)', () => {
    const doc = '<Usage><Summary><QuotaMaxBytes>-1</QuotaMaxBytes><QuotaMaxObjCount>500</QuotaMaxObjCount><TotalBytes>7</TotalBytes><TotalEntries>2</TotalEntries></Summary></Usage>';
    expect(parseRgwUsage(doc)).toEqual({ objects: 2, bytes: 7, maxBytes: null, maxObjects: 500 });
    // With rgw_rest_getusage_op_compat the figures sit one level down, in <Stats>.
    const compat = '<Usage><Summary><Stats><TotalBytes>9</TotalBytes><TotalEntries>1</TotalEntries></Stats></Summary></Usage>';
    expect(parseRgwUsage(compat)).toMatchObject({ objects: 1, bytes: 9 });
  });

  it('is null for anything else (a bucket list, an error, not XML)', () => {
    expect(parseRgwUsage('<ListAllMyBucketsResult><Buckets/></ListAllMyBucketsResult>')).toBeNull();
    expect(parseRgwUsage('<Error><Code>AccessDenied</Code></Error>')).toBeNull();
    expect(parseRgwUsage('not xml <<<')).toBeNull();
  });

  it('sums bucket counters, unknown if any bucket did not say, zero for no buckets', () => {
    expect(sumBucketCounters([{ objects: 1, bytes: 10 }, { objects: 2, bytes: 5 }])).toEqual({ objects: 3, bytes: 15 });
    expect(sumBucketCounters([{ objects: 1, bytes: 10 }, { objects: null, bytes: null }])).toEqual({ objects: null, bytes: null });
    expect(sumBucketCounters([])).toEqual({ objects: 0, bytes: 0 });
  });
});

describe('public read', () => {
  it('adds and removes only Coffer’s policy statement', () => {
    const other = { Sid: 'Theirs', Effect: 'Allow', Principal: { AWS: ['arn:aws:iam::1:root'] }, Action: 's3:PutObject', Resource: 'arn:aws:s3:::b/*' };
    const current = JSON.stringify({ Version: '2012-10-17', Statement: [other] });
    const on = JSON.parse(policyWithPublicRead(current, 'b', true)!) as { Statement: { Sid: string }[] };
    expect(on.Statement.map((s) => s.Sid)).toEqual(['Theirs', 'CofferPublicRead']);
    const off = JSON.parse(policyWithPublicRead(JSON.stringify(on), 'b', false)!) as { Statement: unknown[] };
    expect(off.Statement).toEqual([other]);
    expect(policyWithPublicRead(policyWithPublicRead(undefined, 'b', true)!, 'b', false)).toBeNull();
  });

  it('switches `.r:*,.rlistings` in a read ACL, other grants kept', () => {
    expect(publicReadAcl(undefined, true)).toBe('.r:*,.rlistings');
    expect(publicReadAcl('.r:*,.rlistings', false)).toBeNull();
    expect(publicReadAcl('acct1, .r:*', false)).toBe('acct1');
    expect(publicReadAcl('acct1', true)).toBe('acct1,.r:*,.rlistings');
  });
});

describe('small pieces', () => {
  it('encodes copy sources segment-wise', () => {
    expect(copySource('b', 'dir/a b+c?.txt')).toBe('b/dir/a%20b%2Bc%3F.txt');
    expect(copySource('b', 'k', 'v 1')).toBe('b/k?versionId=v%201');
  });

  it('grows the part size to stay within 10000 parts', () => {
    expect(partSizeFor(undefined)).toBe(8 * 1024 * 1024);
    expect(partSizeFor(5 * 1024 ** 3)).toBe(8 * 1024 * 1024);
    expect(partSizeFor(5 * 1024 ** 4)).toBeGreaterThan(8 * 1024 * 1024);
    expect(Math.ceil((5 * 1024 ** 4) / partSizeFor(5 * 1024 ** 4))).toBeLessThan(10_000);
  });

  it('reports progress at most once per interval, and the exact total at the end', () => {
    const seen: number[] = [];
    const meter = new ProgressMeter((n) => seen.push(n), 1_000_000);
    for (let i = 0; i < 1000; i++) meter.add(10);
    meter.finish();
    meter.finish();
    expect(seen).toEqual([10, 10_000]);
  });
});
