// Service and bucket operations of the S3 API through the AWS SDK v3 (§20, §25, §26):
// ListBuckets, CreateBucket, HeadBucket, DeleteBucket, GetBucketLocation, versioning config,
// bucket policy and bucket ACL, with anonymous access checked by unsigned raw requests.
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketPolicyCommand,
  DeleteObjectCommand,
  GetBucketAclCommand,
  GetBucketLocationCommand,
  GetBucketPolicyCommand,
  GetBucketPolicyStatusCommand,
  GetBucketVersioningCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  PutBucketAclCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  type BucketLocationConstraint,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, bucketName, errorOf, raw, sdkError, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let alice: S3Client;
let bob: S3Client;
let carol: S3Client;
beforeAll(async () => {
  s = await startS3Server();
  alice = s.client(ALICE);
  bob = s.client(BOB);
  carol = s.client(CAROL);
});
afterAll(async () => {
  await s?.close();
});

async function mkBucket(c: S3Client = alice, label = 'bk'): Promise<string> {
  const b = bucketName(label);
  await c.send(new CreateBucketCommand({ Bucket: b }));
  return b;
}

describe('ListBuckets', () => {
  it('lists only the caller\'s buckets, by name, with the owner', async () => {
    const mine = [await mkBucket(alice, 'zz'), await mkBucket(alice, 'aa')];
    const theirs = await mkBucket(bob, 'mm');
    const r = await alice.send(new ListBucketsCommand({}));
    const names = r.Buckets!.map((b) => b.Name!);
    expect(names).toEqual([...names].sort());
    for (const b of mine) expect(names).toContain(b);
    expect(names).not.toContain(theirs);
    expect(r.Owner?.ID).toBe(ALICE.account);
    expect(r.Buckets![0]!.CreationDate).toBeInstanceOf(Date);
  });

  it('is refused to anonymous callers', async () => {
    const r = await raw(s, 'GET', '/');
    expect(r.status).toBe(403);
    expect(errorOf(r).Code).toBe('AccessDenied');
  });
});

describe('CreateBucket', () => {
  it('accepts any LocationConstraint (ignored)', async () => {
    for (const region of ['eu-west-1', 'default', 'auto', 'made-up-region:placement']) {
      const b = bucketName('loc');
      const r = await alice.send(new CreateBucketCommand({ Bucket: b, CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } }));
      expect(r.$metadata.httpStatusCode).toBe(200);
      expect(r.Location).toBe(`/${b}`);
    }
  });

  it('answers 200 for the caller\'s own existing bucket (RGW) and 409 BucketAlreadyExists for another user\'s', async () => {
    const b = await mkBucket();
    expect((await alice.send(new CreateBucketCommand({ Bucket: b }))).$metadata.httpStatusCode).toBe(200);
    const e = await sdkError(bob.send(new CreateBucketCommand({ Bucket: b })));
    expect(e.name).toBe('BucketAlreadyExists');
    expect(e.status).toBe(409);
  });

  it('gives every tenant its own namespace', async () => {
    const b = await mkBucket(alice);
    await carol.send(new CreateBucketCommand({ Bucket: b }));
    await carol.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'carol' }));
    await expect(alice.send(new HeadBucketCommand({ Bucket: b }))).resolves.toBeDefined();
    const r = await raw(s, 'GET', `/${b}/k`, { as: ALICE });
    expect(r.status).toBe(404);
  });

  it.each(['ab', 'a'.repeat(64), 'Upper', 'under_score', '-lead', 'trail-', 'a..b', 'a.-b', 'a-.b', '192.168.1.1'])('refuses the invalid name %s', async (name) => {
    const r = await raw(s, 'PUT', `/${name}`, { as: ALICE });
    expect(r.status).toBe(400);
    expect(errorOf(r).Code).toBe('InvalidBucketName');
  });

  it.each(['swift', 'auth', 'info', 'admin'])('refuses the reserved name %s (it belongs to the native API)', async (name) => {
    const e = await sdkError(alice.send(new CreateBucketCommand({ Bucket: name })));
    expect(e.name).toBe('InvalidBucketName');
    expect(e.status).toBe(400);
  });

  it('accepts a canned ACL and reads a malformed configuration as MalformedXML', async () => {
    const b = bucketName('acl');
    await alice.send(new CreateBucketCommand({ Bucket: b, ACL: 'public-read' }));
    const acl = await alice.send(new GetBucketAclCommand({ Bucket: b }));
    expect(acl.Grants!.some((g) => g.Grantee?.URI?.endsWith('/AllUsers') && g.Permission === 'READ')).toBe(true);
    const r = await raw(s, 'PUT', `/${bucketName('bad')}`, { as: ALICE, body: '<CreateBucketConfiguration><Loc' });
    expect(errorOf(r).Code).toBe('MalformedXML');
  });
});

