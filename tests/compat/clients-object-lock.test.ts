// S3 Object Lock through aws-cli 2 and boto3 (their own XML, Content-MD5 and date parsing), and
// a lock surviving a restart: the reopened store still refuses to remove the locked version and
// still applies the bucket's default retention.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectLockConfigurationCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectLockConfigurationCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../src-main/app-context.js';
import { ALICE, bucketName, clientFor, sdkError, startS3Server, type S3TestServer } from './server.js';
import { s3apiCli } from './s3api-cli.js';

let s: S3TestServer;
let home: string;
beforeAll(async () => {
  s = await startS3Server({ users: [ALICE] });
  home = mkdtempSync(join(tmpdir(), 'coffer-lock-home-'));
});
afterAll(async () => {
  await s?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const { exec, aws, awsFails } = s3apiCli(() => s.url, () => home);

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

describe('aws-cli', () => {
  it('makes a locked bucket, sets its default, locks versions, and is refused what the lock forbids', async () => {
    const b = bucketName('lkcli');
    await aws('create-bucket', '--bucket', b, '--object-lock-enabled-for-bucket');
    expect(await aws('get-bucket-versioning', '--bucket', b)).toMatchObject({ Status: 'Enabled' });
    const file = join(home, 'lock.json');
    const config = { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 2 } } };
    writeFileSync(file, JSON.stringify(config));
    await aws('put-object-lock-configuration', '--bucket', b, '--object-lock-configuration', `file://${file}`);
    expect((await aws('get-object-lock-configuration', '--bucket', b)).ObjectLockConfiguration).toEqual(config);

    // The bucket's default: aws-cli's put-object sends Content-MD5, as AWS wants it here.
    const put = await aws('put-object', '--bucket', b, '--key', 'report.txt', '--body', file);
    const v = put.VersionId as string;
    const retention = (await aws('get-object-retention', '--bucket', b, '--key', 'report.txt')).Retention as { Mode: string; RetainUntilDate: string };
    expect(retention.Mode).toBe('GOVERNANCE');
    expect(Date.parse(retention.RetainUntilDate)).toBeGreaterThan(Date.now() + 86_400_000);

    await aws('put-object-legal-hold', '--bucket', b, '--key', 'report.txt', '--legal-hold', 'Status=ON');
    expect((await aws('get-object-legal-hold', '--bucket', b, '--key', 'report.txt')).LegalHold).toEqual({ Status: 'ON' });
    expect(await aws('head-object', '--bucket', b, '--key', 'report.txt')).toMatchObject({ ObjectLockMode: 'GOVERNANCE', ObjectLockLegalHoldStatus: 'ON' });
    expect(await awsFails('delete-object', '--bucket', b, '--key', 'report.txt', '--version-id', v, '--bypass-governance-retention')).toEqual([254, 'AccessDenied']);
    await aws('put-object-legal-hold', '--bucket', b, '--key', 'report.txt', '--legal-hold', 'Status=OFF');
    expect(await awsFails('delete-object', '--bucket', b, '--key', 'report.txt', '--version-id', v)).toEqual([254, 'AccessDenied']);
    expect(await awsFails('put-object-retention', '--bucket', b, '--key', 'report.txt', '--retention', `Mode=GOVERNANCE,RetainUntilDate=${inDays(1)}`)).toEqual([254, 'AccessDenied']);
    await aws('put-object-retention', '--bucket', b, '--key', 'report.txt', '--retention', `Mode=GOVERNANCE,RetainUntilDate=${inDays(1)}`, '--bypass-governance-retention');
    await aws('delete-object', '--bucket', b, '--key', 'report.txt', '--version-id', v, '--bypass-governance-retention');
    expect((await aws('list-object-versions', '--bucket', b)).Versions).toBeUndefined();

    expect(await awsFails('put-bucket-versioning', '--bucket', b, '--versioning-configuration', 'Status=Suspended')).toEqual([254, 'InvalidBucketState']);
    const plain = bucketName('lkcli-plain');
    await aws('create-bucket', '--bucket', plain);
    expect(await awsFails('get-object-lock-configuration', '--bucket', plain)).toEqual([254, 'ObjectLockConfigurationNotFoundError']);
    expect(await awsFails('put-object-lock-configuration', '--bucket', plain, '--object-lock-configuration', 'ObjectLockEnabled=Enabled')).toEqual([254, 'InvalidBucketState']);
  });
});

