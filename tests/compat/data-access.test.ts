// Tagging, checksums and GetObjectAttributes meeting ACLs, bucket policies and conditional writes
// (the s3-data branch merged with main's issue 26 work): the policy actions AWS names for the
// tagging and attributes operations, and one request carrying an ACL, tags, a checksum and a
// write condition at once.
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketTaggingCommand,
  DeleteObjectTaggingCommand,
  GetBucketTaggingCommand,
  GetObjectAclCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, bucketName, raw, sdkError, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let alice: S3Client;
let bob: S3Client;

beforeAll(async () => {
  s = await startS3Server({ users: [ALICE, BOB] });
  alice = s.client(ALICE);
  bob = s.client(BOB);
});
afterAll(() => s?.close());

async function mkBucket(): Promise<string> {
  const b = bucketName('data-acc');
  await alice.send(new CreateBucketCommand({ Bucket: b }));
  return b;
}

const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
const status = async (p: Promise<unknown>) => (await sdkError(p)).status;

describe('bucket policies name the tagging and attributes actions as AWS does', () => {
  it('s3:GetObjectTagging, s3:PutObjectTagging, s3:GetObjectAttributes, s3:PutBucketTagging open only their operations; a version asks its own action', async () => {
    const b = await mkBucket();
    await alice.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
    const v1 = (await alice.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'one', Tagging: 'a=1' }))).VersionId!;
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'two', Tagging: 'b=2' }));
    const principal = { AWS: BOB.account };
    const statements = [
      { Effect: 'Allow', Principal: principal, Action: ['s3:GetObjectTagging', 's3:PutObjectTagging', 's3:GetObjectAttributes'], Resource: `arn:aws:s3:::${b}/*` },
      { Effect: 'Allow', Principal: principal, Action: ['s3:GetBucketTagging', 's3:PutBucketTagging'], Resource: `arn:aws:s3:::${b}` },
    ];
    await alice.send(new PutBucketPolicyCommand({ Bucket: b, Policy: JSON.stringify({ Version: '2012-10-17', Statement: statements }) }));

    expect((await bob.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'k' }))).TagSet).toEqual([{ Key: 'b', Value: '2' }]);
    // The bytes are s3:GetObject's, a version's tags s3:GetObjectVersionTagging's, removal s3:DeleteObjectTagging's.
    expect(await status(bob.send(new GetObjectCommand({ Bucket: b, Key: 'k' })))).toBe(403);
    expect(await status(bob.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'k', VersionId: v1 })))).toBe(403);
    expect(await status(bob.send(new PutObjectTaggingCommand({ Bucket: b, Key: 'k', VersionId: v1, Tagging: { TagSet: [] } })))).toBe(403);
    expect(await status(bob.send(new DeleteObjectTaggingCommand({ Bucket: b, Key: 'k' })))).toBe(403);
    await bob.send(new PutObjectTaggingCommand({ Bucket: b, Key: 'k', Tagging: { TagSet: [{ Key: 'by', Value: 'bob' }] } }));
    expect((await alice.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'k' }))).TagSet).toEqual([{ Key: 'by', Value: 'bob' }]);
    expect((await alice.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'k', VersionId: v1 }))).TagSet).toEqual([{ Key: 'a', Value: '1' }]);

    const attrs = await bob.send(new GetObjectAttributesCommand({ Bucket: b, Key: 'k', ObjectAttributes: ['ObjectSize'] }));
    expect(attrs.ObjectSize).toBe(3);
    expect(await status(bob.send(new GetObjectAttributesCommand({ Bucket: b, Key: 'k', VersionId: v1, ObjectAttributes: ['ObjectSize'] })))).toBe(403);

    await bob.send(new PutBucketTaggingCommand({ Bucket: b, Tagging: { TagSet: [{ Key: 'team', Value: 'b' }] } }));
    expect((await bob.send(new GetBucketTaggingCommand({ Bucket: b }))).TagSet).toEqual([{ Key: 'team', Value: 'b' }]);
    // DeleteBucketTagging is s3:PutBucketTagging's, as AWS asks.
    await bob.send(new DeleteBucketTaggingCommand({ Bucket: b }));
    expect((await sdkError(alice.send(new GetBucketTaggingCommand({ Bucket: b })))).name).toBe('NoSuchTagSet');
  });

  it('without a policy, another account may not tag the owner\'s bucket', async () => {
    const b = await mkBucket();
    expect(await status(bob.send(new PutBucketTaggingCommand({ Bucket: b, Tagging: { TagSet: [{ Key: 'x', Value: 'y' }] } })))).toBe(403);
    expect(await status(bob.send(new GetBucketTaggingCommand({ Bucket: b })))).toBe(403);
  });
});

