// Server-side encryption is refused, never accepted and ignored (src-main/http/compat/encryption.ts):
// SSE-C on every operation that takes its headers is 400 InvalidRequest (AWS refuses customer keys
// on a connection without TLS), SSE-S3 and SSE-KMS are 501 NotImplemented naming the header, and
// in every case nothing is stored. Through the AWS SDK v3, boto3 and raw requests.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetBucketEncryptionCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutBucketEncryptionCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, bucketName, errorOf, raw, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('sse'));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'plain', Body: 'plain bytes' }));
});
afterAll(async () => {
  await s?.close();
});

const SSE_C = { SSECustomerAlgorithm: 'AES256', SSECustomerKey: randomBytes(16).toString('hex') };
const SSE_C_MESSAGE = 'Requests specifying Server Side Encryption with Customer provided keys must be made over a secure connection.';
const keys = async () => ((await c.send(new ListObjectsV2Command({ Bucket: b }))).Contents ?? []).map((o) => o.Key).sort();
const uploads = async () => ((await c.send(new ListMultipartUploadsCommand({ Bucket: b }))).Uploads ?? []).map((u) => u.Key);

describe('SSE-C (customer keys): 400 InvalidRequest, as AWS answers on a connection without TLS', () => {
  it('PutObject stores nothing; a GET without the key finds nothing', async () => {
    const e = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: 'sse-c', Body: 'secret', ...SSE_C })));
    expect([e.name, e.status, e.message]).toEqual(['InvalidRequest', 400, SSE_C_MESSAGE]);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'sse-c' })))).name).toBe('NoSuchKey');
    expect(await keys()).toEqual(['plain']);
  });

  it('GetObject and HeadObject with a key are refused too', async () => {
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'plain', ...SSE_C })))).name).toBe('InvalidRequest');
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'plain', ...SSE_C })))).status).toBe(400);
  });

  it('CopyObject (destination or source key), CreateMultipartUpload, UploadPart and UploadPartCopy store nothing', async () => {
    const source = { CopySourceSSECustomerAlgorithm: 'AES256', CopySourceSSECustomerKey: SSE_C.SSECustomerKey };
    for (const extra of [SSE_C, source]) {
      const e = await sdkError(c.send(new CopyObjectCommand({ Bucket: b, Key: 'copied', CopySource: `${b}/plain`, ...extra })));
      expect([e.name, e.status]).toEqual(['InvalidRequest', 400]);
    }
    expect((await sdkError(c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mpu-c', ...SSE_C })))).name).toBe('InvalidRequest');
    expect(await uploads()).toEqual([]);
    const UploadId = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mpu' }))).UploadId!;
    expect((await sdkError(c.send(new UploadPartCommand({ Bucket: b, Key: 'mpu', UploadId, PartNumber: 1, Body: 'part', ...SSE_C })))).name).toBe('InvalidRequest');
    const copyPart = new UploadPartCopyCommand({ Bucket: b, Key: 'mpu', UploadId, PartNumber: 2, CopySource: `${b}/plain`, ...source });
    expect((await sdkError(c.send(copyPart))).name).toBe('InvalidRequest');
    expect((await c.send(new ListPartsCommand({ Bucket: b, Key: 'mpu', UploadId }))).Parts ?? []).toEqual([]);
    expect(await keys()).toEqual(['plain']);
  });

  it('a forged signature is still 403 SignatureDoesNotMatch, an anonymous request 400', async () => {
    const headers = { 'x-amz-server-side-encryption-customer-algorithm': 'AES256' };
    const forged = await raw(s, 'PUT', `/${b}/forged`, { as: { ...ALICE, secretKey: 'wrong' }, body: 'x', headers });
    expect([forged.status, errorOf(forged).Code]).toEqual([403, 'SignatureDoesNotMatch']);
    const anonymous = await raw(s, 'GET', `/${b}/plain`, { headers });
    expect([anonymous.status, errorOf(anonymous).Code]).toEqual([400, 'InvalidRequest']);
  });
});

describe('SSE-S3 and SSE-KMS: 501 NotImplemented naming the header', () => {
  it('PutObject with AES256, aws:kms or a bucket key stores nothing', async () => {
    for (const [key, extra, header] of [
      ['s3', { ServerSideEncryption: 'AES256' }, 'x-amz-server-side-encryption'],
      ['kms', { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: 'alias/k' }, 'x-amz-server-side-encryption'],
      ['bucket-key', { BucketKeyEnabled: true }, 'x-amz-server-side-encryption-bucket-key-enabled'],
    ] as const) {
      const e = await sdkError(c.send(new PutObjectCommand({ Bucket: b, Key: key, Body: 'x', ...extra })));
      expect([e.name, e.status], key).toEqual(['NotImplemented', 501]);
      expect((e.raw as { Header?: string }).Header, key).toBe(header);
    }
    const r = await raw(s, 'POST', `/${b}/mpu-kms?uploads`, { as: ALICE, headers: { 'x-amz-server-side-encryption-aws-kms-key-id': 'k' } });
    expect(errorOf(r)).toMatchObject({ Code: 'NotImplemented', Message: 'A header you provided implies functionality that is not implemented', Header: 'x-amz-server-side-encryption-aws-kms-key-id' });
    expect(await keys()).toEqual(['plain']);
    expect(await uploads()).not.toContain('mpu-kms');
  });

  it('presigned: refused whether the header is signed as a header or hoisted into the query', async () => {
    const command = new PutObjectCommand({ Bucket: b, Key: 'presigned-sse', ServerSideEncryption: 'AES256' });
    const asHeader = await getSignedUrl(c, command, { expiresIn: 300 });
    expect((await fetch(asHeader, { method: 'PUT', body: 'x', headers: { 'x-amz-server-side-encryption': 'AES256' } })).status).toBe(501);
    const inQuery = await getSignedUrl(c, command, { expiresIn: 300, hoistableHeaders: new Set(['x-amz-server-side-encryption']) });
    expect(new URL(inQuery).searchParams.get('x-amz-server-side-encryption')).toBe('AES256');
    expect((await fetch(inQuery, { method: 'PUT', body: 'x' })).status).toBe(501);
    expect(await keys()).toEqual(['plain']);
  });

  it('PutBucketEncryption is 501 and GetBucketEncryption finds no configuration', async () => {
    const rule = { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' as const } }] };
    const put = await sdkError(c.send(new PutBucketEncryptionCommand({ Bucket: b, ServerSideEncryptionConfiguration: rule })));
    expect([put.name, put.status]).toEqual(['NotImplemented', 501]);
    expect((await sdkError(c.send(new GetBucketEncryptionCommand({ Bucket: b })))).name).toBe('ServerSideEncryptionConfigurationNotFoundError');
  });
});

const PYTHON = '/usr/bin/python3';
const hasBoto3 = (() => {
  try {
    return existsSync(PYTHON) && (execFileSync(PYTHON, ['-c', 'import boto3'], { stdio: 'ignore', timeout: 20_000 }), true);
  } catch {
    return false;
  }
})();

describe.skipIf(!hasBoto3 && !process.env.CI)('boto3', () => {
  it('SSE-C is InvalidRequest and SSE-S3/KMS NotImplemented; nothing stored', async () => {
    const bucket = bucketName('sse-boto3');
    await c.send(new CreateBucketCommand({ Bucket: bucket }));
    await c.send(new PutObjectCommand({ Bucket: bucket, Key: 'plain', Body: 'plain' }));
    // Asynchronously: the server answering the script runs in this process.
    const { stdout } = await promisify(execFile)(PYTHON, [join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'boto3_sse.py'), s.url, ALICE.accessKey, ALICE.secretKey, bucket], {
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' },
      timeout: 40_000,
    });
    const report = JSON.parse(stdout) as Record<string, unknown>;
    const refused = { code: 'InvalidRequest', status: 400 };
    const missing = { code: 'NotImplemented', status: 501 };
    expect(report).toEqual({
      put_sse_c: refused,
      get_sse_c: refused,
      copy_sse_c: refused,
      mpu_sse_c: refused,
      put_sse_s3: missing,
      put_sse_kms: missing,
      keys: ['plain'],
      uploads: [],
    });
  });
});
