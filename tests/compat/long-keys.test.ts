// Names and numbers past their limits on the S3 API. AWS answers 400 KeyTooLongError (with Size
// and MaxSizeAllowed) wherever a key past 1024 bytes is named, reading or writing; listings take
// long markers and prefixes like any other; integer parameters past int32 are InvalidArgument.
// Never a 500.
import { CreateMultipartUploadCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, errorOf, parseXml, raw, startWithBucket, type RawResponse, type S3TestServer, type User } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
/** 1025 bytes, then past lmdb's key limit (1978 bytes), then far past it. */
const LONG = ['k'.repeat(1025), 'é'.repeat(1000), 'k'.repeat(6000)];
const NAMES = ['a', 'dir/1', 'dir/2', 'k'.repeat(1024), `${'k'.repeat(1023)}l`, 'z'];
const q = encodeURIComponent;
const B = (x: string) => Buffer.from(x, 'utf8');
const after = (m: string) => [...NAMES].sort((x, y) => Buffer.compare(B(x), B(y))).filter((n) => Buffer.compare(B(n), B(m)) > 0);

beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('long'));
  for (const n of NAMES) expect((await raw(s, 'PUT', `/${b}/${n}`, { as: ALICE, body: 'x' })).status).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

function expectStatus(r: RawResponse, status: number, code: string | undefined, what: string): void {
  expect(r.status, `${what}: ${r.text.slice(0, 300)}`).toBe(status);
  if (code !== undefined) expect(errorOf(r).Code, what).toBe(code);
}

