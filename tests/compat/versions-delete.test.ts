// Versioned objects, DeleteObject, DeleteObjects and object ACLs through the AWS SDK v3
// (§22.3, §22.5, §25, §26): version ids on PUT/GET/HEAD, delete markers, version-specific
// reads and deletes, quiet and verbose multi-deletes.
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketVersioningCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, bucketName, errorOf, raw, readAll, sdkError, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
beforeAll(async () => {
  s = await startS3Server();
  c = s.client();
});
afterAll(async () => {
  await s?.close();
});

async function mkBucket(versioned: boolean): Promise<string> {
  const b = bucketName(versioned ? 'ver' : 'plain');
  await c.send(new CreateBucketCommand({ Bucket: b }));
  if (versioned) await c.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
  return b;
}

const text = async (p: Promise<{ Body?: unknown }>) => (await readAll((await p).Body)).toString();

describe('versioned objects', () => {
  it('keeps every version; GET/HEAD by versionId; x-amz-version-id on every answer', async () => {
    const b = await mkBucket(true);
    const v1 = await c.send(new PutObjectCommand({ Bucket: b, Key: 'doc', Body: 'one', Metadata: { n: '1' } }));
    const v2 = await c.send(new PutObjectCommand({ Bucket: b, Key: 'doc', Body: 'two!', Metadata: { n: '2' } }));
    expect(v1.VersionId).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(v2.VersionId).not.toBe(v1.VersionId);
    const latest = await c.send(new GetObjectCommand({ Bucket: b, Key: 'doc' }));
    expect([latest.VersionId, (await readAll(latest.Body)).toString()]).toEqual([v2.VersionId, 'two!']);
    expect(await text(c.send(new GetObjectCommand({ Bucket: b, Key: 'doc', VersionId: v1.VersionId })))).toBe('one');
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'doc', VersionId: v1.VersionId }));
    expect([head.VersionId, head.ContentLength, head.Metadata?.n]).toEqual([v1.VersionId, 3, '1']);
    const unknown = await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'doc', VersionId: 'doesnotexist000' })));
    expect(unknown.status).toBe(404);
  });

  it('DELETE without versionId adds a delete marker: GET 404 NoSuchKey, the marker itself 405', async () => {
    const b = await mkBucket(true);
    const v1 = await c.send(new PutObjectCommand({ Bucket: b, Key: 'gone', Body: 'data' }));
    const del = await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'gone' }));
    expect(del.DeleteMarker).toBe(true);
    expect(del.VersionId).toBeTruthy();
    const r = await raw(s, 'GET', `/${b}/gone`, { as: ALICE });
    expect([r.status, errorOf(r).Code, r.headers['x-amz-delete-marker']]).toEqual([404, 'NoSuchKey', 'true']);
    const m = await raw(s, 'GET', `/${b}/gone?versionId=${del.VersionId}`, { as: ALICE });
    expect([m.status, errorOf(m).Code, m.headers['x-amz-delete-marker']]).toEqual([405, 'MethodNotAllowed', 'true']);
    expect(await text(c.send(new GetObjectCommand({ Bucket: b, Key: 'gone', VersionId: v1.VersionId })))).toBe('data');
    // Removing the marker by version id brings the object back.
    const undo = await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'gone', VersionId: del.VersionId }));
    expect([undo.DeleteMarker, undo.VersionId]).toEqual([true, del.VersionId]);
    expect(await text(c.send(new GetObjectCommand({ Bucket: b, Key: 'gone' })))).toBe('data');
    // Deleting a version permanently removes it.
    const perm = await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'gone', VersionId: v1.VersionId }));
    expect(perm.VersionId).toBe(v1.VersionId);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'gone' })))).name).toBe('NoSuchKey');
  });

  it('suspended versioning writes the null version', async () => {
    const b = await mkBucket(true);
    const v1 = await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'kept' }));
    await c.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Suspended' } }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'null-1' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'null-2' }));
    expect(await text(c.send(new GetObjectCommand({ Bucket: b, Key: 'k', VersionId: 'null' })))).toBe('null-2');
    expect(await text(c.send(new GetObjectCommand({ Bucket: b, Key: 'k', VersionId: v1.VersionId })))).toBe('kept');
  });
});

describe('the null version id (AWS: named where a version is asked for or made)', () => {
  it('GET and HEAD of ?versionId=null say x-amz-version-id: null; a plain GET in a never-versioned bucket does not', async () => {
    const b = await mkBucket(false);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'v' }));
    expect((await c.send(new GetObjectCommand({ Bucket: b, Key: 'k', VersionId: 'null' }))).VersionId).toBe('null');
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'k', VersionId: 'null' }))).VersionId).toBe('null');
    expect((await c.send(new GetObjectCommand({ Bucket: b, Key: 'k' }))).VersionId).toBeUndefined();
  });

  it('a DELETE in a suspended bucket makes the null delete marker and says so; ?versionId=null in a never-versioned bucket names none', async () => {
    const b = await mkBucket(true);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'v' }));
    await c.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Suspended' } }));
    const del = await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'k' }));
    expect([del.DeleteMarker, del.VersionId]).toEqual([true, 'null']);
    const plain = await mkBucket(false);
    await c.send(new PutObjectCommand({ Bucket: plain, Key: 'k', Body: 'v' }));
    const gone = await c.send(new DeleteObjectCommand({ Bucket: plain, Key: 'k', VersionId: 'null' }));
    expect([gone.DeleteMarker, gone.VersionId]).toEqual([undefined, undefined]);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: plain, Key: 'k' })))).status).toBe(404);
  });
});

