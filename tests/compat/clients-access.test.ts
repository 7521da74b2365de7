// ACLs and bucket policies through the real command-line clients (issue 26): aws-cli 2 and boto3,
// each as two accounts of one tenant (the owner and a grantee), against a running Coffer.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, bucketName, raw, startS3Server, type S3TestServer, type User } from './server.js';

const AWS = '/usr/bin/aws';
const PYTHON = '/usr/bin/python3';
const haveAws = existsSync(AWS);
const haveBoto3 = existsSync(PYTHON);

let s: S3TestServer;
let home: string;

beforeAll(async () => {
  s = await startS3Server({ users: [ALICE, BOB] });
  home = mkdtempSync(join(tmpdir(), 'coffer-access-clients-'));
});
afterAll(async () => {
  await s.close();
  rmSync(home, { recursive: true, force: true });
});

function env(u: User): NodeJS.ProcessEnv {
  const dir = join(home, u.accessKey);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config'), '[default]\nregion = us-east-1\ns3 =\n  addressing_style = path\n');
  writeFileSync(join(dir, 'credentials'), `[default]\naws_access_key_id = ${u.accessKey}\naws_secret_access_key = ${u.secretKey}\n`);
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: dir,
    LANG: 'C.UTF-8',
    AWS_CONFIG_FILE: join(dir, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_PAGER: '',
    AWS_MAX_ATTEMPTS: '1',
  };
}