describe('keys past 1024 bytes', () => {
  it('GET, HEAD, PUT, CopyObject (either side) and every multipart operation are 400 KeyTooLongError', async () => {
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp' }))).UploadId!;
    const part = (await c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId: id, PartNumber: 1, Body: 'x' }))).ETag!;
    for (const key of LONG) {
      const size = String(Buffer.byteLength(key));
      const get = await raw(s, 'GET', `/${b}/${key}`, { as: ALICE });
      expectStatus(get, 400, 'KeyTooLongError', `GET ${size}`);
      expect(errorOf(get)).toMatchObject({ Message: 'Your key is too long', Size: size, MaxSizeAllowed: '1024' });
      expectStatus(await raw(s, 'HEAD', `/${b}/${key}`, { as: ALICE }), 400, undefined, `HEAD ${size}`);
      expectStatus(await raw(s, 'GET', `/${b}/${key}?versionId=v`, { as: ALICE }), 400, 'KeyTooLongError', `GET version ${size}`);
      expectStatus(await raw(s, 'PUT', `/${b}/${key}`, { as: ALICE, body: 'x' }), 400, 'KeyTooLongError', `PUT ${size}`);
      const source = { 'x-amz-copy-source': `/${b}/${q(key)}` };
      expectStatus(await raw(s, 'PUT', `/${b}/copy`, { as: ALICE, headers: source }), 400, 'KeyTooLongError', `copy from ${size}`);
      expectStatus(await raw(s, 'PUT', `/${b}/${key}`, { as: ALICE, headers: { 'x-amz-copy-source': `/${b}/a` } }), 400, 'KeyTooLongError', `copy to ${size}`);
      expectStatus(await raw(s, 'PUT', `/${b}/mp?uploadId=${id}&partNumber=2`, { as: ALICE, headers: source }), 400, 'KeyTooLongError', `part copy ${size}`);
      expectStatus(await raw(s, 'POST', `/${b}/${key}?uploads`, { as: ALICE }), 400, 'KeyTooLongError', `create upload ${size}`);
      expectStatus(await raw(s, 'PUT', `/${b}/${key}?uploadId=${id}&partNumber=1`, { as: ALICE, body: 'x' }), 400, 'KeyTooLongError', `part ${size}`);
      expectStatus(await raw(s, 'GET', `/${b}/${key}?uploadId=${id}`, { as: ALICE }), 400, 'KeyTooLongError', `list parts ${size}`);
      const complete = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part}</ETag></Part></CompleteMultipartUpload>`;
      expectStatus(await raw(s, 'POST', `/${b}/${key}?uploadId=${id}`, { as: ALICE, body: complete }), 400, 'KeyTooLongError', `complete ${size}`);
      expectStatus(await raw(s, 'DELETE', `/${b}/${key}?uploadId=${id}`, { as: ALICE }), 400, 'KeyTooLongError', `abort ${size}`);
    }
    expectStatus(await raw(s, 'HEAD', `/${b}/copy`, { as: ALICE }), 404, undefined, 'nothing was copied');
  });

  it('DeleteObject answers 204 as for any missing key; DeleteObjects reports them deleted', async () => {
    for (const key of LONG) expectStatus(await raw(s, 'DELETE', `/${b}/${key}`, { as: ALICE }), 204, undefined, 'DELETE');
    const body = `<Delete>${LONG.map((k) => `<Object><Key>${k}</Key></Object>`).join('')}</Delete>`;
    const r = await raw(s, 'POST', `/${b}?delete`, { as: ALICE, body, md5: true });
    expect(r.status).toBe(200);
    expect((parseXml(r.text).DeleteResult as { Deleted?: unknown[] }).Deleted).toHaveLength(LONG.length);
  });
});

describe('listing parameters past 1024 bytes', () => {
  const keys = (r: RawResponse, root: string, item = 'Contents') => {
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const doc = parseXml(r.text)[root] as Record<string, unknown>;
    const list = doc[item] === undefined ? [] : Array.isArray(doc[item]) ? doc[item] : [doc[item]];
    return (list as { Key: string }[]).map((e) => e.Key);
  };

  it('a prefix matches nothing; a marker, start-after or continuation token selects what a byte-wise comparison selects', async () => {
    for (const key of LONG) {
      for (const base of [`/${b}?`, `/${b}?list-type=2&`, `/${b}?versions&`]) {
        const root = base.includes('versions') ? 'ListVersionsResult' : 'ListBucketResult';
        const item = base.includes('versions') ? 'Version' : 'Contents';
        expect(keys(await raw(s, 'GET', `${base}prefix=${q(key)}`, { as: ALICE }), root, item)).toEqual([]);
      }
      expect(keys(await raw(s, 'GET', `/${b}?marker=${q(key)}`, { as: ALICE }), 'ListBucketResult')).toEqual(after(key));
      expect(keys(await raw(s, 'GET', `/${b}?list-type=2&start-after=${q(key)}`, { as: ALICE }), 'ListBucketResult')).toEqual(after(key));
      const token = B(key).toString('base64url');
      expect(keys(await raw(s, 'GET', `/${b}?list-type=2&continuation-token=${token}`, { as: ALICE }), 'ListBucketResult')).toEqual(after(key));
      const versions = `/${b}?versions&key-marker=${q(key)}&version-id-marker=null`;
      expect(keys(await raw(s, 'GET', versions, { as: ALICE }), 'ListVersionsResult', 'Version')).toEqual(after(key));
      for (const p of [`prefix=${q(key)}`, `key-marker=${q(key)}`, `key-marker=a&upload-id-marker=${'u'.repeat(6000)}`]) {
        expect(keys(await raw(s, 'GET', `/${b}?uploads&${p}`, { as: ALICE }), 'ListMultipartUploadsResult', 'Upload'), p.slice(0, 30)).toEqual(p.startsWith('prefix') ? [] : expect.any(Array));
      }
    }
  });
});

describe('bucket names, tenants and access keys past their limits', () => {
  it('a bucket or tenant name of any length is NoSuchBucket (or InvalidBucketName to create), never a crash', async () => {
    for (const n of [300, 2000, 6000]) {
      const long = 'b'.repeat(n);
      expectStatus(await raw(s, 'GET', `/${long}`, { as: ALICE }), 404, 'NoSuchBucket', `list ${n}`);
      expectStatus(await raw(s, 'GET', `/${long}/key`, { as: ALICE }), 404, 'NoSuchBucket', `get ${n}`);
      expectStatus(await raw(s, 'GET', `/${long}:${b}/key`, { as: ALICE }), 404, 'NoSuchBucket', `tenant ${n}`);
      expectStatus(await raw(s, 'PUT', `/${b}/copy`, { as: ALICE, headers: { 'x-amz-copy-source': `/${long}/a` } }), 404, 'NoSuchBucket', `copy ${n}`);
      expectStatus(await raw(s, 'PUT', `/${long}`, { as: ALICE }), 400, 'InvalidBucketName', `create ${n}`);
    }
  });

  it('an access key of any length is InvalidAccessKeyId, signed or presigned', async () => {
    const stranger: User = { ...ALICE, accessKey: 'A'.repeat(6000) };
    expectStatus(await raw(s, 'GET', `/${b}`, { as: stranger }), 403, 'InvalidAccessKeyId', 'SigV4');
    const sigV2 = await raw(s, 'GET', `/${b}`, { headers: { authorization: `AWS ${stranger.accessKey}:c2ln`, date: new Date().toUTCString() } });
    expectStatus(sigV2, 403, 'InvalidAccessKeyId', 'SigV2');
    const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
    const credential = q(`${stranger.accessKey}/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`);
    const presigned = `/${b}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${credential}&X-Amz-Date=${amzDate}&X-Amz-Expires=60&X-Amz-SignedHeaders=host&X-Amz-Signature=${'0'.repeat(64)}`;
    expectStatus(await raw(s, 'GET', presigned), 403, 'InvalidAccessKeyId', 'presigned');
  });
});

describe('numbers that are no dates', () => {
  it('a conditional date that is no HTTP-date is ignored, however Date.parse reads it (\'1\' is 2001)', async () => {
    for (const junk of ['1', '-1', 'Thu, 31 Feb 2000 00:00:00 GMT']) {
      expectStatus(await raw(s, 'GET', `/${b}/a`, { as: ALICE, headers: { 'if-unmodified-since': junk } }), 200, undefined, junk);
      const copy = await raw(s, 'PUT', `/${b}/junk-copy`, { as: ALICE, headers: { 'x-amz-copy-source': `/${b}/a`, 'x-amz-copy-source-if-unmodified-since': junk } });
      expectStatus(copy, 200, undefined, `copy ${junk}`);
    }
  });
});

describe('integer parameters past int32', () => {
  it('max-keys, max-uploads and max-parts past 2147483647 are InvalidArgument; up to it they are capped at 1000', async () => {
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'numbers' }))).UploadId!;
    const bases = [`/${b}?max-keys=`, `/${b}?list-type=2&max-keys=`, `/${b}?versions&max-keys=`, `/${b}?uploads&max-uploads=`, `/${b}/numbers?uploadId=${id}&max-parts=`];
    for (const base of bases) {
      for (const v of ['2147483648', '9'.repeat(25), '1e400', '-1']) expectStatus(await raw(s, 'GET', `${base}${v}`, { as: ALICE }), 400, 'InvalidArgument', `${base}${v}`);
      expectStatus(await raw(s, 'GET', `${base}2147483647`, { as: ALICE }), 200, undefined, `${base} int32 max`);
    }
  });

  it('part-number-marker must be an integer within int32 (RGW); a negative one lists from the start', async () => {
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'marker' }))).UploadId!;
    await c.send(new UploadPartCommand({ Bucket: b, Key: 'marker', UploadId: id, PartNumber: 3, Body: 'x' }));
    for (const v of ['abc', '9'.repeat(25), '2147483648', '1.5']) {
      expectStatus(await raw(s, 'GET', `/${b}/marker?uploadId=${id}&part-number-marker=${v}`, { as: ALICE }), 400, 'InvalidArgument', v);
    }
    for (const [v, parts] of [['-5', 1], ['2', 1], ['3', 0], ['2147483647', 0]] as const) {
      const r = await raw(s, 'GET', `/${b}/marker?uploadId=${id}&part-number-marker=${v}`, { as: ALICE });
      expect(r.status).toBe(200);
      const doc = parseXml(r.text).ListPartsResult as { Part?: unknown };
      expect(doc.Part === undefined ? 0 : 1, v).toBe(parts);
    }
  });
});
