// Real client: the AWS CLI's low-level commands (`aws s3api`) against the compatible API
// (see clients-kit.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { awsFor } from './clients-aws.js';
import { app, big, encodeKey, MiB, ref, root, scenario, serverLogTest, small, smallFile, src, useClientsServer } from './clients-kit.js';
import { expectSameBytes, md5, TREE } from './clients-tree.js';
import { anonymousGet, bucketExists, engineNames, nativeHead } from './clients-views.js';

useClientsServer();

describe('aws s3api (AWS CLI low-level commands)', () => {
  const B = 'aws-cli-api';
  const out = () => join(root, 'out-aws-api');
  const s = scenario('aws', 'aws-api');
  const { aws, awsJson } = awsFor(s);
  const LIST_KEYS = ['list/a.txt', 'list/b+c.txt', 'list/dir 3/z', 'list/dir1/x', 'list/dir2/y', 'list/pct%25.txt', 'list/sp ace.txt', 'list/ü.txt'];

  s.step('create-bucket', async () => {
    await awsJson('s3api', 'create-bucket', '--bucket', B);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('put-object with metadata and content-type; head-object returns them; native HEAD sees them', async () => {
    const put = await awsJson<{ ETag: string }>(
      's3api', 'put-object', '--bucket', B, '--key', 'meta/obj one.txt', '--body', smallFile,
      '--metadata', 'color=blue,Shape=Round', '--content-type', 'text/x-coffer',
    );
    expect(put.ETag).toBe(`"${md5(small)}"`);
    const head = await awsJson<{ ContentType: string; ContentLength: number; ETag: string; Metadata: Record<string, string> }>(
      's3api', 'head-object', '--bucket', B, '--key', 'meta/obj one.txt',
    );
    expect(head).toMatchObject({ ContentType: 'text/x-coffer', ContentLength: small.length, ETag: `"${md5(small)}"`, Metadata: { color: 'blue', shape: 'Round' } });
    const native = await nativeHead(s.user, B, 'meta/obj one.txt');
    expect(native.status).toBe(200);
    expect(native.headers.get('x-object-meta-color')).toBe('blue');
    expect(native.headers.get('content-type')).toBe('text/x-coffer');
  });

  s.step('get-object --range returns exactly the requested bytes', async () => {
    await app.engine.putObject(ref(B), 'range.bin', big.subarray(0, 65536));
    const outFile = join(out(), 'range.part');
    mkdirSync(out(), { recursive: true });
    const r = await awsJson<{ ContentRange: string; ContentLength: number }>('s3api', 'get-object', '--bucket', B, '--key', 'range.bin', '--range', 'bytes=1000-1999', outFile);
    expect(r).toMatchObject({ ContentRange: 'bytes 1000-1999/65536', ContentLength: 1000 });
    expectSameBytes(outFile, big.subarray(1000, 2000), 'ranged GET');
  });

  s.step('list-objects-v2 with --prefix and --delimiter (awkward keys round-trip)', async () => {
    for (const k of LIST_KEYS) await app.engine.putObject(ref(B), k, k);
    const r = await awsJson<{ Contents?: { Key: string }[]; CommonPrefixes?: { Prefix: string }[] }>(
      's3api', 'list-objects-v2', '--bucket', B, '--prefix', 'list/', '--delimiter', '/',
    );
    expect((r.Contents ?? []).map((c) => c.Key)).toEqual(['list/a.txt', 'list/b+c.txt', 'list/pct%25.txt', 'list/sp ace.txt', 'list/ü.txt']);
    expect((r.CommonPrefixes ?? []).map((c) => c.Prefix)).toEqual(['list/dir 3/', 'list/dir1/', 'list/dir2/']);
  });

  s.step('list-objects-v2 --max-items / --starting-token paging returns every key once, in order', async () => {
    const first = await awsJson<{ Contents: { Key: string }[]; NextToken?: string }>(
      's3api', 'list-objects-v2', '--bucket', B, '--prefix', 'list/', '--max-items', '3', '--page-size', '2',
    );
    expect(first.Contents.map((c) => c.Key)).toEqual(LIST_KEYS.slice(0, 3));
    expect(first.NextToken).toBeTruthy();
    const rest = await awsJson<{ Contents: { Key: string }[]; NextToken?: string }>(
      's3api', 'list-objects-v2', '--bucket', B, '--prefix', 'list/', '--page-size', '2', '--starting-token', first.NextToken!,
    );
    expect(rest.Contents.map((c) => c.Key)).toEqual(LIST_KEYS.slice(3));
    expect(rest.NextToken).toBeUndefined();
  });

  s.step('delete-objects deletes several keys, each under its exact name (a missing one counts as deleted)', async () => {
    // Leading and trailing spaces are part of a key; the XML body carries them verbatim.
    for (const k of [' leading space', 'del/trailing space ']) await app.engine.putObject(ref(B), k, k);
    const keys = ['list/b+c.txt', 'list/pct%25.txt', 'list/sp ace.txt', 'list/never-existed', ' leading space', 'del/trailing space '];
    const r = await awsJson<{ Deleted?: { Key: string }[]; Errors?: unknown[] }>(
      's3api', 'delete-objects', '--bucket', B, '--delete', JSON.stringify({ Objects: keys.map((Key) => ({ Key })) }),
    );
    expect(r.Errors ?? []).toEqual([]);
    expect((r.Deleted ?? []).map((d) => JSON.stringify(d.Key)).sort()).toEqual(keys.map((k) => JSON.stringify(k)).sort());
    expect(engineNames(B, 'list/')).toEqual(['list/a.txt', 'list/dir 3/z', 'list/dir1/x', 'list/dir2/y', 'list/ü.txt']);
    expect(engineNames(B).filter((k) => k.trim() !== k).map((k) => JSON.stringify(k)), 'keys with edge spaces left behind').toEqual([]);
  });

  s.step('copy-object --metadata-directive REPLACE replaces metadata and content-type', async () => {
    const r = await awsJson<{ CopyObjectResult: { ETag: string } }>(
      's3api', 'copy-object', '--bucket', B, '--key', 'meta/copy+of %.txt', '--copy-source', `${B}/meta/obj one.txt`,
      '--metadata-directive', 'REPLACE', '--metadata', 'fresh=yes', '--content-type', 'text/plain',
    );
    expect(r.CopyObjectResult.ETag).toBe(`"${md5(small)}"`);
    const copy = app.engine.headObject(ref(B), 'meta/copy+of %.txt');
    expect(copy.contentType).toBe('text/plain');
    expect(copy.meta).toEqual({ fresh: 'yes' });
  });

  s.step('create-multipart-upload / upload-part / complete-multipart-upload', async () => {
    const key = 'mp/manual upload.bin';
    const part1 = join(out(), 'part1');
    const part2 = join(out(), 'part2');
    mkdirSync(out(), { recursive: true });
    writeFileSync(part1, big.subarray(0, 5 * MiB));
    writeFileSync(part2, big.subarray(5 * MiB, 5 * MiB + 1000));
    const { UploadId } = await awsJson<{ UploadId: string }>('s3api', 'create-multipart-upload', '--bucket', B, '--key', key, '--content-type', 'application/x-parts');
    expect(UploadId).toBeTruthy();
    const [p1, p2] = await Promise.all([
      awsJson<{ ETag: string }>('s3api', 'upload-part', '--bucket', B, '--key', key, '--upload-id', UploadId, '--part-number', '1', '--body', part1),
      awsJson<{ ETag: string }>('s3api', 'upload-part', '--bucket', B, '--key', key, '--upload-id', UploadId, '--part-number', '2', '--body', part2),
    ]);
    const m1 = md5(big.subarray(0, 5 * MiB));
    const m2 = md5(big.subarray(5 * MiB, 5 * MiB + 1000));
    expect([p1!.ETag, p2!.ETag]).toEqual([`"${m1}"`, `"${m2}"`]);
    const done = await awsJson<{ ETag: string; Key: string }>(
      's3api', 'complete-multipart-upload', '--bucket', B, '--key', key, '--upload-id', UploadId,
      '--multipart-upload', JSON.stringify({ Parts: [{ PartNumber: 1, ETag: p1!.ETag }, { PartNumber: 2, ETag: p2!.ETag }] }),
    );
    const expected = `${md5(Buffer.from(m1 + m2, 'hex'))}-2`;
    expect(done).toMatchObject({ ETag: `"${expected}"`, Key: key });
    const info = app.engine.headObject(ref(B), key);
    expect(info).toMatchObject({ etag: expected, size: 5 * MiB + 1000, contentType: 'application/x-parts' });
  });

  s.step('put-bucket-acl public-read / get-bucket-acl; anonymous listing is then allowed', async () => {
    expect((await anonymousGet(`${B}?list-type=2`)).status).toBe(403);
    await aws('s3api', 'put-bucket-acl', '--bucket', B, '--acl', 'public-read');
    const acl = await awsJson<{ Owner: { ID: string }; Grants: { Grantee: { Type: string; URI?: string; ID?: string }; Permission: string }[] }>(
      's3api', 'get-bucket-acl', '--bucket', B,
    );
    expect(acl.Owner.ID).toBe(s.user.account);
    expect(acl.Grants).toEqual(
      expect.arrayContaining([
        { Grantee: expect.objectContaining({ Type: 'CanonicalUser', ID: s.user.account }), Permission: 'FULL_CONTROL' },
        { Grantee: { Type: 'Group', URI: 'http://acs.amazonaws.com/groups/global/AllUsers' }, Permission: 'READ' },
      ]),
    );
    const anon = await anonymousGet(`${B}?list-type=2&prefix=meta/`);
    expect(anon.status, anon.body).toBe(200);
    expect(anon.body).toContain('<Key>meta/obj one.txt</Key>');
  });

  s.step('put-bucket-policy / get-bucket-policy; the policy opens object reads to anonymous users', async () => {
    expect((await anonymousGet(`${B}/${encodeKey('meta/obj one.txt')}`)).status).toBe(403);
    const policy = {
      Version: '2012-10-17',
      Statement: [{ Sid: 'PublicRead', Effect: 'Allow', Principal: '*', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${B}/*`] }],
    };
    await aws('s3api', 'put-bucket-policy', '--bucket', B, '--policy', JSON.stringify(policy));
    const got = await awsJson<{ Policy: string }>('s3api', 'get-bucket-policy', '--bucket', B);
    expect(JSON.parse(got.Policy)).toEqual(policy);
    const anon = await anonymousGet(`${B}/${encodeKey('meta/obj one.txt')}`);
    expect(anon).toEqual({ status: 200, body: small.toString() });
  });

  s.step('get-bucket-location answers us-east-1 (null)', async () => {
    const r = await awsJson<{ LocationConstraint: string | null }>('s3api', 'get-bucket-location', '--bucket', B);
    expect(r.LocationConstraint ?? null).toBeNull();
  });

  s.step('put-bucket-versioning Enabled; list-object-versions shows both versions', async () => {
    await aws('s3api', 'put-bucket-versioning', '--bucket', B, '--versioning-configuration', 'Status=Enabled');
    expect(app.engine.getContainer(ref(B)).versioning).toBe('enabled');
    const key = 'ver/doc +1.txt';
    const v1 = await awsJson<{ VersionId: string }>('s3api', 'put-object', '--bucket', B, '--key', key, '--body', smallFile);
    const v2 = await awsJson<{ VersionId: string }>('s3api', 'put-object', '--bucket', B, '--key', key, '--body', join(src, 'tree', 'a/b/c/d/deep.txt'));
    expect(v1.VersionId && v2.VersionId && v1.VersionId !== v2.VersionId).toBeTruthy();
    const listed = await awsJson<{ Versions?: { Key: string; VersionId: string; IsLatest: boolean; Size: number }[]; DeleteMarkers?: unknown[] }>(
      's3api', 'list-object-versions', '--bucket', B, '--prefix', 'ver/',
    );
    expect(listed.Versions?.map((v) => [v.Key, v.VersionId, v.IsLatest, v.Size])).toEqual([
      [key, v2.VersionId, true, Buffer.byteLength(TREE['a/b/c/d/deep.txt']!)],
      [key, v1.VersionId, false, small.length],
    ]);
    expect(listed.DeleteMarkers ?? []).toEqual([]);
  });
});

serverLogTest();
