// Tagging, additional checksums and GetObjectAttributes through aws-cli (s3api) and boto3, as
// their users call them, against a running Coffer.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, bucketName, startS3Server, type S3TestServer } from './server.js';

const run = promisify(execFile);
let s: S3TestServer;
let b: string;
let home: string;
beforeAll(async () => {
  s = await startS3Server();
  b = bucketName('clients-data');
  await s.client().send(new CreateBucketCommand({ Bucket: b }));
  home = mkdtempSync(join(tmpdir(), 'coffer-data-clients-'));
});
afterAll(async () => {
  await s?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const env = () => ({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: home,
  AWS_ACCESS_KEY_ID: ALICE.accessKey,
  AWS_SECRET_ACCESS_KEY: ALICE.secretKey,
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
});
const aws = async (...args: string[]) => JSON.parse((await run('/usr/bin/aws', ['--endpoint-url', s.url, '--output', 'json', 's3api', ...args], { env: env() })).stdout || '{}') as Record<string, unknown>;

describe('aws-cli', () => {
  it('puts an object with tags, reads, replaces and deletes them, and reads attributes', async () => {
    const file = join(home, 'f.txt');
    writeFileSync(file, 'from aws-cli');
    await aws('put-object', '--bucket', b, '--key', 'cli', '--body', file, '--tagging', 'a=1&b=two');
    expect((await aws('get-object-tagging', '--bucket', b, '--key', 'cli')).TagSet).toEqual([{ Key: 'a', Value: '1' }, { Key: 'b', Value: 'two' }]);
    await aws('put-object-tagging', '--bucket', b, '--key', 'cli', '--tagging', 'TagSet=[{Key=c,Value=3}]');
    expect((await aws('get-object', '--bucket', b, '--key', 'cli', join(home, 'out.txt'))).TagCount).toBe(1);
    await aws('delete-object-tagging', '--bucket', b, '--key', 'cli');
    expect((await aws('get-object-tagging', '--bucket', b, '--key', 'cli')).TagSet).toEqual([]);
    const attrs = await aws('get-object-attributes', '--bucket', b, '--key', 'cli', '--object-attributes', 'ObjectSize', 'StorageClass');
    expect([attrs.ObjectSize, attrs.StorageClass]).toEqual([12, 'STANDARD']);
    await aws('put-bucket-tagging', '--bucket', b, '--tagging', 'TagSet=[{Key=team,Value=data}]');
    expect((await aws('get-bucket-tagging', '--bucket', b)).TagSet).toEqual([{ Key: 'team', Value: 'data' }]);
  }, 300_000);
});

describe('boto3', () => {
  it('uploads with a CRC32C checksum and reads it back with checksum mode and GetObjectAttributes', async () => {
    const script = `
import boto3, json, sys
c = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1')
b = sys.argv[2]
put = c.put_object(Bucket=b, Key='py', Body=b'from boto3', ChecksumAlgorithm='CRC32C', Tagging='lang=python')
head = c.head_object(Bucket=b, Key='py', ChecksumMode='ENABLED')
got = c.get_object(Bucket=b, Key='py')
got['Body'].read()
attrs = c.get_object_attributes(Bucket=b, Key='py', ObjectAttributes=['Checksum', 'ETag'])
tags = c.get_object_tagging(Bucket=b, Key='py')['TagSet']
print(json.dumps({'put': put.get('ChecksumCRC32C'), 'head': head.get('ChecksumCRC32C'), 'type': head.get('ChecksumType'), 'attrs': attrs['Checksum'], 'etag': attrs['ETag'], 'tags': tags, 'count': got.get('TagCount')}))
`;
    const out = JSON.parse((await run('/usr/bin/python3', ['-c', script, s.url, b], { env: env() })).stdout) as Record<string, unknown>;
    expect(out.put).toBeTruthy();
    // This botocore predates ChecksumType in its models: the value is checked through the SDK v3 (checksums.test.ts).
    expect([out.head, out.count, out.tags]).toEqual([out.put, 1, [{ Key: 'lang', Value: 'python' }]]);
    expect(out.attrs).toMatchObject({ ChecksumCRC32C: out.put });
    expect(out.etag).toMatch(/^[0-9a-f]{32}$/);
  }, 120_000);
});
