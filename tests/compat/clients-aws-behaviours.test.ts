// The AWS behaviours of aws-behaviours.test.ts through boto3 (one script run:
// fixtures/boto3_behaviours.py observes, the tests here assert) and the AWS CLI (`aws s3api`),
// each a child process with credentials in its environment only, against a running server.
// A client that is not installed is skipped locally and fails under CI, as in clients-kit.ts.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, bucketName, startS3Server, type S3TestServer } from './server.js';

const AWS = '/usr/bin/aws';
const PYTHON = '/usr/bin/python3';
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'boto3_behaviours.py');
const hasBoto3 = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import boto3'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
})();
const HAVE = { aws: existsSync(AWS) || !!process.env.CI, boto3: hasBoto3 || !!process.env.CI };

let s: S3TestServer;
let home: string;
beforeAll(async () => {
  s = await startS3Server();
  home = mkdtempSync(join(tmpdir(), 'coffer-aws-behaviours-'));
});
afterAll(async () => {
  await s?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A client run with nothing from the machine's configuration: credentials and region from the environment. */
function run(file: string, args: string[]): Promise<Run> {
  const env = {
    PATH: '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', AWS_ACCESS_KEY_ID: ALICE.accessKey, AWS_SECRET_ACCESS_KEY: ALICE.secretKey, AWS_DEFAULT_REGION: 'us-east-1',
    AWS_CONFIG_FILE: join(home, 'none'), AWS_SHARED_CREDENTIALS_FILE: join(home, 'none'), AWS_EC2_METADATA_DISABLED: 'true', AWS_MAX_ATTEMPTS: '1',
  };
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 60_000, encoding: 'utf8' }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) || 1 : 0, stdout, stderr }));
  });
}

describe.skipIf(!HAVE.boto3)(HAVE.boto3 ? 'boto3' : 'boto3 — skipped: python3-boto3 is not installed (apt-get install python3-boto3)', () => {
  type Outcome = { ok: unknown } | { error: string; status: number };
  let seen: Record<string, Outcome> = {};
  beforeAll(async () => {
    const r = await run(PYTHON, [SCRIPT, s.url, ALICE.accessKey, ALICE.secretKey, bucketName('boto')]);
    expect(r.code, r.stderr).toBe(0);
    seen = JSON.parse(r.stdout) as Record<string, Outcome>;
  }, 90_000);
  const failed = (step: string) => {
    const o = seen[step]!;
    return 'error' in o ? [o.status, o.error] : ['succeeded', o.ok];
  };
  const value = (step: string) => {
    const o = seen[step]!;
    if ('error' in o) throw new Error(`${step}: ${o.status} ${o.error}`);
    return o.ok;
  };

  it('conditional PutObject: IfMatch replaces only the version named (412 otherwise, NoSuchKey without one); IfNoneMatch with an ETag is NotImplemented', () => {
    expect(failed('put_if_match_wrong')).toEqual([412, 'PreconditionFailed']);
    expect(value('put_if_match_right')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(value('body_after_if_match')).toBe('v2');
    expect(failed('put_if_match_missing')).toEqual([404, 'NoSuchKey']);
    expect(failed('put_if_none_match_star_existing')).toEqual([412, 'PreconditionFailed']);
    expect(failed('put_if_none_match_etag')).toEqual([501, 'NotImplemented']);
  });

  it('CompleteMultipartUpload: IfNoneMatch/IfMatch checked, a retry answers the same ETag, a part listed twice counts once', () => {
    expect(failed('complete_if_none_match_existing')).toEqual([412, 'PreconditionFailed']);
    expect(failed('complete_if_match_wrong')).toEqual([412, 'PreconditionFailed']);
    const etag = value('complete_if_match_right');
    expect(etag).toMatch(/-1"$/);
    expect(value('complete_retried')).toBe(etag);
    expect(value('body_after_complete')).toBe('part one');
    expect(value('complete_part_listed_twice')).toMatch(/-1"$/);
    expect(value('body_after_listed_twice')).toBe('resent body');
  });
});

describe.skipIf(!HAVE.aws)(HAVE.aws ? 'aws s3api' : 'aws s3api — skipped: /usr/bin/aws is not installed (apt-get install awscli)', () => {
  const b = bucketName('cli');
  const s3api = async (...args: string[]) => run(AWS, ['--endpoint-url', s.url, '--output', 'json', 's3api', ...args]);
  const json = (r: Run) => {
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, string>;
  };

  // The CLI Debian ships (2.9) has no --if-match / --if-none-match: the conditions are the SDK's and boto3's here.
  it('complete-multipart-upload retried answers the same ETag; a part listed twice counts once', async () => {
    json(await s3api('create-bucket', '--bucket', b));
    const file = join(home, 'body.txt');
    writeFileSync(file, 'from the cli');
    const id = json(await s3api('create-multipart-upload', '--bucket', b, '--key', 'mp')).UploadId!;
    const part = json(await s3api('upload-part', '--bucket', b, '--key', 'mp', '--upload-id', id, '--part-number', '1', '--body', file));
    const parts = JSON.stringify({ Parts: [{ PartNumber: 1, ETag: part.ETag }, { PartNumber: 1, ETag: part.ETag }] });
    const done = json(await s3api('complete-multipart-upload', '--bucket', b, '--key', 'mp', '--upload-id', id, '--multipart-upload', parts));
    expect(done.ETag).toMatch(/-1"$/);
    const again = json(await s3api('complete-multipart-upload', '--bucket', b, '--key', 'mp', '--upload-id', id, '--multipart-upload', parts));
    expect(again.ETag).toBe(done.ETag);
    const head = json(await s3api('head-object', '--bucket', b, '--key', 'mp'));
    expect([head.ETag, head.ContentLength]).toEqual([done.ETag, 12]);
  }, 120_000);
});

