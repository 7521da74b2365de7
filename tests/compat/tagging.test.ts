// Object and bucket tagging through the AWS SDK v3: Put/Get/DeleteObjectTagging (with versions),
// x-amz-tagging on PutObject, CreateMultipartUpload and CopyObject (tagging directive),
// x-amz-tagging-count on GET/HEAD, AWS's limits and their error codes, and bucket tag sets.
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketTaggingCommand,
  DeleteObjectTaggingCommand,
  GetBucketTaggingCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOB, bucketName, errorOf, raw, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('tags'));
});
afterAll(async () => {
  await s?.close();
});

const tagsOf = async (Key: string, VersionId?: string) => (await c.send(new GetObjectTaggingCommand({ Bucket: b, Key, VersionId }))).TagSet;

describe('object tagging', () => {
  it('PutObject with x-amz-tagging stores the tags; GET and HEAD count them', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'tagged', Body: 'x', Tagging: 'colour=blue&size=big%20one&empty=' }));
    expect(await tagsOf('tagged')).toEqual([
      { Key: 'colour', Value: 'blue' },
      { Key: 'size', Value: 'big one' },
      { Key: 'empty', Value: '' },
    ]);
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'tagged' }))).TagCount).toBe(3);
    expect((await c.send(new GetObjectCommand({ Bucket: b, Key: 'tagged' }))).TagCount).toBe(3);
  });

  it('an object without tags has an empty set and no count', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'plain', Body: 'x' }));
    expect(await tagsOf('plain')).toEqual([]);
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'plain' }))).TagCount).toBeUndefined();
  });

  it('PutObjectTagging replaces the set without a new version or a new Last-Modified; Delete removes it', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'retag', Body: 'x', Tagging: 'a=1' }));
    const before = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'retag' }));
    await c.send(new PutObjectTaggingCommand({ Bucket: b, Key: 'retag', Tagging: { TagSet: [{ Key: 'b', Value: '2' }, { Key: 'ключ', Value: 'значение' }] } }));
    expect(await tagsOf('retag')).toEqual([{ Key: 'b', Value: '2' }, { Key: 'ключ', Value: 'значение' }]);
    const after = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'retag' }));
    expect([after.ETag, after.LastModified]).toEqual([before.ETag, before.LastModified]);
    await c.send(new DeleteObjectTaggingCommand({ Bucket: b, Key: 'retag' }));
    expect(await tagsOf('retag')).toEqual([]);
  });

  it('tags a given version and leaves the others', async () => {
    const vb = bucketName('tagv');
    await c.send(new CreateBucketCommand({ Bucket: vb }));
    await c.send(new PutBucketVersioningCommand({ Bucket: vb, VersioningConfiguration: { Status: 'Enabled' } }));
    const v1 = (await c.send(new PutObjectCommand({ Bucket: vb, Key: 'k', Body: '1', Tagging: 'v=1' }))).VersionId!;
    const v2 = (await c.send(new PutObjectCommand({ Bucket: vb, Key: 'k', Body: '2' }))).VersionId!;
    const put = await c.send(new PutObjectTaggingCommand({ Bucket: vb, Key: 'k', VersionId: v1, Tagging: { TagSet: [{ Key: 'old', Value: 'yes' }] } }));
    expect(put.VersionId).toBe(v1);
    const got = await c.send(new GetObjectTaggingCommand({ Bucket: vb, Key: 'k', VersionId: v1 }));
    expect([got.VersionId, got.TagSet]).toEqual([v1, [{ Key: 'old', Value: 'yes' }]]);
    expect((await c.send(new GetObjectTaggingCommand({ Bucket: vb, Key: 'k' }))).TagSet).toEqual([]);
    expect((await c.send(new HeadObjectCommand({ Bucket: vb, Key: 'k', VersionId: v1 }))).TagCount).toBe(1);
    expect((await sdkError(c.send(new GetObjectTaggingCommand({ Bucket: vb, Key: 'k', VersionId: 'nope' })))).name).toBe('NoSuchVersion');
    void v2;
  });

  it('refuses what AWS refuses, and stores nothing', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
    const cases: [{ Key: string; Value: string }[], string][] = [
      [eleven, 'BadRequest'],
      [[{ Key: 'x'.repeat(129), Value: 'v' }], 'InvalidTag'],
      [[{ Key: 'k', Value: 'v'.repeat(257) }], 'InvalidTag'],
      [[{ Key: 'dup', Value: '1' }, { Key: 'dup', Value: '2' }], 'InvalidTag'],
      [[{ Key: 'aws:reserved', Value: 'v' }], 'InvalidTag'],
    ];
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'limits', Body: 'x', Tagging: 'keep=me' }));
    for (const [TagSet, code] of cases) {
      const err = await sdkError(c.send(new PutObjectTaggingCommand({ Bucket: b, Key: 'limits', Tagging: { TagSet } })));
      expect([err.name, err.status]).toEqual([code, 400]);
    }
    // 128 and 256 characters counted as characters (each of these is 2 UTF-16 units).
    await c.send(new PutObjectTaggingCommand({ Bucket: b, Key: 'limits', Tagging: { TagSet: [{ Key: '😀'.repeat(128), Value: '😀'.repeat(256) }] } }));
    expect((await tagsOf('limits'))?.[0]?.Key).toBe('😀'.repeat(128));
    const dupHeader = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'dup-header', Body: 'x', Tagging: 'a=1&a=2' })));
    expect(dupHeader.name).toBe('InvalidArgument');
    const tooMany = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'many', Body: 'x', Tagging: eleven.map((t) => `${t.Key}=v`).join('&') })));
    expect(tooMany.name).toBe('BadRequest');
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'many' })))).status).toBe(404);
  });

  it('answers NoSuchKey for an object that is not there, and AccessDenied to a stranger', async () => {
    expect((await sdkError(tagsOf('missing'))).name).toBe('NoSuchKey');
    const bob = s.client(BOB);
    expect((await sdkError(bob.send(new PutObjectTaggingCommand({ Bucket: b, Key: 'tagged', Tagging: { TagSet: [] } })))).name).toBe('AccessDenied');
    expect(await tagsOf('tagged')).toHaveLength(3);
  });

  it('malformed XML is MalformedXML', async () => {
    const r = await raw(s, 'PUT', `/${b}/tagged?tagging`, { as: undefined, body: '<Tagging><Nope/></Tagging>' });
    expect(r.status).toBe(403);
    const signed = await raw(s, 'PUT', `/${b}/tagged?tagging`, { as: (await import('./server.js')).ALICE, body: '<Tagging><Nope/></Tagging>' });
    expect([signed.status, errorOf(signed).Code]).toEqual([400, 'MalformedXML']);
  });

  it('CreateMultipartUpload keeps x-amz-tagging for the completed object', async () => {
    const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp', Tagging: 'from=upload' }));
    const part = await c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId, PartNumber: 1, Body: 'part' }));
    await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'mp', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } }));
    expect(await tagsOf('mp')).toEqual([{ Key: 'from', Value: 'upload' }]);
  });

  it('CopyObject keeps the source tags by default and takes x-amz-tagging with REPLACE', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'copy-src', Body: 'x', Tagging: 'src=1' }));
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'copy-default', CopySource: `${b}/copy-src`, Tagging: 'ignored=1' }));
    expect(await tagsOf('copy-default')).toEqual([{ Key: 'src', Value: '1' }]);
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'copy-replace', CopySource: `${b}/copy-src`, TaggingDirective: 'REPLACE', Tagging: 'new=2' }));
    expect(await tagsOf('copy-replace')).toEqual([{ Key: 'new', Value: '2' }]);
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'copy-none', CopySource: `${b}/copy-src`, TaggingDirective: 'REPLACE' }));
    expect(await tagsOf('copy-none')).toEqual([]);
    // Onto itself with REPLACE metadata: the tags follow the tagging directive (COPY: kept).
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'copy-src', CopySource: `${b}/copy-src`, MetadataDirective: 'REPLACE', Metadata: { m: '1' } }));
    expect(await tagsOf('copy-src')).toEqual([{ Key: 'src', Value: '1' }]);
    const bad = await sdkError(c.send(new CopyObjectCommand({ Bucket: b, Key: 'x', CopySource: `${b}/copy-src`, TaggingDirective: 'MAYBE' as 'COPY' })));
    expect(bad.name).toBe('InvalidArgument');
  });
});

