// S3 ACLs and bucket policies as AWS applies them (§26, issue 26), through the AWS SDK v3 with a
// second (and third) account's keys, and unsigned raw requests for anonymous callers: ACLs of one
// version, every canned ACL, grant headers and documents enforced for their grantees, policies
// with named principals, Deny, Resource, NotAction and conditions, and 404 against 403 for a
// missing key.
import {
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetBucketAclCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketAclCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, bucketName, errorOf, raw, sdkError, startS3Server, type S3TestServer, type User } from './server.js';

/** A third account in Alice's tenant (bucket names resolve in the caller's tenant; Dave's is another). */
const DAVE: User = { account: 'test$dave', accessKey: 'DAVEACCESSKEY0000004', secretKey: 'dave-secret-key-0123456789abcdefghijklm', swiftUser: 'test$dave:swift', swiftKey: 'dave-swift' };

let s: S3TestServer;
let alice: S3Client;
let bob: S3Client;
let dave: S3Client;

beforeAll(async () => {
  s = await startS3Server({ users: [ALICE, BOB, CAROL, DAVE] });
  alice = s.client(ALICE);
  bob = s.client(BOB);
  dave = s.client(DAVE);
});
afterAll(() => s.close());

async function mkBucket(): Promise<string> {
  const b = bucketName('acc');
  await alice.send(new CreateBucketCommand({ Bucket: b }));
  return b;
}

const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
const AUTH_USERS = 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers';
const policy = (...statements: object[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });

describe('object ACLs of one version', () => {
  it('PutObjectAcl and GetObjectAcl with versionId act on that version; Last-Modified stays', async () => {
    const b = await mkBucket();
    await alice.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
    const v1 = (await alice.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'one' }))).VersionId!;
    const v2 = (await alice.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'two' }))).VersionId!;
    const before = await alice.send(new HeadObjectCommand({ Bucket: b, Key: 'k', VersionId: v1 }));
    await new Promise((r) => setTimeout(r, 1100));
    const put = await alice.send(new PutObjectAclCommand({ Bucket: b, Key: 'k', VersionId: v1, ACL: 'public-read' }));
    expect(put.$metadata.httpStatusCode).toBe(200);
    const acl1 = await alice.send(new GetObjectAclCommand({ Bucket: b, Key: 'k', VersionId: v1 }));
    expect(acl1.Grants!.map((g) => g.Grantee?.URI ?? g.Grantee?.ID)).toEqual([ALICE.account, ALL_USERS]);
    const acl2 = await alice.send(new GetObjectAclCommand({ Bucket: b, Key: 'k', VersionId: v2 }));
    expect(acl2.Grants!.map((g) => g.Grantee?.ID)).toEqual([ALICE.account]);
    // The latest version is still private; the old one is readable by anyone, by its id.
    expect((await raw(s, 'GET', `/${b}/k`)).status).toBe(403);
    const anon = await raw(s, 'GET', `/${b}/k?versionId=${v1}`);
    expect([anon.status, anon.text]).toEqual([200, 'one']);
    const after = await alice.send(new HeadObjectCommand({ Bucket: b, Key: 'k', VersionId: v1 }));
    expect(after.LastModified).toEqual(before.LastModified);
    expect(after.ETag).toBe(before.ETag);
    // No new version was made.
    const listed = await raw(s, 'GET', `/${b}?versions`, { as: ALICE });
    expect(listed.text.match(/<Version>/g)).toHaveLength(2);
    const latest = await alice.send(new HeadObjectCommand({ Bucket: b, Key: 'k' }));
    expect(latest.VersionId).toBe(v2);
  });

  it('PutObjectAcl on an unversioned object keeps its Last-Modified', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'x' }));
    const before = (await alice.send(new HeadObjectCommand({ Bucket: b, Key: 'k' }))).LastModified;
    await new Promise((r) => setTimeout(r, 1100));
    await alice.send(new PutObjectAclCommand({ Bucket: b, Key: 'k', ACL: 'public-read' }));
    expect((await alice.send(new HeadObjectCommand({ Bucket: b, Key: 'k' }))).LastModified).toEqual(before);
  });
});

