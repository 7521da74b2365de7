// Quotas on the S3 API (§29): account and bucket quotas set on the engine refuse writes with
// 403 QuotaExceeded (PUT, copy, multipart complete) and leave nothing behind; versions count;
// deletes free room; the same quota holds on the native API (413).
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { ALICE, bucketName, errorOf, raw, sdkError, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
beforeAll(async () => {
  s = await startS3Server();
  c = s.client();
});
afterAll(async () => {
  await s?.close();
});

/** Each test starts from an empty account with no quota. */
beforeEach(async () => {
  await s.engine.setAccountQuota(ALICE.account, { maxBytes: -1, maxObjects: -1 });
  for (const bucket of s.engine.listContainers(ALICE.account)) {
    const ref = Engine.ref(ALICE.account, bucket.name);
    for (const v of s.engine.listVersions(ref, { limit: 1000 }).entries) {
      if (v.kind === 'version') await s.engine.deleteObject(ref, v.version.name, { versionId: v.version.versionId });
    }
    await s.engine.deleteContainer(ref);
  }
});

async function mkBucket(): Promise<string> {
  const b = bucketName('q');
  await c.send(new CreateBucketCommand({ Bucket: b }));
  return b;
}

async function expectQuotaExceeded(p: Promise<unknown>): Promise<void> {
  const e = await sdkError(p);
  expect([e.name, e.status]).toEqual(['QuotaExceeded', 403]);
}

describe('account quota', () => {
  it('counts objects across buckets', async () => {
    await s.engine.setAccountQuota(ALICE.account, { maxObjects: 2 });
    const [b1, b2] = [await mkBucket(), await mkBucket()];
    await c.send(new PutObjectCommand({ Bucket: b1, Key: 'a', Body: 'a' }));
    await c.send(new PutObjectCommand({ Bucket: b2, Key: 'b', Body: 'b' }));
    await expectQuotaExceeded(c.send(new PutObjectCommand({ Bucket: b2, Key: 'c', Body: 'c' })));
    // Overwriting an existing key adds no object.
    await c.send(new PutObjectCommand({ Bucket: b2, Key: 'b', Body: 'bb' }));
    await c.send(new DeleteObjectCommand({ Bucket: b1, Key: 'a' }));
    await c.send(new PutObjectCommand({ Bucket: b2, Key: 'c', Body: 'c' }));
  });

  it('counts bytes rounded to 4 KiB per object, and leaves nothing behind when refused', async () => {
    await s.engine.setAccountQuota(ALICE.account, { maxBytes: 8192 });
    const b = await mkBucket();
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'one', Body: 'x' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'two', Body: Buffer.alloc(4096) }));
    await expectQuotaExceeded(c.send(new PutObjectCommand({ Bucket: b, Key: 'three', Body: 'y' })));
    const r = await raw(s, 'PUT', `/${b}/big`, { as: ALICE, body: Buffer.alloc(10_000) });
    expect([r.status, errorOf(r).Code]).toEqual([403, 'QuotaExceeded']);
    expect((await c.send(new ListObjectsV2Command({ Bucket: b }))).Contents!.map((o) => o.Key)).toEqual(['one', 'two']);
  });

  it('applies to copies and to multipart completion', async () => {
    await s.engine.setAccountQuota(ALICE.account, { maxObjects: 1 });
    const b = await mkBucket();
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'src', Body: 'src' }));
    await expectQuotaExceeded(c.send(new CopyObjectCommand({ Bucket: b, Key: 'dst', CopySource: `${b}/src` })));
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp' }))).UploadId!;
    const part = await c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId: id, PartNumber: 1, Body: 'part' }));
    await expectQuotaExceeded(c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'mp', UploadId: id, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag! }] } })));
    expect((await c.send(new ListObjectsV2Command({ Bucket: b }))).KeyCount).toBe(1);
  });

  it('refuses a part that would not fit the byte quota', async () => {
    await s.engine.setAccountQuota(ALICE.account, { maxBytes: 1024 * 1024 });
    const b = await mkBucket();
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp' }))).UploadId!;
    await c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId: id, PartNumber: 1, Body: Buffer.alloc(1000) }));
    await expectQuotaExceeded(c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId: id, PartNumber: 2, Body: Buffer.alloc(2 * 1024 * 1024) })));
    expect((await c.send(new ListPartsCommand({ Bucket: b, Key: 'mp', UploadId: id }))).Parts!.map((p) => p.PartNumber)).toEqual([1]);
  });
});

describe('bucket quota', () => {
  it('limits one bucket only', async () => {
    const [limited, free] = [await mkBucket(), await mkBucket()];
    await s.engine.updateContainer(Engine.ref(ALICE.account, limited), { quota: { maxObjects: 1 } });
    await c.send(new PutObjectCommand({ Bucket: limited, Key: 'a', Body: 'a' }));
    await expectQuotaExceeded(c.send(new PutObjectCommand({ Bucket: limited, Key: 'b', Body: 'b' })));
    await c.send(new PutObjectCommand({ Bucket: free, Key: 'b', Body: 'b' }));
    await c.send(new PutObjectCommand({ Bucket: free, Key: 'c', Body: 'c' }));
  });

  it('counts every version of a versioned bucket (seed 8.2)', async () => {
    const b = await mkBucket();
    await c.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
    await s.engine.updateContainer(Engine.ref(ALICE.account, b), { quota: { maxObjects: 2 } });
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'v1' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'v2' }));
    await expectQuotaExceeded(c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'v3' })));
    const head = await raw(s, 'HEAD', `/${b}`, { as: ALICE });
    expect(head.headers['x-rgw-object-count']).toBe('2');
    expect(head.headers['x-rgw-quota-bucket-objects']).toBe('2');
  });

  it('byte quota: S3 counts each object rounded up to 4 KiB (RGW), the native API its bytes (Swift\'s container_quotas)', async () => {
    const b = await mkBucket();
    await s.engine.updateContainer(Engine.ref(ALICE.account, b), { quota: { maxBytes: 4096 } });
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'fits', Body: Buffer.alloc(4000) }));
    await expectQuotaExceeded(c.send(new PutObjectCommand({ Bucket: b, Key: 'more', Body: 'x' })));
    const auth = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': ALICE.swiftUser, 'X-Auth-Key': ALICE.swiftKey } });
    const nativePut = (name: string, body: string) =>
      fetch(`${auth.headers.get('x-storage-url')}/${b}/${name}`, { method: 'PUT', body, headers: { 'X-Auth-Token': auth.headers.get('x-auth-token')! } });
    // 4,000 + 96 bytes fit in 4,096; one more byte does not.
    expect((await nativePut('more', 'x'.repeat(96))).status).toBe(201);
    expect((await nativePut('over', 'x')).status).toBe(413);
  });
});
