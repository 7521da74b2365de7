// S3 behaviours where Coffer answers as AWS does (issue 26, part 1), through the AWS SDK v3 against
// a running server, with raw signed requests for what the SDK cannot send: conditional writes
// (PutObject and CompleteMultipartUpload), a CompleteMultipartUpload retried after it succeeded,
// a part listed twice, partNumber reads beyond the parts, UploadPartCopy ranges.
// boto3 and the AWS CLI run the same behaviours in clients-aws-behaviours.test.ts.
import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, errorOf, raw, readAll, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('aws'));
});
afterAll(async () => {
  await s?.close();
});

const MiB = 1024 * 1024;
const text = async (key: string) => (await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: key }))).Body)).toString();

/** An upload of `key` with the given parts uploaded; returns its id and the parts as Complete lists them. */
async function upload(key: string, bodies: (string | Buffer)[]): Promise<{ id: string; parts: { PartNumber: number; ETag: string }[] }> {
  const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: key }))).UploadId!;
  const parts = [];
  for (const [i, body] of bodies.entries()) {
    const r = await c.send(new UploadPartCommand({ Bucket: b, Key: key, UploadId: id, PartNumber: i + 1, Body: body }));
    parts.push({ PartNumber: i + 1, ETag: r.ETag! });
  }
  return { id, parts };
}

const complete = (key: string, id: string, parts: { PartNumber: number; ETag: string }[], extra: { IfMatch?: string; IfNoneMatch?: string } = {}) =>
  c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: key, UploadId: id, MultipartUpload: { Parts: parts }, ...extra }));

