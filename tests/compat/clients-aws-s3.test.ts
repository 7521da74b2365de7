// Real client: the AWS CLI's high-level commands (`aws s3`) against the compatible API
// (see clients-kit.ts).
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { awsFor, parseS3Ls } from './clients-aws.js';
import { app, big, bigFile, ref, root, scenario, serverLogTest, small, smallFile, src, useClientsServer } from './clients-kit.js';
import { expectSameBytes, expectTree, md5, TREE, TREE_NAMES } from './clients-tree.js';
import { bucketExists, engineNames, nativeNames, objectEtag } from './clients-views.js';

useClientsServer();

describe('aws s3 (AWS CLI high-level commands)', () => {
  const B = 'aws-cli-s3';
  const out = () => join(root, 'out-aws-s3');
  const s = scenario('aws', 'aws-s3');
  const { aws } = awsFor(s);

  s.step('mb creates the bucket', async () => {
    const r = await aws('s3', 'mb', `s3://${B}`);
    expect(r.stdout).toContain(`make_bucket: ${B}`);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('cp uploads and downloads a small file byte-identically', async () => {
    await aws('s3', 'cp', '--only-show-errors', smallFile, `s3://${B}/small +%.txt`);
    expect(objectEtag(B, 'small +%.txt')).toBe(md5(small));
    await aws('s3', 'cp', '--only-show-errors', `s3://${B}/small +%.txt`, join(out(), 'small.txt'));
    expectSameBytes(join(out(), 'small.txt'), small, 'downloaded small file');
  });

  s.step('cp uploads a 20 MiB file in parts and downloads it byte-identically', async () => {
    await aws('s3', 'cp', '--only-show-errors', '--metadata', 'origin=aws-cli', '--content-type', 'application/x-big', bigFile, `s3://${B}/big/big file.bin`);
    // 8 MiB parts by default: three parts; metadata and content type go with CreateMultipartUpload.
    expect(objectEtag(B, 'big/big file.bin')).toMatch(/^[0-9a-f]{32}-3$/);
    expect(app.engine.headObject(ref(B), 'big/big file.bin')).toMatchObject({ contentType: 'application/x-big', meta: { origin: 'aws-cli' } });
    await aws('s3', 'cp', '--only-show-errors', `s3://${B}/big/big file.bin`, join(out(), 'big.bin'));
    expectSameBytes(join(out(), 'big.bin'), big, 'downloaded 20 MiB file');
  });

  s.step('cp --recursive uploads and downloads a tree with awkward names', async () => {
    await aws('s3', 'cp', '--recursive', '--only-show-errors', join(src, 'tree'), `s3://${B}/tree/`);
    expect(engineNames(B, 'tree/')).toEqual(TREE_NAMES.map((n) => `tree/${n}`));
    await aws('s3', 'cp', '--recursive', '--only-show-errors', `s3://${B}/tree/`, join(out(), 'tree'));
    expectTree(join(out(), 'tree'), 'aws s3 cp --recursive download');
  });

  s.step('ls --recursive lists every key with its size', async () => {
    const { objects } = parseS3Ls((await aws('s3', 'ls', '--recursive', `s3://${B}/tree/`)).stdout);
    expect(objects.map((o) => o.key).sort()).toEqual(TREE_NAMES.map((n) => `tree/${n}`));
    for (const o of objects) expect(o.size, o.key).toBe(Buffer.byteLength(TREE[o.key.slice('tree/'.length)]!));
  });

  s.step('ls with a prefix shows folders (PRE) and files one level down', async () => {
    const top = parseS3Ls((await aws('s3', 'ls', `s3://${B}/tree/`)).stdout);
    expect(top.prefixes.sort()).toEqual(['a/', 'dir one/', 'pct%dir/', 'ünïcødé/'].sort());
    expect(top.objects.map((o) => o.key)).toEqual(["weird &=;,'!()~@$[]#?.txt"]);
  });

  s.step('sync uploads the tree once; a second run uploads nothing', async () => {
    const first = await aws('s3', 'sync', '--no-progress', join(src, 'tree'), `s3://${B}/synced/`);
    expect(first.stdout.split('\n').filter((l) => l.startsWith('upload:')).length, first.stdout).toBe(TREE_NAMES.length);
    expect(engineNames(B, 'synced/')).toEqual(TREE_NAMES.map((n) => `synced/${n}`));
    const second = await aws('s3', 'sync', '--no-progress', join(src, 'tree'), `s3://${B}/synced/`);
    expect(second.stdout.trim(), 'second sync should transfer nothing').toBe('');
  });

  s.step('mv moves an object (server-side copy, then delete) between awkward keys', async () => {
    await aws('s3', 'mv', '--only-show-errors', `s3://${B}/small +%.txt`, `s3://${B}/moved/sm all+%.txt`);
    expect(objectEtag(B, 'small +%.txt')).toBeUndefined();
    expect(objectEtag(B, 'moved/sm all+%.txt')).toBe(md5(small));
  });

  s.step('the native API lists what aws uploaded', async () => {
    const names = await nativeNames(s.user, B);
    expect(names).toEqual(engineNames(B));
    expect(names).toEqual(expect.arrayContaining(['big/big file.bin', 'moved/sm all+%.txt', ...TREE_NAMES.map((n) => `tree/${n}`)]));
  });

  s.step('rm --recursive empties the bucket', async () => {
    await aws('s3', 'rm', '--recursive', '--only-show-errors', `s3://${B}/`);
    expect(engineNames(B)).toEqual([]);
  });

  s.step('rb removes the bucket', async () => {
    const r = await aws('s3', 'rb', `s3://${B}`);
    expect(r.stdout).toContain(`remove_bucket: ${B}`);
    expect(bucketExists(B)).toBe(false);
  });
});

serverLogTest();