describe('HeadBucket, GetBucketLocation, DeleteBucket', () => {
  it('heads a bucket with its region and counters; 404 and 403 without a body', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'x', Body: 'hello' }));
    const r = await raw(s, 'HEAD', `/${b}`, { as: ALICE });
    expect(r.status).toBe(200);
    expect(r.headers['x-amz-bucket-region']).toBe('us-east-1');
    expect(r.headers['x-rgw-object-count']).toBe('1');
    expect(r.headers['x-rgw-bytes-used']).toBe('5');
    expect((await sdkError(alice.send(new HeadBucketCommand({ Bucket: bucketName('none') })))).status).toBe(404);
    const denied = await sdkError(bob.send(new HeadBucketCommand({ Bucket: b })));
    expect(denied.status).toBe(403);
  });

  it('reports the location (empty for us-east-1)', async () => {
    const b = await mkBucket();
    const r = await alice.send(new GetBucketLocationCommand({ Bucket: b }));
    expect(r.LocationConstraint ?? '').toBe('');
  });

  it('refuses to delete a non-empty bucket, then deletes it', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'x', Body: 'x' }));
    const e = await sdkError(alice.send(new DeleteBucketCommand({ Bucket: b })));
    expect([e.name, e.status]).toEqual(['BucketNotEmpty', 409]);
    await alice.send(new DeleteObjectCommand({ Bucket: b, Key: 'x' }));
    expect((await alice.send(new DeleteBucketCommand({ Bucket: b }))).$metadata.httpStatusCode).toBe(204);
    expect((await sdkError(alice.send(new DeleteBucketCommand({ Bucket: b })))).name).toBe('NoSuchBucket');
  });

  it('only lets the owner delete a bucket', async () => {
    const b = await mkBucket();
    const e = await sdkError(bob.send(new DeleteBucketCommand({ Bucket: b })));
    expect([e.name, e.status]).toEqual(['AccessDenied', 403]);
  });
});

describe('bucket versioning configuration', () => {
  it('starts unconfigured, then Enabled, then Suspended', async () => {
    const b = await mkBucket();
    expect((await alice.send(new GetBucketVersioningCommand({ Bucket: b }))).Status).toBeUndefined();
    await alice.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
    expect((await alice.send(new GetBucketVersioningCommand({ Bucket: b }))).Status).toBe('Enabled');
    await alice.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Suspended' } }));
    expect((await alice.send(new GetBucketVersioningCommand({ Bucket: b }))).Status).toBe('Suspended');
  });
});

const publicRead = (b: string, actions: string[]) =>
  JSON.stringify({ Version: '2012-10-17', Statement: [{ Sid: 'Pub', Effect: 'Allow', Principal: '*', Action: actions, Resource: [`arn:aws:s3:::${b}/*`, `arn:aws:s3:::${b}`] }] });

