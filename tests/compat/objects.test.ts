// PutObject, GetObject and HeadObject through the AWS SDK v3 (§18.4, §22.1, §22.2): metadata and
// standard headers, conditional writes, Content-MD5 and the flexible checksums, stream bodies in
// aws-chunked trailer mode, ranges, conditionals, response-* overrides and checksum mode.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type ChecksumAlgorithm, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, errorOf, raw, readAll, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('obj'));
});
afterAll(async () => {
  await s?.close();
});

const md5 = (x: string | Buffer) => createHash('md5').update(x).digest();
/** Records the headers of every request the client sends (after signing). */
function recordHeaders(client: S3Client): Record<string, string>[] {
  const seen: Record<string, string>[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      seen.push({ ...(args.request as { headers: Record<string, string> }).headers });
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'recordHeaders' },
  );
  return seen;
}

describe('PutObject', () => {
  it('stores metadata, content type and the standard headers; HEAD and GET return them', async () => {
    const expires = new Date('2030-01-01T00:00:00Z');
    const put = await c.send(
      new PutObjectCommand({
        Bucket: b,
        Key: 'docs/report.txt',
        Body: 'hello world',
        ContentType: 'text/plain; charset=utf-8',
        Metadata: { color: 'blue', 'Mixed-Case': 'Value Kept' },
        CacheControl: 'max-age=60',
        ContentDisposition: 'attachment; filename="r.txt"',
        ContentEncoding: 'identity',
        ContentLanguage: 'en',
        Expires: expires,
      }),
    );
    expect(put.ETag).toBe(`"${md5('hello world').toString('hex')}"`);
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'docs/report.txt' }));
    expect(head).toMatchObject({
      ContentType: 'text/plain; charset=utf-8',
      ContentLength: 11,
      ETag: put.ETag,
      Metadata: { color: 'blue', 'mixed-case': 'Value Kept' },
      CacheControl: 'max-age=60',
      ContentDisposition: 'attachment; filename="r.txt"',
      ContentEncoding: 'identity',
      ContentLanguage: 'en',
      AcceptRanges: 'bytes',
    });
    expect(head.Expires?.getTime()).toBe(expires.getTime());
    expect(head.LastModified).toBeInstanceOf(Date);
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'docs/report.txt' }));
    expect((await readAll(get.Body)).toString()).toBe('hello world');
    expect(get.Metadata).toEqual({ color: 'blue', 'mixed-case': 'Value Kept' });
  });

  it('overwrites an existing key; If-None-Match: * refuses to (412)', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'once', Body: 'first' }));
    const e = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'once', Body: 'second', IfNoneMatch: '*' })));
    expect([e.name, e.status]).toEqual(['PreconditionFailed', 412]);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'fresh-key', Body: 'x', IfNoneMatch: '*' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'once', Body: 'third' }));
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: 'once' }))).Body)).toString()).toBe('third');
  });

  it('If-Match overwrites only the expected version', async () => {
    const put = await c.send(new PutObjectCommand({ Bucket: b, Key: 'ifmatch', Body: 'v1' }));
    expect((await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'ifmatch', Body: 'v2', IfMatch: '"0123"' })))).status).toBe(412);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'ifmatch', Body: 'v2', IfMatch: put.ETag }));
  });

  it('checks Content-MD5: good, bad (BadDigest), malformed (InvalidDigest)', async () => {
    const body = 'md5 checked';
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'md5', Body: body, ContentMD5: md5(body).toString('base64') }));
    const bad = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'md5-bad', Body: body, ContentMD5: md5('other').toString('base64') })));
    expect([bad.name, bad.status]).toEqual(['BadDigest', 400]);
    const malformed = await raw(s, 'PUT', `/${b}/md5-bad`, { as: ALICE, body, headers: { 'content-md5': 'not-base64' } });
    expect(errorOf(malformed).Code).toBe('InvalidDigest');
    expect((await raw(s, 'HEAD', `/${b}/md5-bad`, { as: ALICE })).status).toBe(404);
  });

  it.each(['CRC32', 'CRC32C', 'SHA1', 'SHA256'] as ChecksumAlgorithm[])('verifies and echoes an SDK-computed %s checksum', async (alg) => {
    const key = `sum-${alg}`;
    const put = await c.send(new PutObjectCommand({ Bucket: b, Key: key, Body: 'hello world', ChecksumAlgorithm: alg }));
    const field = `Checksum${alg}` as 'ChecksumCRC32';
    expect(put[field]).toBeTruthy();
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: key, ChecksumMode: 'ENABLED' }));
    expect(head[field]).toBe(put[field]);
  });

  it.each([
    ['crc32', 'AAAAAA=='],
    ['crc32c', 'AAAAAA=='],
    ['sha1', Buffer.alloc(20).toString('base64')],
    ['sha256', Buffer.alloc(32).toString('base64')],
  ])('refuses a wrong x-amz-checksum-%s with BadDigest and stores nothing', async (alg, value) => {
    const key = `bad-${alg}`;
    const r = await raw(s, 'PUT', `/${b}/${key}`, { as: ALICE, body: 'hello world', headers: { [`x-amz-checksum-${alg}`]: value } });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'BadDigest']);
    expect((await raw(s, 'HEAD', `/${b}/${key}`, { as: ALICE })).status).toBe(404);
  });

  it('matches the known CRC32 of "hello world" (A.5) and refuses two checksum headers', async () => {
    const ok = await raw(s, 'PUT', `/${b}/known`, { as: ALICE, body: 'hello world', headers: { 'x-amz-checksum-crc32': 'DUoRhQ==' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-amz-checksum-crc32']).toBe('DUoRhQ==');
    const two = await raw(s, 'PUT', `/${b}/two`, { as: ALICE, body: 'hello world', headers: { 'x-amz-checksum-crc32': 'DUoRhQ==', 'x-amz-checksum-sha1': 'Kq5sNclPz7QV2+lfQIuc6R7oRu0=' } });
    expect([two.status, errorOf(two).Code]).toEqual([400, 'InvalidRequest']);
  });

  it('accepts a stream body as aws-chunked with a CRC32 trailer and stores the decoded bytes', async () => {
    const client = s.client();
    const seen = recordHeaders(client);
    const pieces = Array.from({ length: 20 }, (_, i) => Buffer.alloc(10_000, 97 + (i % 26)));
    const whole = Buffer.concat(pieces);
    const put = await client.send(new PutObjectCommand({ Bucket: b, Key: 'streamed', Body: Readable.from(pieces), ContentLength: whole.length, ContentType: 'application/x-test' }));
    const sent = seen.at(-1)!;
    expect(sent['x-amz-content-sha256']).toBe('STREAMING-UNSIGNED-PAYLOAD-TRAILER');
    expect(sent['content-encoding']).toContain('aws-chunked');
    expect(sent['x-amz-trailer']).toBe('x-amz-checksum-crc32');
    expect(put.ETag).toBe(`"${md5(whole).toString('hex')}"`);
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'streamed', ChecksumMode: 'ENABLED' }));
    expect((await readAll(get.Body)).equals(whole)).toBe(true);
    expect(get.ContentEncoding).toBeUndefined();
    expect(get.ContentType).toBe('application/x-test');
    expect(get.ChecksumCRC32).toBe(put.ChecksumCRC32);
  });

  it('defaults the content type from the name (so both APIs agree) and refuses unknown storage classes', async () => {
    await raw(s, 'PUT', `/${b}/pic.png`, { as: ALICE, body: 'x' });
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'pic.png' }))).ContentType).toBe('image/png');
    const r = await raw(s, 'PUT', `/${b}/glacier`, { as: ALICE, body: 'x', headers: { 'x-amz-storage-class': 'GLACIER' } });
    expect(errorOf(r).Code).toBe('InvalidStorageClass');
  });

  it('refuses keys over 1024 bytes and metadata over 2 KB', async () => {
    const long = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'k'.repeat(1025), Body: 'x' })));
    expect(long.status).toBe(400);
    const big = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'bigmeta', Body: 'x', Metadata: { a: 'v'.repeat(2100) } })));
    expect([big.name, big.status]).toEqual(['MetadataTooLarge', 400]);
  });
});

