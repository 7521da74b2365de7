// Real client: s3cmd, once signing with SigV4 and once with SigV2, against the compatible API
// (see clients-kit.ts).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import {
  app, baseEnv, big, bigFile, encodeKey, ok, port, ref, root, S3CMD, scenario, serverLogTest, small, smallFile, url, useClientsServer,
} from './clients-kit.js';
import { expectSameBytes, md5 } from './clients-tree.js';
import { anonymousGet, bucketExists, engineNames, objectEtag } from './clients-views.js';

useClientsServer();

function s3cmdScenario(label: string, signatureV2: boolean): void {
  const B = `s3cmd-${label}`;
  const s = scenario('s3cmd', `s3cmd-${label}`);
  const out = () => join(root, `out-s3cmd-${label}`);
  const cfg = () => join(s.user.home, 's3cfg');
  const KEY = signatureV2 ? 'dir/sm all+%ü (v2).txt' : 'dir/small file.txt';
  const s3cmd = (...args: string[]) => {
    if (!existsSync(cfg())) {
      writeFileSync(
        cfg(),
        [
          '[default]',
          `access_key = ${s.user.accessKey}`,
          `secret_key = ${s.user.secretKey}`,
          `host_base = 127.0.0.1:${port}`,
          `host_bucket = 127.0.0.1:${port}`,
          'use_https = False',
          `signature_v2 = ${signatureV2 ? 'True' : 'False'}`,
          'bucket_location = us-east-1',
          'check_ssl_certificate = False',
          'proxy_host =',
          'proxy_port = 0',
          'socket_timeout = 30',
          'max_retries = 1',
          'progress_meter = False',
          '',
        ].join('\n'),
      );
    }
    return ok(S3CMD, ['-c', cfg(), ...args], baseEnv(s.user));
  };

  s.step('mb', async () => {
    await s3cmd('mb', `s3://${B}`);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('put a small file with metadata', async () => {
    await s3cmd('put', '--add-header=x-amz-meta-color:blue', smallFile, `s3://${B}/${KEY}`);
    expect(objectEtag(B, KEY)).toBe(md5(small));
    expect(app.engine.headObject(ref(B), KEY).meta).toMatchObject({ color: 'blue' });
  });

  s.step('put a 20 MiB file with --multipart-chunk-size-mb=5 (four parts)', async () => {
    await s3cmd('put', '--multipart-chunk-size-mb=5', bigFile, `s3://${B}/big.bin`);
    expect(objectEtag(B, 'big.bin')).toMatch(/^[0-9a-f]{32}-4$/);
  });

  s.step('get returns both files byte-identically', async () => {
    mkdirSync(out(), { recursive: true });
    await s3cmd('get', '--force', `s3://${B}/${KEY}`, join(out(), 'small.txt'));
    expectSameBytes(join(out(), 'small.txt'), small, 's3cmd get small');
    await s3cmd('get', '--force', `s3://${B}/big.bin`, join(out(), 'big.bin'));
    expectSameBytes(join(out(), 'big.bin'), big, 's3cmd get big');
  });

  s.step('ls, la and du', async () => {
    const ls = await s3cmd('ls', '-r', `s3://${B}`);
    expect(ls.stdout).toContain(`s3://${B}/${KEY}`);
    expect(ls.stdout).toMatch(new RegExp(`\\s${big.length}\\s+s3://${B}/big\\.bin`));
    const buckets = await s3cmd('ls');
    expect(buckets.stdout).toContain(`s3://${B}`);
    const la = await s3cmd('la');
    expect(la.stdout).toContain(`s3://${B}/big.bin`);
    const du = await s3cmd('du', `s3://${B}`);
    expect(du.stdout).toMatch(new RegExp(`^\\s*${big.length + small.length}\\s+2 objects s3://${B}/`, 'm'));
  });

  s.step('info shows the metadata and the ACL', async () => {
    const r = await s3cmd('info', `s3://${B}/${KEY}`);
    expect(r.stdout).toMatch(/File size:\s+\d+/);
    expect(r.stdout).toMatch(new RegExp(`MD5 sum:\\s+${md5(small)}`));
    expect(r.stdout).toContain('x-amz-meta-color: blue');
    expect(r.stdout).toContain(`ACL:       ${s.user.name}: FULL_CONTROL`);
    const bucketInfo = await s3cmd('info', `s3://${B}`);
    expect(bucketInfo.stdout).toContain(`ACL:       ${s.user.name}: FULL_CONTROL`);
  });

  s.step('setacl --acl-public lets anonymous users read the object; --acl-private stops them', async () => {
    const path = `${B}/${encodeKey(KEY)}`;
    expect((await anonymousGet(path)).status).toBe(403);
    await s3cmd('setacl', '--acl-public', `s3://${B}/${KEY}`);
    expect((await s3cmd('info', `s3://${B}/${KEY}`)).stdout).toMatch(/ACL:\s+\*anon\*: READ/);
    expect(await anonymousGet(path)).toEqual({ status: 200, body: small.toString() });
    await s3cmd('setacl', '--acl-private', `s3://${B}/${KEY}`);
    expect((await s3cmd('info', `s3://${B}/${KEY}`)).stdout).not.toContain('*anon*');
    expect((await anonymousGet(path)).status).toBe(403);
  });

  s.step('signurl makes a (SigV2 query) URL that works without credentials', async () => {
    const signed = (await s3cmd('signurl', `s3://${B}/${KEY}`, '+300')).stdout.trim();
    expect(signed).toContain('Signature=');
    expect(await anonymousGet(signed.slice(url.length + 1))).toEqual({ status: 200, body: small.toString() });
    const tampered = signed.replace(/Expires=(\d+)/, (_, e: string) => `Expires=${Number(e) + 1}`);
    expect((await anonymousGet(tampered.slice(url.length + 1))).status).toBe(403);
  });

  s.step('del removes the objects', async () => {
    await s3cmd('del', `s3://${B}/${KEY}`, `s3://${B}/big.bin`);
    expect(engineNames(B)).toEqual([]);
  });

  s.step('rb removes the bucket', async () => {
    await s3cmd('rb', `s3://${B}`);
    expect(bucketExists(B)).toBe(false);
  });
}

describe('s3cmd (SigV4)', () => s3cmdScenario('v4', false));
describe('s3cmd (SigV2)', () => s3cmdScenario('v2', true));

serverLogTest();