describe('one write with an ACL, tags, a checksum and a condition', () => {
  it('PutObject: public-read, x-amz-tagging and If-None-Match all apply', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'p', Body: 'data', ACL: 'public-read', Tagging: 't=1', IfNoneMatch: '*', ChecksumAlgorithm: 'CRC64NVME' }));
    expect((await raw(s, 'GET', `/${b}/p`)).status).toBe(200);
    expect((await alice.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'p' }))).TagSet).toEqual([{ Key: 't', Value: '1' }]);
    const acl = await alice.send(new GetObjectAclCommand({ Bucket: b, Key: 'p' }));
    expect(acl.Grants!.some((g) => g.Grantee?.URI === ALL_USERS)).toBe(true);
    expect(await status(alice.send(new PutObjectCommand({ Bucket: b, Key: 'p', Body: 'again', Tagging: 't=2', IfNoneMatch: '*' })))).toBe(412);
    expect((await alice.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'p' }))).TagSet).toEqual([{ Key: 't', Value: '1' }]);
    const attrs = await alice.send(new GetObjectAttributesCommand({ Bucket: b, Key: 'p', ObjectAttributes: ['Checksum'] }));
    expect(attrs.Checksum?.ChecksumCRC64NVME).toBeDefined();
  });

  it('a multipart upload keeps its ACL, tags and checksum algorithm; the completion takes If-None-Match and a retry answers the same', async () => {
    const b = await mkBucket();
    const Key = 'mp';
    const created = await alice.send(new CreateMultipartUploadCommand({ Bucket: b, Key, ACL: 'public-read', Tagging: 'm=1', ChecksumAlgorithm: 'CRC32' }));
    const UploadId = created.UploadId!;
    expect(created.ChecksumAlgorithm).toBe('CRC32');
    const p1 = await alice.send(new UploadPartCommand({ Bucket: b, Key, UploadId, PartNumber: 1, Body: Buffer.alloc(5 * 1024 * 1024, 'a'), ChecksumAlgorithm: 'CRC32' }));
    const p2 = await alice.send(new UploadPartCommand({ Bucket: b, Key, UploadId, PartNumber: 2, Body: 'tail', ChecksumAlgorithm: 'CRC32' }));
    const Parts = [
      { PartNumber: 1, ETag: p1.ETag, ChecksumCRC32: p1.ChecksumCRC32 },
      { PartNumber: 2, ETag: p2.ETag, ChecksumCRC32: p2.ChecksumCRC32 },
    ];
    const done = await alice.send(new CompleteMultipartUploadCommand({ Bucket: b, Key, UploadId, IfNoneMatch: '*', MultipartUpload: { Parts } }));
    expect(done.ChecksumCRC32).toMatch(/-2$/);
    expect(done.ChecksumType).toBe('COMPOSITE');
    const again = await alice.send(new CompleteMultipartUploadCommand({ Bucket: b, Key, UploadId, IfNoneMatch: '*', MultipartUpload: { Parts } }));
    expect(again.ETag).toBe(done.ETag);
    expect((await raw(s, 'HEAD', `/${b}/${Key}`)).status).toBe(200);
    expect((await alice.send(new GetObjectTaggingCommand({ Bucket: b, Key }))).TagSet).toEqual([{ Key: 'm', Value: '1' }]);
    const attrs = await alice.send(new GetObjectAttributesCommand({ Bucket: b, Key, ObjectAttributes: ['ObjectParts', 'Checksum'] }));
    expect(attrs.ObjectParts?.TotalPartsCount).toBe(2);
    expect(attrs.Checksum?.ChecksumCRC32).toBe(done.ChecksumCRC32);
  });

  it('CopyObject with an ACL and the tagging directive REPLACE', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'src', Body: 'x', Tagging: 'old=1' }));
    await alice.send(new CopyObjectCommand({ Bucket: b, Key: 'dst', CopySource: `${b}/src`, ACL: 'public-read', TaggingDirective: 'REPLACE', Tagging: 'new=2' }));
    expect((await alice.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'dst' }))).TagSet).toEqual([{ Key: 'new', Value: '2' }]);
    expect((await raw(s, 'GET', `/${b}/dst`)).status).toBe(200);
    // The source keeps its tags and stays private.
    expect((await alice.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'src' }))).TagSet).toEqual([{ Key: 'old', Value: '1' }]);
    expect((await raw(s, 'GET', `/${b}/src`)).status).toBe(403);
  });
});

describe('ACLs grant no tagging or attributes (AWS maps object READ to s3:GetObject, bucket WRITE to s3:PutObject and s3:DeleteObject)', () => {
  it('a public-read object and a READ grantee read the bytes but not the tags or attributes; a bucket WRITE grantee cannot tag', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'pub', Body: 'data', ACL: 'public-read', Tagging: 'secret=1' }));
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'granted', Body: 'data', GrantRead: `id=${BOB.account}`, Tagging: 'secret=2' }));
    expect((await raw(s, 'GET', `/${b}/pub`)).status).toBe(200);
    expect((await raw(s, 'GET', `/${b}/pub?tagging`)).status).toBe(403);
    expect((await raw(s, 'GET', `/${b}/pub?attributes`, { headers: { 'x-amz-object-attributes': 'ETag' } })).status).toBe(403);
    expect(await (await bob.send(new GetObjectCommand({ Bucket: b, Key: 'granted' }))).Body!.transformToString()).toBe('data');
    expect(await status(bob.send(new GetObjectTaggingCommand({ Bucket: b, Key: 'granted' })))).toBe(403);
    expect(await status(bob.send(new GetObjectAttributesCommand({ Bucket: b, Key: 'granted', ObjectAttributes: ['ETag'] })))).toBe(403);
    const c = bucketName('data-acc-w');
    await alice.send(new CreateBucketCommand({ Bucket: c, GrantWrite: `id=${BOB.account}` }));
    await alice.send(new PutObjectCommand({ Bucket: c, Key: 'k', Body: 'x' }));
    await bob.send(new PutObjectCommand({ Bucket: c, Key: 'bobs', Body: 'y' }));
    expect(await status(bob.send(new PutObjectTaggingCommand({ Bucket: c, Key: 'k', Tagging: { TagSet: [{ Key: 'x', Value: '1' }] } })))).toBe(403);
    expect(await status(bob.send(new DeleteObjectTaggingCommand({ Bucket: c, Key: 'k' })))).toBe(403);
  });
});
