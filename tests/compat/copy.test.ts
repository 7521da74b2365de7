// CopyObject through the AWS SDK v3 (§23): metadata directive COPY/REPLACE, copying onto itself,
// a source version, copy-source conditionals, across buckets, and the caller's rights on both ends.
import {
  CopyObjectCommand,
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, bucketName, errorOf, raw, readAll, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
let src: { etag: string; lastModified: Date };
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('copy'));
  const put = await c.send(
    new PutObjectCommand({ Bucket: b, Key: 'src/file.txt', Body: 'source bytes', ContentType: 'text/plain', Metadata: { origin: 'source' }, CacheControl: 'max-age=5' }),
  );
  const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'src/file.txt' }));
  src = { etag: put.ETag!, lastModified: head.LastModified! };
});
afterAll(async () => {
  await s?.close();
});

const source = () => `${b}/src/file.txt`;

describe('CopyObject', () => {
  it('COPY (the default) keeps the source metadata and ignores the request\'s', async () => {
    const r = await c.send(new CopyObjectCommand({ Bucket: b, Key: 'dst/copy.txt', CopySource: source(), Metadata: { ignored: 'yes' }, ContentType: 'application/x-ignored' }));
    expect(r.CopyObjectResult?.ETag).toBe(src.etag);
    expect(r.CopyObjectResult?.LastModified).toBeInstanceOf(Date);
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'dst/copy.txt' }));
    expect(head).toMatchObject({ ContentType: 'text/plain', Metadata: { origin: 'source' }, CacheControl: 'max-age=5', ETag: src.etag });
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: 'dst/copy.txt' }))).Body)).toString()).toBe('source bytes');
  });

  it('REPLACE takes metadata and headers from the request', async () => {
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'dst/replaced.txt', CopySource: source(), MetadataDirective: 'REPLACE', Metadata: { fresh: '1' }, ContentType: 'text/markdown' }));
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'dst/replaced.txt' }));
    expect([head.ContentType, head.Metadata, head.CacheControl]).toEqual(['text/markdown', { fresh: '1' }, undefined]);
  });

  it('copies onto itself only with REPLACE (edits metadata); COPY is InvalidRequest', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'self', Body: 'self bytes', Metadata: { v: '1' } }));
    const e = await sdkError(c.send(new CopyObjectCommand({ Bucket: b, Key: 'self', CopySource: `${b}/self` })));
    expect([e.name, e.status]).toEqual(['InvalidRequest', 400]);
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'self', CopySource: `${b}/self`, MetadataDirective: 'REPLACE', Metadata: { v: '2' }, ContentType: 'text/x-edited' }));
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'self' }));
    expect([head.Metadata, head.ContentType, head.ContentLength]).toEqual([{ v: '2' }, 'text/x-edited', 10]);
  });

  it('refuses an unknown metadata directive', async () => {
    const r = await raw(s, 'PUT', `/${b}/x`, { as: ALICE, headers: { 'x-amz-copy-source': source(), 'x-amz-metadata-directive': 'MERGE' } });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'InvalidArgument']);
  });

  it('copies a given source version, and says which', async () => {
    const vb = bucketName('vcopy');
    await c.send(new CreateBucketCommand({ Bucket: vb }));
    await c.send(new PutBucketVersioningCommand({ Bucket: vb, VersioningConfiguration: { Status: 'Enabled' } }));
    const v1 = await c.send(new PutObjectCommand({ Bucket: vb, Key: 'doc', Body: 'version one' }));
    await c.send(new PutObjectCommand({ Bucket: vb, Key: 'doc', Body: 'version two' }));
    const r = await c.send(new CopyObjectCommand({ Bucket: b, Key: 'from-v1', CopySource: `${vb}/doc?versionId=${v1.VersionId}` }));
    expect(r.CopySourceVersionId).toBe(v1.VersionId);
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: 'from-v1' }))).Body)).toString()).toBe('version one');
    // Copying an old version onto its own key restores it as the newest version.
    const restored = await c.send(new CopyObjectCommand({ Bucket: vb, Key: 'doc', CopySource: `${vb}/doc?versionId=${v1.VersionId}` }));
    expect(restored.VersionId).toBeTruthy();
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: vb, Key: 'doc' }))).Body)).toString()).toBe('version one');
  });

  it('evaluates x-amz-copy-source-if-* on the source', async () => {
    const before = new Date(src.lastModified.getTime() - 60_000);
    const after = new Date(src.lastModified.getTime() + 60_000);
    const fail = async (p: Promise<unknown>) => expect((await sdkError(p)).status).toBe(412);
    const cp = (extra: Record<string, unknown>) => c.send(new CopyObjectCommand({ Bucket: b, Key: 'cond', CopySource: source(), ...extra }));
    await fail(cp({ CopySourceIfMatch: '"0000"' }));
    await fail(cp({ CopySourceIfNoneMatch: src.etag }));
    await fail(cp({ CopySourceIfModifiedSince: after }));
    await fail(cp({ CopySourceIfUnmodifiedSince: before }));
    await cp({ CopySourceIfMatch: src.etag });
    await cp({ CopySourceIfNoneMatch: '"0000"', CopySourceIfModifiedSince: before });
    await cp({ CopySourceIfMatch: src.etag, CopySourceIfUnmodifiedSince: before });
  });

  it('answers NoSuchKey / NoSuchBucket for a missing source, and accepts a URL-encoded source with a leading slash', async () => {
    expect((await sdkError(c.send(new CopyObjectCommand({ Bucket: b, Key: 'x', CopySource: `${b}/missing` })))).name).toBe('NoSuchKey');
    expect((await sdkError(c.send(new CopyObjectCommand({ Bucket: b, Key: 'x', CopySource: `${bucketName('none')}/k` })))).name).toBe('NoSuchBucket');
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'odd name+ü%.txt', Body: 'odd' }));
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'odd-copy', CopySource: `/${b}/${encodeURIComponent('odd name+ü%.txt')}` }));
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: 'odd-copy' }))).Body)).toString()).toBe('odd');
  });

  it('needs read access to the source and write access to the destination', async () => {
    const bob = s.client(BOB);
    const bobs = bucketName('bobs');
    await bob.send(new CreateBucketCommand({ Bucket: bobs }));
    expect((await sdkError(bob.send(new CopyObjectCommand({ Bucket: bobs, Key: 'stolen', CopySource: source() })))).name).toBe('AccessDenied');
    expect((await sdkError(c.send(new CopyObjectCommand({ Bucket: bobs, Key: 'pushed', CopySource: source() })))).name).toBe('AccessDenied');
  });

  it('applies a canned ACL to the destination', async () => {
    await c.send(new CopyObjectCommand({ Bucket: b, Key: 'public-copy', CopySource: source(), ACL: 'public-read' }));
    expect((await raw(s, 'GET', `/${b}/public-copy`)).text).toBe('source bytes');
    expect((await raw(s, 'GET', `/${b}/src/file.txt`)).status).toBe(403);
  });
});