function exec(file: string, args: string[], e: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: e, timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

const aws = (u: User, ...args: string[]) => exec(AWS, ['--endpoint-url', s.url, '--output', 'json', ...args], env(u));
async function awsOk(u: User, ...args: string[]): Promise<Record<string, unknown>> {
  const r = await aws(u, ...args);
  expect(r.code, `aws ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
}

type Grants = { Grantee: { ID?: string; URI?: string }; Permission: string }[];

describe.skipIf(!haveAws)('aws-cli', () => {
  it('put-object-acl --version-id sets that version\'s ACL only, and keeps its LastModified', async () => {
    const b = bucketName('cli');
    await awsOk(ALICE, 's3api', 'create-bucket', '--bucket', b);
    await awsOk(ALICE, 's3api', 'put-bucket-versioning', '--bucket', b, '--versioning-configuration', 'Status=Enabled');
    const body = join(home, 'body.txt');
    writeFileSync(body, 'first');
    const v1 = (await awsOk(ALICE, 's3api', 'put-object', '--bucket', b, '--key', 'k', '--body', body)).VersionId as string;
    await awsOk(ALICE, 's3api', 'put-object', '--bucket', b, '--key', 'k', '--body', body);
    const before = (await awsOk(ALICE, 's3api', 'head-object', '--bucket', b, '--key', 'k', '--version-id', v1)).LastModified;
    await awsOk(ALICE, 's3api', 'put-object-acl', '--bucket', b, '--key', 'k', '--version-id', v1, '--grant-read', `id=${BOB.account}`, '--grant-full-control', `id=${ALICE.account}`);
    const acl = await awsOk(ALICE, 's3api', 'get-object-acl', '--bucket', b, '--key', 'k', '--version-id', v1);
    expect((acl.Grants as Grants).map((g) => [g.Grantee.ID, g.Permission])).toEqual([
      [BOB.account, 'READ'],
      [ALICE.account, 'FULL_CONTROL'],
    ]);
    const latest = await awsOk(ALICE, 's3api', 'get-object-acl', '--bucket', b, '--key', 'k');
    expect((latest.Grants as Grants).map((g) => g.Grantee.ID)).toEqual([ALICE.account]);
    expect((await awsOk(ALICE, 's3api', 'head-object', '--bucket', b, '--key', 'k', '--version-id', v1)).LastModified).toBe(before);
    // Bob reads the version he was granted, not the latest.
    expect((await aws(BOB, 's3api', 'get-object', '--bucket', b, '--key', 'k', '--version-id', v1, join(home, 'out1'))).code).toBe(0);
    const denied = await aws(BOB, 's3api', 'get-object', '--bucket', b, '--key', 'k', join(home, 'out2'));
    expect(denied.stderr).toContain('AccessDenied');
  }, 300_000);

  it('a bucket policy naming the other account, and MalformedPolicy in AWS\'s words', async () => {
    const b = bucketName('clipol');
    await awsOk(ALICE, 's3api', 'create-bucket', '--bucket', b);
    const policy = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { AWS: [`arn:aws:iam::test:user/bob`] }, Action: ['s3:ListBucket'], Resource: `arn:aws:s3:::${b}` }],
    });
    await awsOk(ALICE, 's3api', 'put-bucket-policy', '--bucket', b, '--policy', policy);
    await s.engine.putObject({ tenant: 'test', container: b }, 'listed', 'l');
    expect(((await awsOk(BOB, 's3api', 'list-objects-v2', '--bucket', b)).Contents as { Key: string }[]).map((o) => o.Key)).toEqual(['listed']);
    const bad = await aws(ALICE, 's3api', 'put-bucket-policy', '--bucket', b, '--policy', JSON.stringify({ Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:Nope', Resource: `arn:aws:s3:::${b}/*` }] }));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/\(MalformedPolicy\) when calling the PutBucketPolicy operation.*: Policy has invalid action/);
    // With s3:ListBucket, Bob learns a key is missing (404), anonymous callers are refused (403).
    expect((await aws(BOB, 's3api', 'head-object', '--bucket', b, '--key', 'nope')).stderr).toContain('404');
    expect((await raw(s, 'HEAD', `/${b}/nope`)).status).toBe(403);
  }, 300_000);
});

const BOTO3 = `
import json, sys, boto3
from botocore.config import Config
from botocore.exceptions import ClientError
url, b, alice_ak, alice_sk, bob_ak, bob_sk, bob_id, alice_id = sys.argv[1:]
cfg = Config(s3={'addressing_style': 'path'}, retries={'max_attempts': 1})
def client(ak, sk):
    return boto3.client('s3', endpoint_url=url, aws_access_key_id=ak, aws_secret_access_key=sk, region_name='us-east-1', config=cfg)
alice, bob = client(alice_ak, alice_sk), client(bob_ak, bob_sk)
def code(f):
    try:
        f()
        return 'ok'
    except ClientError as e:
        return e.response['Error']['Code']
out = {}
alice.create_bucket(Bucket=b, ACL='public-read-write')
out['bucket_acl'] = [[g['Grantee'].get('URI', g['Grantee'].get('ID')), g['Permission']] for g in alice.get_bucket_acl(Bucket=b)['Grants']]
alice.put_object(Bucket=b, Key='granted', Body=b'g', GrantRead='id="%s"' % bob_id, GrantFullControl='id="%s"' % alice_id)
out['bob_get_granted'] = code(lambda: bob.get_object(Bucket=b, Key='granted'))
alice.put_object(Bucket=b, Key='private', Body=b'p')
out['bob_get_private'] = code(lambda: bob.get_object(Bucket=b, Key='private'))
alice.put_object(Bucket=b, Key='home/bob/x', Body=b'x')
alice.put_object_acl(Bucket=b, Key='private', AccessControlPolicy={'Owner': {'ID': alice_id}, 'Grants': [
    {'Grantee': {'Type': 'CanonicalUser', 'ID': alice_id}, 'Permission': 'FULL_CONTROL'},
    {'Grantee': {'Type': 'Group', 'URI': 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers'}, 'Permission': 'READ'}]})
out['bob_get_authenticated'] = code(lambda: bob.get_object(Bucket=b, Key='private'))
alice.put_bucket_acl(Bucket=b, ACL='private')
alice.put_bucket_policy(Bucket=b, Policy=json.dumps({'Version': '2012-10-17', 'Statement': [
    {'Effect': 'Allow', 'Principal': {'AWS': [bob_id]}, 'Action': 's3:ListBucket', 'Resource': 'arn:aws:s3:::' + b,
     'Condition': {'StringLike': {'s3:prefix': 'home/bob/*'}}},
    {'Effect': 'Deny', 'Principal': {'AWS': bob_id}, 'Action': 's3:GetObject', 'Resource': 'arn:aws:s3:::%s/granted' % b}]}))
out['bob_list_home'] = code(lambda: bob.list_objects_v2(Bucket=b, Prefix='home/bob/'))
out['bob_list_root'] = code(lambda: bob.list_objects_v2(Bucket=b))
out['bob_get_granted_denied'] = code(lambda: bob.get_object(Bucket=b, Key='granted'))
out['email_grant'] = code(lambda: alice.put_object_acl(Bucket=b, Key='private', GrantRead='emailAddress="bob@example.com"'))
print(json.dumps(out))
`;

describe.skipIf(!haveBoto3)('boto3', () => {
  it('canned, header and document ACLs; a policy with a prefix condition and a Deny', async () => {
    const b = bucketName('boto');
    const script = join(home, 'access.py');
    writeFileSync(script, BOTO3);
    const r = await exec(PYTHON, [script, s.url, b, ALICE.accessKey, ALICE.secretKey, BOB.accessKey, BOB.secretKey, BOB.account, ALICE.account], env(ALICE));
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toEqual({
      bucket_acl: [
        [ALICE.account, 'FULL_CONTROL'],
        ['http://acs.amazonaws.com/groups/global/AllUsers', 'READ'],
        ['http://acs.amazonaws.com/groups/global/AllUsers', 'WRITE'],
      ],
      bob_get_granted: 'ok',
      bob_get_private: 'AccessDenied',
      bob_get_authenticated: 'ok',
      bob_list_home: 'ok',
      bob_list_root: 'AccessDenied',
      bob_get_granted_denied: 'AccessDenied',
      email_grant: 'UnresolvableGrantByEmailAddress',
    });
  }, 120_000);
});