describe('canned ACLs, grant headers and documents', () => {
  it('public-read-write on a bucket lets anonymous callers list and write; the ACL lists owner, READ, WRITE', async () => {
    const b = bucketName('prw');
    await alice.send(new CreateBucketCommand({ Bucket: b, ACL: 'public-read-write' }));
    const acl = await alice.send(new GetBucketAclCommand({ Bucket: b }));
    expect(acl.Grants!.map((g) => [g.Grantee?.ID ?? g.Grantee?.URI, g.Permission])).toEqual([
      [ALICE.account, 'FULL_CONTROL'],
      [ALL_USERS, 'READ'],
      [ALL_USERS, 'WRITE'],
    ]);
    expect((await raw(s, 'PUT', `/${b}/anon`, { body: 'x' })).status).toBe(200);
    expect((await raw(s, 'GET', `/${b}`)).status).toBe(200);
    // Bucket WRITE does not give object reads (§26.4).
    expect((await raw(s, 'GET', `/${b}/anon`)).status).toBe(403);
  });

  it('public-read-write on an object is taken (it grants reads)', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'o', Body: 'o', ACL: 'public-read-write' }));
    expect((await raw(s, 'GET', `/${b}/o`)).status).toBe(200);
  });

  it('authenticated-read: any signed-in account reads, anonymous callers do not', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'o', Body: 'o', ACL: 'authenticated-read' }));
    expect((await dave.send(new GetObjectCommand({ Bucket: b, Key: 'o' }))).$metadata.httpStatusCode).toBe(200);
    expect((await raw(s, 'GET', `/${b}/o`)).status).toBe(403);
    const acl = await alice.send(new GetObjectAclCommand({ Bucket: b, Key: 'o' }));
    expect(acl.Grants!.map((g) => g.Grantee?.URI ?? g.Grantee?.ID)).toEqual([ALICE.account, AUTH_USERS]);
  });

  it('grant headers on PutBucketAcl are enforced for the grantee: READ lists, WRITE writes, READ_ACP reads the ACL', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'o', Body: 'o' }));
    expect((await sdkError(bob.send(new ListObjectsV2Command({ Bucket: b })))).status).toBe(403);
    await alice.send(new PutBucketAclCommand({ Bucket: b, GrantRead: `id="${BOB.account}"`, GrantWrite: `id=${BOB.account}`, GrantReadACP: `id="${BOB.account}"`, GrantFullControl: `id="${ALICE.account}"` }));
    expect((await bob.send(new ListObjectsV2Command({ Bucket: b }))).Contents?.map((o) => o.Key)).toEqual(['o']);
    expect((await bob.send(new PutObjectCommand({ Bucket: b, Key: 'from-bob', Body: 'b' }))).$metadata.httpStatusCode).toBe(200);
    const acl = await bob.send(new GetBucketAclCommand({ Bucket: b }));
    expect(acl.Grants!.map((g) => [g.Grantee?.ID, g.Permission])).toEqual([
      [BOB.account, 'READ'],
      [BOB.account, 'WRITE'],
      [BOB.account, 'READ_ACP'],
      [ALICE.account, 'FULL_CONTROL'],
    ]);
    // READ_ACP is not WRITE_ACP; and Dave was granted nothing.
    expect((await sdkError(bob.send(new PutBucketAclCommand({ Bucket: b, ACL: 'public-read' })))).status).toBe(403);
    expect((await sdkError(dave.send(new ListObjectsV2Command({ Bucket: b })))).status).toBe(403);
  });

  it('object grant headers on PutObject, CopyObject and CreateMultipartUpload; a grant by e-mail is refused', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'src', Body: 'src', GrantRead: `id="${BOB.account}"` }));
    expect((await bob.send(new GetObjectCommand({ Bucket: b, Key: 'src' }))).$metadata.httpStatusCode).toBe(200);
    expect((await sdkError(dave.send(new GetObjectCommand({ Bucket: b, Key: 'src' })))).status).toBe(403);
    await alice.send(new CopyObjectCommand({ Bucket: b, Key: 'copy', CopySource: `${b}/src`, GrantRead: `id="${DAVE.account}"` }));
    expect((await dave.send(new GetObjectCommand({ Bucket: b, Key: 'copy' }))).$metadata.httpStatusCode).toBe(200);
    // A copy does not take its source's ACL.
    expect((await sdkError(bob.send(new GetObjectCommand({ Bucket: b, Key: 'copy' })))).status).toBe(403);
    await alice.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp', GrantFullControl: `id="${BOB.account}"` }));
    const email = await sdkError(alice.send(new PutObjectCommand({ Bucket: b, Key: 'e', Body: 'e', GrantRead: 'emailAddress="bob@example.com"' })));
    expect([email.status, email.name]).toEqual([400, 'UnresolvableGrantByEmailAddress']);
    const unknown = await sdkError(alice.send(new PutObjectAclCommand({ Bucket: b, Key: 'src', GrantRead: 'id="nobody$here"' })));
    expect([unknown.status, unknown.name]).toEqual([400, 'InvalidArgument']);
    const both = await raw(s, 'PUT', `/${b}/src?acl`, { as: ALICE, headers: { 'x-amz-acl': 'private', 'x-amz-grant-read': `id="${BOB.account}"` } });
    expect([both.status, errorOf(both).Code]).toEqual([400, 'InvalidRequest']);
  });

  it('an AccessControlPolicy document keeps its grants in order and they are enforced (READ_ACP, WRITE_ACP)', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'o', Body: 'o' }));
    await alice.send(
      new PutObjectAclCommand({
        Bucket: b,
        Key: 'o',
        AccessControlPolicy: {
          Owner: { ID: ALICE.account },
          Grants: [
            { Grantee: { Type: 'CanonicalUser', ID: BOB.account }, Permission: 'WRITE_ACP' },
            { Grantee: { Type: 'CanonicalUser', ID: ALICE.account }, Permission: 'FULL_CONTROL' },
            { Grantee: { Type: 'CanonicalUser', ID: DAVE.account }, Permission: 'READ_ACP' },
          ],
        },
      }),
    );
    const acl = await dave.send(new GetObjectAclCommand({ Bucket: b, Key: 'o' }));
    expect(acl.Grants!.map((g) => [g.Grantee?.ID, g.Grantee?.DisplayName, g.Permission])).toEqual([
      [BOB.account, 'bob', 'WRITE_ACP'],
      [ALICE.account, 'alice', 'FULL_CONTROL'],
      [DAVE.account, 'dave', 'READ_ACP'],
    ]);
    // Dave may read the ACL, not the object; Bob may rewrite the ACL (and so open it to himself).
    expect((await sdkError(dave.send(new GetObjectCommand({ Bucket: b, Key: 'o' })))).status).toBe(403);
    expect((await sdkError(bob.send(new GetObjectAclCommand({ Bucket: b, Key: 'o' })))).status).toBe(403);
    await bob.send(new PutObjectAclCommand({ Bucket: b, Key: 'o', GrantRead: `id="${BOB.account}"` }));
    expect((await bob.send(new GetObjectCommand({ Bucket: b, Key: 'o' }))).$metadata.httpStatusCode).toBe(200);
  });
});

