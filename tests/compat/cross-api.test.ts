// One data set, two APIs (§28): what the S3 API writes the native (Swift) API reads, lists,
// copies and deletes with the same bytes, ETag, content type and metadata, and the other way
// round; containers and counters are shared; public access set on one side is seen on the other.
import { createHash } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_HEADERS } from '../../src-shared/standard-headers.js';
import { ALICE, bucketName, raw, readAll, sdkError, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let storage: string;
let token: string;
beforeAll(async () => {
  s = await startS3Server();
  c = s.client();
  const auth = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': ALICE.swiftUser, 'X-Auth-Key': ALICE.swiftKey } });
  storage = auth.headers.get('x-storage-url')!;
  token = auth.headers.get('x-auth-token')!;
});
afterAll(async () => {
  await s?.close();
});

/** A native request relative to the storage URL. */
async function swift(method: string, path: string, init: { headers?: Record<string, string>; body?: string; anonymous?: boolean } = {}) {
  const res = await fetch(`${storage}${path}`, {
    method,
    headers: { ...(init.anonymous ? {} : { 'X-Auth-Token': token }), ...(init.headers ?? {}) },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, text: body.toString('utf8') };
}

const md5 = (x: string | Buffer) => createHash('md5').update(x).digest('hex');
const enc = (name: string) => name.split('/').map(encodeURIComponent).join('/');

async function mkBucket(): Promise<string> {
  const b = bucketName('x');
  await c.send(new CreateBucketCommand({ Bucket: b }));
  return b;
}

describe('S3 writes, native reads', () => {
  it('an S3 object reads back natively with the same bytes, ETag, type and metadata', async () => {
    const b = await mkBucket();
    const key = 'docs/ünï code+plus.txt';
    const put = await c.send(new PutObjectCommand({ Bucket: b, Key: key, Body: 'same bytes', ContentType: 'text/x-same', Metadata: { foo: 'bar', 'two-words': 'x y' }, ContentDisposition: 'inline' }));
    const r = await swift('GET', `/${b}/${enc(key)}`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('same bytes');
    expect(r.headers.get('etag')).toBe(put.ETag!.replace(/"/g, ''));
    expect(r.headers.get('content-type')).toBe('text/x-same');
    expect(r.headers.get('x-object-meta-foo')).toBe('bar');
    expect(r.headers.get('x-object-meta-two-words')).toBe('x y');
    expect(r.headers.get('content-disposition')).toBe('inline');
  });

  it('S3 buckets and keys appear in native listings in the same order', async () => {
    const b = await mkBucket();
    const keys = ['a/1', 'a/2', 'b', 'ü', 'a b', 'a+b'];
    for (const k of keys) await c.send(new PutObjectCommand({ Bucket: b, Key: k, Body: k }));
    const containers = JSON.parse((await swift('GET', '?format=json')).text) as { name: string }[];
    expect(containers.map((x) => x.name)).toContain(b);
    const listing = JSON.parse((await swift('GET', `/${b}?format=json`)).text) as { name: string; hash: string; bytes: number }[];
    const s3list = await c.send(new ListObjectsV2Command({ Bucket: b }));
    expect(listing.map((o) => o.name)).toEqual(s3list.Contents!.map((o) => o.Key));
    expect(listing.map((o) => `"${o.hash}"`)).toEqual(s3list.Contents!.map((o) => o.ETag));
    const folders = JSON.parse((await swift('GET', `/${b}?format=json&delimiter=/`)).text) as { subdir?: string; name?: string }[];
    const s3folders = await c.send(new ListObjectsV2Command({ Bucket: b, Delimiter: '/' }));
    expect(folders.filter((f) => f.subdir).map((f) => f.subdir)).toEqual(s3folders.CommonPrefixes!.map((p) => p.Prefix));
  });

  it('a multipart object reads natively, assembled, with the -N ETag', async () => {
    const b = await mkBucket();
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp' }))).UploadId!;
    const part = await c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId: id, PartNumber: 1, Body: 'assembled' }));
    expect((await swift('GET', `/${b}?format=json`)).text).toBe('[]');
    const done = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'mp', UploadId: id, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag! }] } }));
    const r = await swift('GET', `/${b}/mp`);
    expect([r.text, r.headers.get('etag')]).toEqual(['assembled', done.ETag!.replace(/"/g, '')]);
  });

  it('native copy and delete act on S3 objects', async () => {
    const b = await mkBucket();
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'orig', Body: 'copy me', Metadata: { foo: 'kept' } }));
    expect((await swift('COPY', `/${b}/orig`, { headers: { Destination: `/${b}/copied` } })).status).toBe(201);
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'copied' }));
    expect([head.ETag, head.Metadata]).toEqual([`"${md5('copy me')}"`, { foo: 'kept' }]);
    expect((await swift('DELETE', `/${b}/orig`)).status).toBe(204);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'orig' })))).name).toBe('NoSuchKey');
  });
});