describe('GetObject and HeadObject', () => {
  const body = '0123456789abcdefghij';
  let etag: string;
  let lastModified: Date;
  beforeAll(async () => {
    etag = (await c.send(new PutObjectCommand({ Bucket: b, Key: 'ranged', Body: body, ContentType: 'text/plain' }))).ETag!;
    lastModified = (await c.send(new HeadObjectCommand({ Bucket: b, Key: 'ranged' }))).LastModified!;
  });

  it.each([
    ['bytes=0-4', '01234', 'bytes 0-4/20'],
    ['bytes=15-', 'fghij', 'bytes 15-19/20'],
    ['bytes=-3', 'hij', 'bytes 17-19/20'],
    ['bytes=18-100', 'ij', 'bytes 18-19/20'],
  ])('serves %s as 206', async (range, expected, contentRange) => {
    const r = await c.send(new GetObjectCommand({ Bucket: b, Key: 'ranged', Range: range }));
    expect(r.$metadata.httpStatusCode).toBe(206);
    expect(r.ContentRange).toBe(contentRange);
    expect(r.ContentLength).toBe(expected.length);
    expect((await readAll(r.Body)).toString()).toBe(expected);
  });

  it('answers 416 InvalidRange past the end, and ignores an unparseable range', async () => {
    const r = await raw(s, 'GET', `/${b}/ranged`, { as: ALICE, headers: { range: 'bytes=20-' } });
    expect([r.status, errorOf(r).Code, r.headers['content-range']]).toEqual([416, 'InvalidRange', 'bytes */20']);
    const ignored = await raw(s, 'GET', `/${b}/ranged`, { as: ALICE, headers: { range: 'lines=1-2' } });
    expect([ignored.status, ignored.text]).toEqual([200, body]);
  });

  it('evaluates conditionals: 304 and 412', async () => {
    const before = new Date(lastModified.getTime() - 60_000);
    const after = new Date(lastModified.getTime() + 60_000);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'ranged', IfNoneMatch: etag })))).status).toBe(304);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'ranged', IfModifiedSince: after })))).status).toBe(304);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'ranged', IfNoneMatch: etag })))).status).toBe(304);
    const pf = await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'ranged', IfMatch: '"nope"' })));
    expect([pf.name, pf.status]).toEqual(['PreconditionFailed', 412]);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'ranged', IfUnmodifiedSince: before })))).status).toBe(412);
    // AWS precedence: If-Match true wins over If-Unmodified-Since false; If-None-Match false + If-Modified-Since true → 200.
    await c.send(new GetObjectCommand({ Bucket: b, Key: 'ranged', IfMatch: etag, IfUnmodifiedSince: before }));
    await c.send(new GetObjectCommand({ Bucket: b, Key: 'ranged', IfNoneMatch: '"other"', IfModifiedSince: after }));
    const notModified = await raw(s, 'GET', `/${b}/ranged`, { as: ALICE, headers: { 'if-none-match': etag } });
    expect([notModified.status, notModified.headers.etag, notModified.body.length]).toEqual([304, etag, 0]);
  });

  it('applies response-* overrides', async () => {
    const r = await c.send(
      new GetObjectCommand({
        Bucket: b,
        Key: 'ranged',
        ResponseContentType: 'application/x-override',
        ResponseContentDisposition: 'attachment; filename="x.bin"',
        ResponseCacheControl: 'no-cache',
        ResponseContentLanguage: 'fr',
        ResponseContentEncoding: 'identity',
        ResponseExpires: new Date('2031-02-03T04:05:06Z'),
      }),
    );
    expect(r).toMatchObject({ ContentType: 'application/x-override', ContentDisposition: 'attachment; filename="x.bin"', CacheControl: 'no-cache', ContentLanguage: 'fr', ContentEncoding: 'identity' });
    expect(r.Expires?.toISOString()).toBe('2031-02-03T04:05:06.000Z');
    await readAll(r.Body);
  });

  it('returns the stored checksum only in checksum mode, and never a wrong one for a range', async () => {
    await raw(s, 'PUT', `/${b}/hw`, { as: ALICE, body: 'hello world', headers: { 'x-amz-checksum-crc32': 'DUoRhQ==' } });
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'hw' }))).ChecksumCRC32).toBeUndefined();
    const full = await c.send(new GetObjectCommand({ Bucket: b, Key: 'hw', ChecksumMode: 'ENABLED' }));
    expect(full.ChecksumCRC32).toBe('DUoRhQ==');
    expect((await readAll(full.Body)).toString()).toBe('hello world');
    const part = await raw(s, 'GET', `/${b}/hw`, { as: ALICE, headers: { range: 'bytes=0-4', 'x-amz-checksum-mode': 'ENABLED' } });
    expect(part.headers['x-amz-checksum-crc32']).toBeUndefined();
  });

  it('answers NoSuchKey for a missing key (HEAD: 404 without a body)', async () => {
    const e = await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'missing' })));
    expect([e.name, e.status]).toEqual(['NoSuchKey', 404]);
    const h = await raw(s, 'HEAD', `/${b}/missing`, { as: ALICE });
    expect([h.status, h.body.length]).toEqual([404, 0]);
    expect(h.headers['x-amz-request-id']).toBeTruthy();
  });

  it('object tagging: an untagged key has an empty TagSet, a missing one is NoSuchKey (GET and DELETE), as AWS', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'tagged', Body: 't' }));
    const tags = await raw(s, 'GET', `/${b}/tagged?tagging`, { as: ALICE });
    expect([tags.status, tags.text]).toEqual([200, expect.stringContaining('<TagSet></TagSet>')]);
    expect((await raw(s, 'DELETE', `/${b}/tagged?tagging`, { as: ALICE })).status).toBe(204);
    for (const method of ['GET', 'DELETE']) {
      const missing = await raw(s, method, `/${b}/no-such-key?tagging`, { as: ALICE });
      expect([missing.status, errorOf(missing).Code], method).toEqual([404, 'NoSuchKey']);
    }
  });

  it('keeps keys verbatim: no normalisation of //, ./, ../ or a trailing slash (§15)', async () => {
    for (const key of ['a//b', './dot', 'x/../y', 'dir/', 'sp ace+plus%pct', 'ünï/код']) {
      await c.send(new PutObjectCommand({ Bucket: b, Key: key, Body: key }));
      expect((await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: key }))).Body)).toString()).toBe(key);
    }
  });
});