describe('bucket policies', () => {
  async function withPolicy(...statements: object[]): Promise<string> {
    const b = await mkBucket();
    for (const k of ['public/a', 'secret/x', 'obj']) await alice.send(new PutObjectCommand({ Bucket: b, Key: k, Body: k }));
    const put = await alice.send(new PutBucketPolicyCommand({ Bucket: b, Policy: policy(...statements.map((st) => JSON.parse(JSON.stringify(st).replaceAll('{b}', b)) as object)) }));
    expect(put.$metadata.httpStatusCode).toBe(204);
    return b;
  }

  it('named principals: {"AWS": [...]} in the account, RGW user ARN and canonical user forms', async () => {
    const b = await withPolicy(
      { Effect: 'Allow', Principal: { AWS: [`arn:aws:iam::test:user/bob`] }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' },
      { Effect: 'Allow', Principal: { CanonicalUser: DAVE.account }, Action: ['s3:ListBucket'], Resource: 'arn:aws:s3:::{b}' },
    );
    expect((await bob.send(new GetObjectCommand({ Bucket: b, Key: 'obj' }))).$metadata.httpStatusCode).toBe(200);
    expect((await sdkError(bob.send(new ListObjectsV2Command({ Bucket: b })))).status).toBe(403);
    expect((await sdkError(dave.send(new GetObjectCommand({ Bucket: b, Key: 'obj' })))).status).toBe(403);
    expect((await dave.send(new ListObjectsV2Command({ Bucket: b }))).KeyCount).toBe(3);
    expect((await raw(s, 'GET', `/${b}/obj`)).status).toBe(403);
  });

  it('Deny wins over Allow, and only where its Resource matches; NotAction', async () => {
    const b = await withPolicy(
      { Effect: 'Allow', Principal: '*', Action: 's3:*', Resource: ['arn:aws:s3:::{b}', 'arn:aws:s3:::{b}/*'] },
      { Effect: 'Deny', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/secret/*' },
      { Effect: 'Deny', Principal: { AWS: BOB.account }, NotAction: ['s3:GetObject', 's3:ListBucket'], Resource: 'arn:aws:s3:::{b}/*' },
    );
    expect((await raw(s, 'GET', `/${b}/public/a`)).status).toBe(200);
    expect((await raw(s, 'GET', `/${b}/secret/x`)).status).toBe(403);
    // The Deny binds the owner too.
    expect((await sdkError(alice.send(new GetObjectCommand({ Bucket: b, Key: 'secret/x' })))).status).toBe(403);
    expect((await dave.send(new PutObjectCommand({ Bucket: b, Key: 'carol', Body: 'c' }))).$metadata.httpStatusCode).toBe(200);
    expect((await sdkError(bob.send(new PutObjectCommand({ Bucket: b, Key: 'bob', Body: 'b' })))).status).toBe(403);
    expect((await bob.send(new GetObjectCommand({ Bucket: b, Key: 'obj' }))).$metadata.httpStatusCode).toBe(200);
  });

  it('conditions: s3:prefix, s3:delimiter, aws:Referer, aws:SourceIp, IfExists, Null, Bool, Numeric', async () => {
    const b = await withPolicy(
      { Effect: 'Allow', Principal: '*', Action: 's3:ListBucket', Resource: 'arn:aws:s3:::{b}', Condition: { StringLike: { 's3:prefix': 'public/*' }, StringEquals: { 's3:delimiter': '/' } } },
      { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/public/*', Condition: { StringLike: { 'aws:Referer': 'https://example.com/*' } } },
      { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/obj', Condition: { IpAddress: { 'aws:SourceIp': '127.0.0.0/8' }, Bool: { 'aws:SecureTransport': 'false' } } },
      { Effect: 'Allow', Principal: { AWS: BOB.account }, Action: 's3:ListBucket', Resource: 'arn:aws:s3:::{b}', Condition: { NumericLessThanEquals: { 's3:max-keys': '10' } } },
      { Effect: 'Allow', Principal: { AWS: DAVE.account }, Action: 's3:ListBucket', Resource: 'arn:aws:s3:::{b}', Condition: { StringEqualsIfExists: { 's3:prefix': 'secret/' }, Null: { 's3:delimiter': 'true' } } },
    );
    expect((await raw(s, 'GET', `/${b}?list-type=2&prefix=public/&delimiter=/`)).status).toBe(200);
    expect((await raw(s, 'GET', `/${b}?list-type=2&prefix=secret/&delimiter=/`)).status).toBe(403);
    expect((await raw(s, 'GET', `/${b}?list-type=2&prefix=public/`)).status).toBe(403);
    expect((await raw(s, 'GET', `/${b}/public/a`, { headers: { referer: 'https://example.com/page' } })).status).toBe(200);
    expect((await raw(s, 'GET', `/${b}/public/a`, { headers: { referer: 'https://evil.example/page' } })).status).toBe(403);
    expect((await raw(s, 'GET', `/${b}/public/a`)).status).toBe(403);
    expect((await raw(s, 'GET', `/${b}/obj`)).status).toBe(200);
    expect((await bob.send(new ListObjectsV2Command({ Bucket: b, MaxKeys: 5 }))).KeyCount).toBe(3);
    expect((await sdkError(bob.send(new ListObjectsV2Command({ Bucket: b })))).status).toBe(403);
    expect((await dave.send(new ListObjectsV2Command({ Bucket: b }))).KeyCount).toBe(3);
    expect((await dave.send(new ListObjectsV2Command({ Bucket: b, Prefix: 'secret/' }))).KeyCount).toBe(1);
    expect((await sdkError(dave.send(new ListObjectsV2Command({ Bucket: b, Prefix: 'public/' })))).status).toBe(403);
    expect((await sdkError(dave.send(new ListObjectsV2Command({ Bucket: b, Delimiter: '/' })))).status).toBe(403);
  });

  it('Date operators on aws:CurrentTime and aws:EpochTime', async () => {
    const b = await withPolicy(
      { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/public/*', Condition: { DateGreaterThan: { 'aws:CurrentTime': '2000-01-01T00:00:00Z' } } },
      { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/obj', Condition: { DateLessThan: { 'aws:EpochTime': '946684800' } } },
    );
    expect((await raw(s, 'GET', `/${b}/public/a`)).status).toBe(200);
    expect((await raw(s, 'GET', `/${b}/obj`)).status).toBe(403);
  });

  it('a missing key: 403 with s3:GetObject alone, 404 NoSuchKey with s3:ListBucket too', async () => {
    const onlyGet = await withPolicy({ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' });
    const missing = await raw(s, 'GET', `/${onlyGet}/nope`);
    expect([missing.status, errorOf(missing).Code]).toEqual([403, 'AccessDenied']);
    expect((await raw(s, 'HEAD', `/${onlyGet}/nope`)).status).toBe(403);
    const both = await withPolicy({ Effect: 'Allow', Principal: '*', Action: ['s3:GetObject', 's3:ListBucket'], Resource: ['arn:aws:s3:::{b}/*', 'arn:aws:s3:::{b}'] });
    const notFound = await raw(s, 'GET', `/${both}/nope`);
    expect([notFound.status, errorOf(notFound).Code]).toEqual([404, 'NoSuchKey']);
  });

  it('an anonymous GET of a deleted key in a public bucket is 404', async () => {
    const b = await mkBucket();
    await alice.send(new PutBucketAclCommand({ Bucket: b, ACL: 'public-read' }));
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'gone', Body: 'g', ACL: 'public-read' }));
    expect((await raw(s, 'GET', `/${b}/gone`)).status).toBe(200);
    await alice.send(new DeleteObjectCommand({ Bucket: b, Key: 'gone' }));
    const r = await raw(s, 'GET', `/${b}/gone`);
    expect([r.status, errorOf(r).Code]).toEqual([404, 'NoSuchKey']);
  });

  it('a policy written for AWS stores: Service principals and AWS-only condition keys match nobody here', async () => {
    const b = await withPolicy(
      { Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' },
      { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*', Condition: { StringEquals: { 'aws:SourceVpce': 'vpce-1a2b3c4d' } } },
      { Effect: 'Deny', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/secret/*', Condition: { StringNotEquals: { 'aws:PrincipalOrgID': 'o-123' } } },
    );
    expect((await raw(s, 'GET', `/${b}/obj`)).status).toBe(403);
    // A negated operator on a key the request does not carry holds (IAM): the Deny applies.
    expect((await sdkError(alice.send(new GetObjectCommand({ Bucket: b, Key: 'secret/x' })))).status).toBe(403);
    expect((await alice.send(new GetObjectCommand({ Bucket: b, Key: 'obj' }))).$metadata.httpStatusCode).toBe(200);
    const bad = await sdkError(alice.send(new PutBucketPolicyCommand({ Bucket: b, Policy: policy({ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/*`, Condition: { StringEquals: { 'nope:Key': 'x' } } }) })));
    expect([bad.status, bad.name, bad.message]).toEqual([400, 'MalformedPolicy', 'Policy has an invalid condition key']);
  });

  it('refuses malformed policies with AWS\'s MalformedPolicy messages', async () => {
    const b = await mkBucket();
    const cases: [object | string, string][] = [
      ['{not json', 'Policies must be valid JSON and the first byte must be \'{\''],
      [{ Version: '2012-10-17' }, 'Missing required field Statement'],
      [{ Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:Frobnicate', Resource: `arn:aws:s3:::${b}/*` }] }, 'Policy has invalid action'],
      [{ Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::another-bucket/*' }] }, 'Policy has invalid resource'],
      [{ Statement: [{ Effect: 'Allow', Principal: { Nobody: 'x' }, Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/*` }] }, 'Invalid principal in policy'],
      [{ Statement: [{ Effect: 'Perhaps', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/*` }] }, 'Invalid effect: Perhaps'],
      [{ Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/*`, Condition: { StringFoo: { 's3:prefix': 'x' } } }] }, 'Invalid Condition type : StringFoo'],
    ];
    for (const [doc, message] of cases) {
      const e = await sdkError(alice.send(new PutBucketPolicyCommand({ Bucket: b, Policy: typeof doc === 'string' ? doc : JSON.stringify(doc) })));
      expect([e.status, e.name, e.message]).toEqual([400, 'MalformedPolicy', message]);
    }
  });
});

describe('the native API follows the same decision', () => {
  const native = (b: string, key: string) => fetch(`${s.url}/swift/v1/AUTH_${ALICE.account}/${b}/${key}`, { signal: AbortSignal.timeout(10_000) });

  it('a policy opens anonymous native reads where its Resource matches, and its Deny closes them', async () => {
    const b = await mkBucket();
    for (const k of ['public/a', 'secret/x']) await alice.send(new PutObjectCommand({ Bucket: b, Key: k, Body: k }));
    await alice.send(
      new PutBucketPolicyCommand({
        Bucket: b,
        Policy: policy(
          { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/*` },
          { Effect: 'Deny', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/secret/*` },
        ),
      }),
    );
    const open = await native(b, 'public/a');
    expect([open.status, await open.text()]).toEqual([200, 'public/a']);
    expect((await native(b, 'secret/x')).status).toBe(401);
  });

  it('an object made readable by AllUsers through an S3 grant header is readable anonymously through the native API', async () => {
    const b = await mkBucket();
    await alice.send(new PutObjectCommand({ Bucket: b, Key: 'g', Body: 'g', GrantRead: `uri="${ALL_USERS}"`, GrantFullControl: `id="${ALICE.account}"` }));
    expect((await native(b, 'g')).status).toBe(200);
    await alice.send(new PutObjectAclCommand({ Bucket: b, Key: 'g', ACL: 'private' }));
    expect((await native(b, 'g')).status).toBe(401);
  });
});