describe('conditional writes (AWS: If-Match on the current ETag, If-None-Match only as *)', () => {
  it('PutObject: If-Match replaces only that version; a missing key is NoSuchKey, as is If-Match: *', async () => {
    const first = await c.send(new PutObjectCommand({ Bucket: b, Key: 'cas', Body: 'v1' }));
    const wrong = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'cas', Body: 'v2', IfMatch: '"0123456789abcdef0123456789abcdef"' })));
    expect([wrong.status, wrong.name]).toEqual([412, 'PreconditionFailed']);
    expect(await text('cas')).toBe('v1');
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'cas', Body: 'v2', IfMatch: first.ETag }));
    expect(await text('cas')).toBe('v2');
    // The ETag that was matched is gone now: the same request again fails.
    expect((await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'cas', Body: 'v3', IfMatch: first.ETag })))).status).toBe(412);
    for (const IfMatch of [first.ETag!, '*']) {
      const missing = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'cas-missing', Body: 'x', IfMatch })));
      expect([missing.status, missing.name]).toEqual([404, 'NoSuchKey']);
    }
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'cas-missing' })))).status).toBe(404);
  });

  it('PutObject: If-None-Match with an ETag, or with If-Match, is 501 NotImplemented (nothing stored)', async () => {
    const put = await c.send(new PutObjectCommand({ Bucket: b, Key: 'inm', Body: 'v1' }));
    const etag = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'inm', Body: 'v2', IfNoneMatch: '"0123456789abcdef0123456789abcdef"' })));
    expect([etag.status, etag.name]).toEqual([501, 'NotImplemented']);
    const both = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'inm', Body: 'v2', IfNoneMatch: '*', IfMatch: put.ETag })));
    expect([both.status, both.name]).toEqual([501, 'NotImplemented']);
    const r = await raw(s, 'PUT', `/${b}/inm`, { as: ALICE, body: 'v2', headers: { 'if-none-match': put.ETag! } });
    expect(errorOf(r)).toMatchObject({ Code: 'NotImplemented', Header: 'If-None-Match' });
    expect(await text('inm')).toBe('v1');
  });

  it('CopyObject: If-None-Match: * and If-Match judge the destination (412, NoSuchKey without one); the source conditions stay its own', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'copy-src', Body: 'source' }));
    const dst = await c.send(new PutObjectCommand({ Bucket: b, Key: 'copy-dst', Body: 'old' }));
    const copy = (Key: string, extra: { IfMatch?: string; IfNoneMatch?: string }) => c.send(new CopyObjectCommand({ Bucket: b, Key, CopySource: `${b}/copy-src`, ...extra }));
    const exists = await sdkError(copy('copy-dst', { IfNoneMatch: '*' }));
    expect([exists.status, exists.name]).toEqual([412, 'PreconditionFailed']);
    const wrong = await sdkError(copy('copy-dst', { IfMatch: '"0123456789abcdef0123456789abcdef"' }));
    expect([wrong.status, wrong.name]).toEqual([412, 'PreconditionFailed']);
    expect(await text('copy-dst')).toBe('old');
    const missing = await sdkError(copy('copy-none', { IfMatch: dst.ETag! }));
    expect([missing.status, missing.name]).toEqual([404, 'NoSuchKey']);
    await copy('copy-dst', { IfMatch: dst.ETag! });
    expect(await text('copy-dst')).toBe('source');
    await copy('copy-new', { IfNoneMatch: '*' });
    expect(await text('copy-new')).toBe('source');
    const etag = await sdkError(copy('copy-other', { IfNoneMatch: dst.ETag! }));
    expect([etag.status, etag.name]).toEqual([501, 'NotImplemented']);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'copy-none' })))).status).toBe(404);
  });

  it('CompleteMultipartUpload honours If-None-Match: * and If-Match, and the upload can still complete afterwards', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'mp-cond', Body: 'exists' }));
    const { id, parts } = await upload('mp-cond', ['only part']);
    const exists = await sdkError(complete('mp-cond', id, parts, { IfNoneMatch: '*' }));
    expect([exists.status, exists.name]).toEqual([412, 'PreconditionFailed']);
    const wrong = await sdkError(complete('mp-cond', id, parts, { IfMatch: '"0123456789abcdef0123456789abcdef"' }));
    expect([wrong.status, wrong.name]).toEqual([412, 'PreconditionFailed']);
    expect(await text('mp-cond')).toBe('exists');
    const current = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'mp-cond' }));
    await complete('mp-cond', id, parts, { IfMatch: current.ETag });
    expect(await text('mp-cond')).toBe('only part');

    const fresh = await upload('mp-fresh', ['x']);
    const missing = await sdkError(complete('mp-fresh', fresh.id, fresh.parts, { IfMatch: '*' }));
    expect([missing.status, missing.name]).toEqual([404, 'NoSuchKey']);
    await complete('mp-fresh', fresh.id, fresh.parts, { IfNoneMatch: '*' });
    expect(await text('mp-fresh')).toBe('x');
  });

  it('two uploads racing for one name with If-None-Match: * : exactly one wins', async () => {
    const [one, two] = [await upload('race', ['one']), await upload('race', ['two'])];
    const results = await Promise.allSettled([complete('race', one.id, one.parts, { IfNoneMatch: '*' }), complete('race', two.id, two.parts, { IfNoneMatch: '*' })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as { name: string }).name).toBe('PreconditionFailed');
  });
});