describe('bucket tagging', () => {
  it('NoSuchTagSet until set; replaced whole; deleted', async () => {
    const tb = bucketName('btag');
    await c.send(new CreateBucketCommand({ Bucket: tb }));
    expect((await sdkError(c.send(new GetBucketTaggingCommand({ Bucket: tb })))).name).toBe('NoSuchTagSet');
    await c.send(new PutBucketTaggingCommand({ Bucket: tb, Tagging: { TagSet: [{ Key: 'team', Value: 'data' }, { Key: 'cost', Value: '12' }] } }));
    expect((await c.send(new GetBucketTaggingCommand({ Bucket: tb }))).TagSet).toEqual([{ Key: 'team', Value: 'data' }, { Key: 'cost', Value: '12' }]);
    await c.send(new PutBucketTaggingCommand({ Bucket: tb, Tagging: { TagSet: [{ Key: 'only', Value: 'one' }] } }));
    expect((await c.send(new GetBucketTaggingCommand({ Bucket: tb }))).TagSet).toEqual([{ Key: 'only', Value: 'one' }]);
    const dup = await sdkError(c.send(new PutBucketTaggingCommand({ Bucket: tb, Tagging: { TagSet: [{ Key: 'a', Value: '1' }, { Key: 'a', Value: '2' }] } })));
    expect(dup.name).toBe('InvalidTag');
    const fiftyOne = Array.from({ length: 51 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
    expect((await sdkError(c.send(new PutBucketTaggingCommand({ Bucket: tb, Tagging: { TagSet: fiftyOne } })))).name).toBe('BadRequest');
    await c.send(new PutBucketTaggingCommand({ Bucket: tb, Tagging: { TagSet: fiftyOne.slice(0, 50) } }));
    await c.send(new DeleteBucketTaggingCommand({ Bucket: tb }));
    expect((await sdkError(c.send(new GetBucketTaggingCommand({ Bucket: tb })))).name).toBe('NoSuchTagSet');
    expect((await sdkError(s.client(BOB).send(new GetBucketTaggingCommand({ Bucket: tb })))).name).toBe('AccessDenied');
  });
});