describe('DeleteObject', () => {
  it('answers 204 whether or not the key exists (unversioned)', async () => {
    const b = await mkBucket(false);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'x', Body: 'x' }));
    expect((await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'x' }))).$metadata.httpStatusCode).toBe(204);
    expect((await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'x' }))).$metadata.httpStatusCode).toBe(204);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'x' })))).status).toBe(404);
  });

  it('needs write access', async () => {
    const b = await mkBucket(false);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'x', Body: 'x' }));
    expect((await sdkError(s.client(BOB).send(new DeleteObjectCommand({ Bucket: b, Key: 'x' })))).name).toBe('AccessDenied');
    expect((await raw(s, 'DELETE', `/${b}/x`)).status).toBe(403);
  });
});

describe('DeleteObjects', () => {
  it('reports every key, missing ones as Deleted; quiet mode reports nothing', async () => {
    const b = await mkBucket(false);
    for (const k of ['a', 'b', 'c']) await c.send(new PutObjectCommand({ Bucket: b, Key: k, Body: k }));
    const r = await c.send(new DeleteObjectsCommand({ Bucket: b, Delete: { Objects: [{ Key: 'a' }, { Key: 'missing' }, { Key: 'b' }] } }));
    expect(r.Deleted!.map((d) => d.Key)).toEqual(['a', 'missing', 'b']);
    expect(r.Errors).toBeUndefined();
    const quiet = await c.send(new DeleteObjectsCommand({ Bucket: b, Delete: { Quiet: true, Objects: [{ Key: 'c' }, { Key: 'nope' }] } }));
    expect([quiet.Deleted, quiet.Errors]).toEqual([undefined, undefined]);
    expect((await c.send(new ListObjectsV2Command({ Bucket: b }))).KeyCount).toBe(0);
  });

  it('adds delete markers in versioned buckets and deletes specific versions', async () => {
    const b = await mkBucket(true);
    const v = await c.send(new PutObjectCommand({ Bucket: b, Key: 'a', Body: 'a' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'b', Body: 'b' }));
    const r = await c.send(new DeleteObjectsCommand({ Bucket: b, Delete: { Objects: [{ Key: 'a', VersionId: v.VersionId }, { Key: 'b' }] } }));
    const byKey = Object.fromEntries(r.Deleted!.map((d) => [d.Key, d]));
    expect(byKey.a).toMatchObject({ Key: 'a', VersionId: v.VersionId });
    expect(byKey.b).toMatchObject({ Key: 'b', DeleteMarker: true });
    expect(byKey.b!.DeleteMarkerVersionId).toBeTruthy();
  });

  it('is allowed only with write access; other users get AccessDenied', async () => {
    const b = await mkBucket(false);
    const e = await sdkError(s.client(BOB).send(new DeleteObjectsCommand({ Bucket: b, Delete: { Objects: [{ Key: 'a' }] } })));
    expect([e.name, e.status]).toEqual(['AccessDenied', 403]);
  });
});

describe('object ACL', () => {
  it('reads and writes the canned ACL of an object (and a version)', async () => {
    const b = await mkBucket(false);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'o', Body: 'o', ACL: 'public-read' }));
    const acl = await c.send(new GetObjectAclCommand({ Bucket: b, Key: 'o' }));
    expect(acl.Owner?.ID).toBe(ALICE.account);
    expect(acl.Grants!.map((g) => [g.Grantee?.Type, g.Permission])).toEqual([
      ['CanonicalUser', 'FULL_CONTROL'],
      ['Group', 'READ'],
    ]);
    expect((await raw(s, 'GET', `/${b}/o`)).status).toBe(200);
    await c.send(new PutObjectAclCommand({ Bucket: b, Key: 'o', ACL: 'private' }));
    expect((await c.send(new GetObjectAclCommand({ Bucket: b, Key: 'o' }))).Grants).toHaveLength(1);
    expect((await raw(s, 'GET', `/${b}/o`)).status).toBe(403);
    // Changing the ACL keeps the bytes and metadata.
    expect(await text(c.send(new GetObjectCommand({ Bucket: b, Key: 'o' })))).toBe('o');
    expect((await sdkError(c.send(new GetObjectAclCommand({ Bucket: b, Key: 'missing' })))).name).toBe('NoSuchKey');
  });
});