describe('CompleteMultipartUpload retried', () => {
  it('after it succeeded answers 200 with the same ETag; once the object is deleted, NoSuchUpload', async () => {
    const { id, parts } = await upload('retry', [Buffer.alloc(5 * MiB, 'a'), 'tail']);
    const first = await complete('retry', id, parts);
    const again = await complete('retry', id, parts);
    expect(again.ETag).toBe(first.ETag);
    expect(again.ETag).toMatch(/-2"$/);
    expect([again.Bucket, again.Key]).toEqual([b, 'retry']);
    // A retry is not a new write: the conditions the first request passed are not asked again.
    expect((await complete('retry', id, parts, { IfNoneMatch: '*' })).ETag).toBe(first.ETag);
    // Another part list is not a retry of this completion.
    expect((await sdkError(complete('retry', id, parts.slice(0, 1)))).name).toBe('NoSuchUpload');
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'retry' }));
    expect((await sdkError(complete('retry', id, parts))).name).toBe('NoSuchUpload');
  });

  it('AbortMultipartUpload after the completion answers 204 and keeps the object; once the object is deleted, NoSuchUpload', async () => {
    const { id, parts } = await upload('abort-done', ['only part']);
    await complete('abort-done', id, parts);
    const abort = () => c.send(new AbortMultipartUploadCommand({ Bucket: b, Key: 'abort-done', UploadId: id }));
    expect((await abort()).$metadata.httpStatusCode).toBe(204);
    expect(await text('abort-done')).toBe('only part');
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'abort-done' }));
    const gone = await sdkError(abort());
    expect([gone.status, gone.name]).toEqual([404, 'NoSuchUpload']);
  });

  it('a part listed twice (resent) counts once, with its last ETag', async () => {
    const { id, parts } = await upload('dup', ['first body']);
    const resent = await c.send(new UploadPartCommand({ Bucket: b, Key: 'dup', UploadId: id, PartNumber: 1, Body: 'resent body' }));
    const done = await complete('dup', id, [parts[0]!, { PartNumber: 1, ETag: resent.ETag! }]);
    expect(done.ETag).toMatch(/-1"$/);
    expect(await text('dup')).toBe('resent body');
  });
});

describe('partNumber reads and UploadPartCopy ranges', () => {
  it('partNumber beyond the parts: 416 InvalidPartNumber with the counts (AWS), and partNumber with Range is InvalidRequest', async () => {
    const { id, parts } = await upload('parted', [Buffer.alloc(5 * MiB, 'p'), 'last']);
    await complete('parted', id, parts);
    const part2 = await c.send(new GetObjectCommand({ Bucket: b, Key: 'parted', PartNumber: 2 }));
    expect([part2.PartsCount, part2.ContentRange]).toEqual([2, `bytes ${5 * MiB}-${5 * MiB + 3}/${5 * MiB + 4}`]);
    const beyond = await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'parted', PartNumber: 3 })));
    expect([beyond.status, beyond.name]).toEqual([416, 'InvalidPartNumber']);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'parted', PartNumber: 3 })))).status).toBe(416);
    const r = await raw(s, 'GET', `/${b}/parted?partNumber=3`, { as: ALICE });
    expect(errorOf(r)).toMatchObject({ Code: 'InvalidPartNumber', PartNumberRequested: '3', ActualPartCount: '2' });
    const both = await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'parted', PartNumber: 1, Range: 'bytes=0-1' })));
    expect([both.status, both.name]).toEqual([400, 'InvalidRequest']);
  });

  it('UploadPartCopy: a range past the source or reversed is InvalidRange; suffix, open and multiple ranges are InvalidArgument', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'src', Body: '0123456789' }));
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'dst' }))).UploadId!;
    const copy = (CopySourceRange: string) => c.send(new UploadPartCopyCommand({ Bucket: b, Key: 'dst', UploadId: id, PartNumber: 1, CopySource: `${b}/src`, CopySourceRange }));
    for (const range of ['bytes=0-10', 'bytes=5-2']) {
      const e = await sdkError(copy(range));
      expect([range, e.status, e.name]).toEqual([range, 416, 'InvalidRange']);
    }
    for (const range of ['bytes=0-1,4-5', 'bytes=-3', 'bytes=2-', '0-3']) {
      const e = await sdkError(copy(range));
      expect([range, e.status, e.name]).toEqual([range, 400, 'InvalidArgument']);
    }
    const ok = await copy('bytes=2-5');
    expect(ok.CopyPartResult?.ETag).toBe(`"${createHash('md5').update('2345').digest('hex')}"`);
  });
});

