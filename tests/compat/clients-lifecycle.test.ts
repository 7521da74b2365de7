// Lifecycle rules through aws-cli 2 and boto3 (their own XML, Content-MD5 and parsing), and the
// rules surviving a restart: the reopened server's own sweep expires the object. The lifecycle
// day is one second here (as RGW's `rgw lc debug interval`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutBucketLifecycleConfigurationCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../src-main/app-context.js';
import { ALICE, bucketName, clientFor, startS3Server, type S3TestServer } from './server.js';
import { s3apiCli } from './s3api-cli.js';

const DAY = 1000;
let s: S3TestServer;
let home: string;
beforeAll(async () => {
  s = await startS3Server({ users: [ALICE], engine: { lifecycleDayMs: DAY } });
  home = mkdtempSync(join(tmpdir(), 'coffer-lc-home-'));
});
afterAll(async () => {
  await s?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const { exec, aws } = s3apiCli(() => s.url, () => home);

describe('aws-cli', () => {
  it('puts, gets and deletes a configuration; head-object shows the Expiration', async () => {
    const b = bucketName('lccli');
    await aws('create-bucket', '--bucket', b);
    const file = join(home, 'lc.json');
    const rules = [
      { ID: 'tmp', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 2 } },
      { ID: 'versions', Status: 'Enabled', Filter: { Prefix: '' }, NoncurrentVersionExpiration: { NoncurrentDays: 4 }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ];
    writeFileSync(file, JSON.stringify({ Rules: rules }));
    await aws('put-bucket-lifecycle-configuration', '--bucket', b, '--lifecycle-configuration', `file://${file}`);
    expect((await aws('get-bucket-lifecycle-configuration', '--bucket', b)).Rules).toEqual(rules);
    await aws('put-object', '--bucket', b, '--key', 'tmp/x', '--body', file);
    expect((await aws('head-object', '--bucket', b, '--key', 'tmp/x')).Expiration).toMatch(/^expiry-date="[^"]+ GMT", rule-id="tmp"$/);
    await aws('delete-bucket-lifecycle', '--bucket', b);
    const gone = await exec('/usr/bin/aws', ['--endpoint-url', s.url, 's3api', 'get-bucket-lifecycle-configuration', '--bucket', b]);
    expect([gone.code, /NoSuchLifecycleConfiguration/.test(gone.stderr)]).toEqual([254, true]);
  });
});

describe('boto3', () => {
  it('round-trips the rules and reads Expiration on head_object', async () => {
    const b = bucketName('lcboto');
    const script = `
import boto3, json, sys
c = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', config=boto3.session.Config(s3={'addressing_style': 'path'}))
b = sys.argv[2]
c.create_bucket(Bucket=b)
rules = [{'ID': 'logs', 'Status': 'Enabled', 'Filter': {'And': {'Prefix': 'logs/'}}, 'Expiration': {'Days': 5}},
         {'ID': 'dm', 'Status': 'Enabled', 'Filter': {}, 'Expiration': {'ExpiredObjectDeleteMarker': True}}]
c.put_bucket_lifecycle_configuration(Bucket=b, LifecycleConfiguration={'Rules': rules})
got = c.get_bucket_lifecycle_configuration(Bucket=b)['Rules']
c.put_object(Bucket=b, Key='logs/1', Body=b'x')
head = c.head_object(Bucket=b, Key='logs/1')
try:
    c.put_bucket_lifecycle_configuration(Bucket=b, LifecycleConfiguration={'Rules': [{'ID': 'z', 'Status': 'Enabled', 'Filter': {}, 'Expiration': {'Days': 0}}]})
    refused = None
except c.exceptions.ClientError as e:
    refused = e.response['Error']['Code']
print(json.dumps({'same': got == rules, 'got': got, 'expiration': head.get('Expiration'), 'refused': refused}))
`;
    const r = await exec('/usr/bin/python3', ['-c', script, s.url, b]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { same: boolean; got: unknown; expiration: string; refused: string };
    expect(out.same, JSON.stringify(out.got)).toBe(true);
    expect(out.expiration).toMatch(/^expiry-date="[^"]+ GMT", rule-id="logs"$/);
    expect(out.refused).toBe('InvalidArgument');
  });
});

describe('across a restart', () => {
  it('the reopened store keeps the rules and its own sweep expires the object', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'coffer-lc-restart-'));
    const engine = { noSync: true, lifecycleDayMs: DAY, expirySweepMs: 0 };
    try {
      let app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine });
      await app.engine.createAccount({ id: ALICE.account, keys: [{ accessKey: ALICE.accessKey, secretKey: ALICE.secretKey }] });
      let c = clientFor(app.server.url, ALICE, { forcePathStyle: true });
      const b = bucketName('lcrestart');
      await c.send(new CreateBucketCommand({ Bucket: b }));
      await c.send(new PutBucketLifecycleConfigurationCommand({ Bucket: b, LifecycleConfiguration: { Rules: [{ ID: 'r', Status: 'Enabled', Filter: {}, Expiration: { Days: 1 } }] } }));
      await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'x' }));
      c.destroy();
      await app.close();

      app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine: { ...engine, expirySweepMs: 100 } });
      c = clientFor(app.server.url, ALICE, { forcePathStyle: true });
      try {
        expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'k' }))).Expiration).toMatch(/rule-id="r"/);
        // Nothing here runs the sweep: the server's own timer does, within two lifecycle days.
        let listed = 1;
        for (let i = 0; i < 300 && listed > 0; i++) {
          await new Promise((r) => setTimeout(r, 100));
          listed = (await c.send(new ListObjectsV2Command({ Bucket: b }))).KeyCount ?? 0;
        }
        expect(listed).toBe(0);
      } finally {
        c.destroy();
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