describe('bucket policy', () => {
  it('has none at first; a public-read policy opens object reads to anonymous callers, not listings', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'doc.txt', Body: 'public bytes' }));
    expect((await sdkError(alice.send(new GetBucketPolicyCommand({ Bucket: b })))).name).toBe('NoSuchBucketPolicy');
    expect((await raw(s, 'GET', `/${b}/doc.txt`)).status).toBe(403);

    const policy = publicRead(b, ['s3:GetObject']);
    const put = await alice.send(new PutBucketPolicyCommand({ Bucket: b, Policy: policy }));
    expect(put.$metadata.httpStatusCode).toBe(204);
    expect(JSON.parse((await alice.send(new GetBucketPolicyCommand({ Bucket: b }))).Policy!)).toEqual(JSON.parse(policy));
    expect((await alice.send(new GetBucketPolicyStatusCommand({ Bucket: b }))).PolicyStatus?.IsPublic).toBe(true);

    const get = await raw(s, 'GET', `/${b}/doc.txt`);
    expect([get.status, get.text]).toEqual([200, 'public bytes']);
    expect((await raw(s, 'GET', `/${b}`)).status).toBe(403);
    // Other users are "anyone" too.
    expect((await raw(s, 'GET', `/${b}/doc.txt`, { as: BOB })).status).toBe(200);
  });

  it('s3:ListBucket opens anonymous listing; deleting the policy closes everything again', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'a', Body: 'a' }));
    await alice.send(new PutBucketPolicyCommand({ Bucket: b, Policy: publicRead(b, ['s3:GetObject', 's3:ListBucket']) }));
    const list = await raw(s, 'GET', `/${b}?list-type=2`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('<Key>a</Key>');
    await alice.send(new DeleteBucketPolicyCommand({ Bucket: b }));
    expect((await raw(s, 'GET', `/${b}?list-type=2`)).status).toBe(403);
    expect((await raw(s, 'GET', `/${b}/a`)).status).toBe(403);
  });

  it('refuses malformed policies and non-owners', async () => {
    const b = await mkBucket();
    expect((await sdkError(alice.send(new PutBucketPolicyCommand({ Bucket: b, Policy: '{not json' })))).name).toBe('MalformedPolicy');
    expect((await sdkError(bob.send(new PutBucketPolicyCommand({ Bucket: b, Policy: publicRead(b, ['s3:GetObject']) })))).status).toBe(403);
  });
});

describe('bucket ACL', () => {
  it('defaults to the owner\'s FULL_CONTROL', async () => {
    const b = await mkBucket();
    const acl = await alice.send(new GetBucketAclCommand({ Bucket: b }));
    expect(acl.Owner?.ID).toBe(ALICE.account);
    expect(acl.Grants).toEqual([{ Grantee: { Type: 'CanonicalUser', ID: ALICE.account, DisplayName: 'alice' }, Permission: 'FULL_CONTROL' }]);
  });

  it('public-read allows anonymous listing, but object reads need the object ACL (§26.4)', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'priv', Body: 'p' }));
    await alice.send(new PutBucketAclCommand({ Bucket: b, ACL: 'public-read' }));
    expect((await raw(s, 'GET', `/${b}`)).status).toBe(200);
    expect((await raw(s, 'GET', `/${b}/priv`)).status).toBe(403);
    await alice.send(new PutObjectAclCommand({ Bucket: b, Key: 'priv', ACL: 'public-read' }));
    expect((await raw(s, 'GET', `/${b}/priv`)).status).toBe(200);
    // Anonymous callers can read, never write.
    expect((await raw(s, 'PUT', `/${b}/new`, { body: 'x' })).status).toBe(403);
    await alice.send(new PutBucketAclCommand({ Bucket: b, ACL: 'private' }));
    expect((await raw(s, 'GET', `/${b}`)).status).toBe(403);
  });

  it('accepts an AccessControlPolicy document', async () => {
    const b = await mkBucket();
    await alice.send(
      new PutBucketAclCommand({
        Bucket: b,
        AccessControlPolicy: {
          Owner: { ID: ALICE.account },
          Grants: [
            { Grantee: { Type: 'CanonicalUser', ID: ALICE.account }, Permission: 'FULL_CONTROL' },
            { Grantee: { Type: 'Group', URI: 'http://acs.amazonaws.com/groups/global/AllUsers' }, Permission: 'READ' },
          ],
        },
      }),
    );
    expect((await raw(s, 'GET', `/${b}`)).status).toBe(200);
  });

  it('refuses unknown canned ACLs', async () => {
    const b = await mkBucket();
    const r = await raw(s, 'PUT', `/${b}?acl`, { as: ALICE, headers: { 'x-amz-acl': 'nonsense' } });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'InvalidArgument']);
  });
});