describe('boto3', () => {
  it('puts with lock headers, reads them back as datetimes, and compliance holds against the bypass', async () => {
    const b = bucketName('lkboto');
    const script = `
import boto3, json, sys, datetime
c = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', config=boto3.session.Config(s3={'addressing_style': 'path'}))
b = sys.argv[2]
c.create_bucket(Bucket=b, ObjectLockEnabledForBucket=True)
until = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=3)).replace(microsecond=0)
v = c.put_object(Bucket=b, Key='k', Body=b'compliance', ObjectLockMode='COMPLIANCE', ObjectLockRetainUntilDate=until)['VersionId']
head = c.head_object(Bucket=b, Key='k')
ret = c.get_object_retention(Bucket=b, Key='k', VersionId=v)['Retention']
out = {'mode': head.get('ObjectLockMode'), 'same_date': head.get('ObjectLockRetainUntilDate') == until and ret['RetainUntilDate'] == until}
try:
    c.delete_object(Bucket=b, Key='k', VersionId=v, BypassGovernanceRetention=True)
    out['delete'] = 'deleted'
except c.exceptions.ClientError as e:
    out['delete'] = e.response['Error']['Code']
deleted = c.delete_objects(Bucket=b, Delete={'Objects': [{'Key': 'k', 'VersionId': v}]}, BypassGovernanceRetention=True)
out['delete_objects'] = [e['Code'] for e in deleted.get('Errors', [])]
try:
    c.put_object_retention(Bucket=b, Key='k', VersionId=v, Retention={'Mode': 'GOVERNANCE', 'RetainUntilDate': until}, BypassGovernanceRetention=True)
    out['to_governance'] = 'changed'
except c.exceptions.ClientError as e:
    out['to_governance'] = e.response['Error']['Code']
out['marker'] = c.delete_object(Bucket=b, Key='k').get('DeleteMarker')
print(json.dumps(out))
`;
    const r = await exec('/usr/bin/python3', ['-c', script, s.url, b]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ mode: 'COMPLIANCE', same_date: true, delete: 'AccessDenied', delete_objects: ['AccessDenied'], to_governance: 'AccessDenied', marker: true });
  });
});

describe('across a restart', () => {
  it('the reopened store keeps the lock, the legal hold and the default retention', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'coffer-lock-restart-'));
    const engine = { noSync: true, expirySweepMs: 0 };
    try {
      let app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine });
      await app.engine.createAccount({ id: ALICE.account, keys: [{ accessKey: ALICE.accessKey, secretKey: ALICE.secretKey }] });
      let c = clientFor(app.server.url, ALICE, { forcePathStyle: true });
      const b = bucketName('lkrestart');
      await c.send(new CreateBucketCommand({ Bucket: b, ObjectLockEnabledForBucket: true }));
      await c.send(new PutObjectLockConfigurationCommand({ Bucket: b, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 1 } } } }));
      const v = (await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'x', ObjectLockLegalHoldStatus: 'ON' }))).VersionId;
      c.destroy();
      await app.close();

      app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine });
      c = clientFor(app.server.url, ALICE, { forcePathStyle: true });
      try {
        expect((await c.send(new GetObjectLockConfigurationCommand({ Bucket: b }))).ObjectLockConfiguration?.Rule?.DefaultRetention).toEqual({ Mode: 'COMPLIANCE', Days: 1 });
        expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'k' }))).ObjectLockMode).toBe('COMPLIANCE');
        expect((await c.send(new GetObjectLegalHoldCommand({ Bucket: b, Key: 'k' }))).LegalHold?.Status).toBe('ON');
        expect((await sdkError(c.send(new DeleteObjectCommand({ Bucket: b, Key: 'k', VersionId: v })))).name).toBe('AccessDenied');
        const w = (await c.send(new PutObjectCommand({ Bucket: b, Key: 'new', Body: 'y' }))).VersionId;
        expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'new', VersionId: w }))).ObjectLockMode).toBe('COMPLIANCE');
      } finally {
        c.destroy();
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