describe('x-amz-delete-marker on reads of a missing key', () => {
  // AWS's HeadObject/GetObject reference: "If false, this response header does not appear in the
  // response"; only a key hidden by a delete marker says true (with the marker's version id).
  it('is absent for a key deleted from an unversioned bucket, true over a delete marker', async () => {
    const headers = async (bucket: string, key: string) => {
      const r = await raw(s, 'HEAD', `/${bucket}/${key}`, { as: ALICE });
      expect(r.status).toBe(404);
      return r.headers;
    };
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'gone', Body: 'x' }));
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'gone' }));
    expect((await headers(b, 'gone'))['x-amz-delete-marker']).toBeUndefined();
    const e = await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'gone' })));
    expect([e.status, e.name]).toEqual([404, 'NoSuchKey']);
    const vb = `${b}-versioned`;
    await c.send(new CreateBucketCommand({ Bucket: vb }));
    await c.send(new PutBucketVersioningCommand({ Bucket: vb, VersioningConfiguration: { Status: 'Enabled' } }));
    await c.send(new PutObjectCommand({ Bucket: vb, Key: 'gone', Body: 'x' }));
    const marker = await c.send(new DeleteObjectCommand({ Bucket: vb, Key: 'gone' }));
    const h = await headers(vb, 'gone');
    expect([h['x-amz-delete-marker'], h['x-amz-version-id']]).toEqual(['true', marker.VersionId]);
  });
});

describe('DELETE of a sub-resource S3 has no DELETE for', () => {
  // Swift's s3api, written against AWS, answers these 405 MethodNotAllowed; read as a plain
  // DELETE they had removed the object (or an empty bucket) a client meant to leave alone.
  it('is 405 MethodNotAllowed, and the object and the bucket stay', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'kept', Body: 'still here' }));
    for (const sub of ['acl', 'retention', 'legal-hold', 'attributes']) {
      const r = await raw(s, 'DELETE', `/${b}/kept?${sub}`, { as: ALICE });
      expect([sub, r.status, errorOf(r).Code]).toEqual([sub, 405, 'MethodNotAllowed']);
    }
    expect(await text('kept')).toBe('still here');
    const empty = `${b}-empty`;
    await c.send(new CreateBucketCommand({ Bucket: empty }));
    for (const sub of ['acl', 'versioning']) {
      const r = await raw(s, 'DELETE', `/${empty}?${sub}`, { as: ALICE });
      expect([sub, r.status, errorOf(r).Code]).toEqual([sub, 405, 'MethodNotAllowed']);
    }
    expect((await raw(s, 'HEAD', `/${empty}`, { as: ALICE })).status).toBe(200);
  });
});

describe('listing parameters and stored headers', () => {
  it('an empty continuation-token starts the listing (not 400)', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'listed', Body: 'x' }));
    const r = await raw(s, 'GET', `/${b}?list-type=2&continuation-token=&prefix=listed`, { as: ALICE });
    expect(r.status).toBe(200);
    expect(r.body.toString()).toContain('<Key>listed</Key>');
  });

  it('Content-Encoding comes back exactly as sent; only aws-chunked is taken out', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'encoded', Body: 'x', ContentEncoding: 'deflate, gzip' }));
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'encoded' }))).ContentEncoding).toBe('deflate, gzip');
  });
});

describe('ListBuckets paging', () => {
  it('max-buckets, continuation-token and prefix, page by page as the SDK follows them', async () => {
    const mine = ['page-a', 'page-b', 'page-c'].map((n) => `${b}-${n}`);
    for (const Bucket of mine) await c.send(new CreateBucketCommand({ Bucket }));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await c.send(new ListBucketsCommand({ MaxBuckets: 2, Prefix: `${b}-page-`, ...(token ? { ContinuationToken: token } : {}) }));
      expect(page.Prefix).toBe(`${b}-page-`);
      seen.push(...(page.Buckets ?? []).map((x) => x.Name!));
      token = page.ContinuationToken;
      pages++;
    } while (token);
    expect([seen, pages]).toEqual([mine, 2]);
    const all = await c.send(new ListBucketsCommand({}));
    expect(all.ContinuationToken).toBeUndefined();
    expect(all.Buckets!.map((x) => x.Name)).toEqual(expect.arrayContaining([b, ...mine]));
    expect((await sdkError(c.send(new ListBucketsCommand({ MaxBuckets: 0 })))).name).toBe('InvalidArgument');
  });
});