describe('native writes, S3 reads', () => {
  it('a native object reads back through S3 with the same bytes, ETag, type and metadata', async () => {
    const b = await mkBucket();
    const put = await swift('PUT', `/${b}/from-swift.bin`, { body: 'swift bytes', headers: { 'Content-Type': 'application/x-swift', 'X-Object-Meta-Owner': 'bob', 'X-Object-Meta-Foo': 'Bar' } });
    expect(put.status).toBe(201);
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'from-swift.bin' }));
    expect((await readAll(get.Body)).toString()).toBe('swift bytes');
    expect([get.ETag, get.ContentType, get.Metadata]).toEqual([`"${put.headers.get('etag')}"`, 'application/x-swift', { owner: 'bob', foo: 'Bar' }]);
    // A native POST replaces the metadata; S3 sees the new set.
    expect((await swift('POST', `/${b}/from-swift.bin`, { headers: { 'X-Object-Meta-Color': 'blue' } })).status).toBe(202);
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'from-swift.bin' }))).Metadata).toEqual({ color: 'blue' });
  });

  it('the standard headers an object keeps are one table: each written on one API reads back on the other, X-Robots-Tag natively only', async () => {
    const b = await mkBucket();
    const values = Object.fromEntries(STANDARD_HEADERS.map(({ name }) => [name, name === 'Expires' ? 'Wed, 21 Oct 2037 07:28:00 GMT' : `${name.toLowerCase()}-value`]));
    const others = { 'X-Frame-Options': 'DENY', 'Content-Location': '/elsewhere' };
    expect((await swift('PUT', `/${b}/native`, { body: 'n', headers: { ...values, ...others } })).status).toBe(201);
    expect((await raw(s, 'PUT', `/${b}/s3`, { as: ALICE, body: 's', headers: { ...values, ...others } })).status).toBe(200);
    for (const key of ['native', 's3']) {
      const native = (await swift('HEAD', `/${b}/${key}`)).headers;
      const s3 = (await raw(s, 'HEAD', `/${b}/${key}`, { as: ALICE })).headers;
      for (const { name } of STANDARD_HEADERS) {
        const kept = name !== 'X-Robots-Tag' || key === 'native';
        expect(native.get(name), `${key}: ${name} natively`).toBe(kept ? values[name] : null);
        expect(s3[name.toLowerCase()], `${key}: ${name} through S3`).toBe(name === 'X-Robots-Tag' ? undefined : values[name]);
      }
      for (const name of Object.keys(others)) expect([native.get(name), s3[name.toLowerCase()]], `${key}: ${name}`).toEqual([null, undefined]);
    }
  });

  it('a native container is an S3 bucket; non-empty deletes fail on both sides', async () => {
    const name = bucketName('native');
    expect((await swift('PUT', `/${name}`)).status).toBe(201);
    expect((await c.send(new ListBucketsCommand({}))).Buckets!.map((x) => x.Name)).toContain(name);
    await swift('PUT', `/${name}/obj`, { body: 'x' });
    expect((await sdkError(c.send(new DeleteBucketCommand({ Bucket: name })))).name).toBe('BucketNotEmpty');
    expect((await swift('DELETE', `/${name}`)).status).toBe(409);
    await swift('DELETE', `/${name}/obj`);
    await c.send(new DeleteBucketCommand({ Bucket: name }));
    expect((await swift('HEAD', `/${name}`)).status).toBe(404);
  });
});

describe('shared counters and access', () => {
  it('object and byte counts agree between HeadBucket and native HEAD', async () => {
    const b = await mkBucket();
    await c.send(new PutObjectCommand({ Bucket: b, Key: 's3', Body: '12345' }));
    await swift('PUT', `/${b}/native`, { body: '123' });
    const n = await swift('HEAD', `/${b}`);
    expect([n.headers.get('x-container-object-count'), n.headers.get('x-container-bytes-used')]).toEqual(['2', '8']);
    const h = await raw(s, 'HEAD', `/${b}`, { as: ALICE });
    expect([h.headers['x-rgw-object-count'], h.headers['x-rgw-bytes-used']]).toEqual(['2', '8']);
    const account = await swift('HEAD', '');
    const info = s.engine.getAccount(ALICE.account);
    expect(account.headers.get('x-account-object-count')).toBe(String(info.usage.objects));
    expect(account.headers.get('x-account-container-count')).toBe(String(info.usage.containers));
  });

  it('an S3 bucket policy opens anonymous native reads; a native .r:* ACL opens anonymous S3 reads', async () => {
    const b = await mkBucket();
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'o', Body: 'public' }));
    expect((await swift('GET', `/${b}/o`, { anonymous: true })).status).toBe(401);
    const policy = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/*` }] };
    await raw(s, 'PUT', `/${b}?policy`, { as: ALICE, body: JSON.stringify(policy) });
    expect((await swift('GET', `/${b}/o`, { anonymous: true })).text).toBe('public');

    const nb = await mkBucket();
    await c.send(new PutObjectCommand({ Bucket: nb, Key: 'o', Body: 'via acl' }));
    expect((await raw(s, 'GET', `/${nb}/o`)).status).toBe(403);
    expect((await swift('POST', `/${nb}`, { headers: { 'X-Container-Read': '.r:*' } })).status).toBe(204);
    expect((await raw(s, 'GET', `/${nb}/o`)).text).toBe('via acl');
  });
});
