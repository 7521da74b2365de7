// Real client: rclone's S3 backend (provider Other, configured entirely by flags) against the
// compatible API (see clients-kit.ts).
import { cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { baseEnv, big, bigFile, ok, RCLONE, root, scenario, serverLogTest, small, smallFile, src, url, useClientsServer } from './clients-kit.js';
import { expectSameBytes, md5, TREE, TREE_NAMES } from './clients-tree.js';
import { bucketExists, engineNames, nativeNames, objectEtag } from './clients-views.js';

useClientsServer();

describe('rclone (S3 backend)', () => {
  const B = 'rclone-bucket';
  const s = scenario('rclone', 'rclone');
  const out = () => join(root, 'out-rclone');
  const local = () => join(root, 'rclone-src');
  const flags = () => [
    '--config', join(s.user.home, 'rclone.conf'),
    '--s3-provider', 'Other',
    '--s3-endpoint', url,
    '--s3-force-path-style',
    '--s3-env-auth=false',
    '--s3-access-key-id', s.user.accessKey,
    '--s3-secret-access-key', s.user.secretKey,
    '--s3-region', 'us-east-1',
    '--retries', '1',
    '--low-level-retries', '1',
    '--contimeout', '5s',
    '--timeout', '30s',
    '--ask-password=false',
  ];
  const rclone = (...args: string[]) => {
    if (!existsSync(join(s.user.home, 'rclone.conf'))) writeFileSync(join(s.user.home, 'rclone.conf'), '');
    return ok(RCLONE, [...args, ...flags()], baseEnv(s.user));
  };
  const lines = (stdout: string) => stdout.split('\n').filter(Boolean);

  s.step('mkdir creates a bucket; rmdir removes an empty one', async () => {
    await rclone('mkdir', ':s3:rclone-empty');
    expect(bucketExists('rclone-empty')).toBe(true);
    await rclone('rmdir', ':s3:rclone-empty');
    expect(bucketExists('rclone-empty')).toBe(false);
    await rclone('mkdir', `:s3:${B}`);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('copy uploads a tree with awkward and unicode names', async () => {
    cpSync(join(src, 'tree'), local(), { recursive: true });
    await rclone('copy', local(), `:s3:${B}/tree`);
    expect(engineNames(B, 'tree/')).toEqual(TREE_NAMES.map((n) => `tree/${n}`));
  });

  s.step('ls lists sizes and names', async () => {
    const r = await rclone('ls', `:s3:${B}/tree`);
    const got = lines(r.stdout).map((l) => /^\s*(\d+) (.*)$/.exec(l)!.slice(1)).map(([size, name]) => [name, Number(size)]);
    expect(got.sort()).toEqual(TREE_NAMES.map((n) => [n, Buffer.byteLength(TREE[n]!)]).sort());
  });

  s.step('lsf -R lists files, --dirs-only lists the folders', async () => {
    const files = await rclone('lsf', '-R', '--files-only', `:s3:${B}/tree`);
    expect(lines(files.stdout).sort()).toEqual(TREE_NAMES);
    const dirs = await rclone('lsf', '-R', '--dirs-only', `:s3:${B}/tree`);
    expect(lines(dirs.stdout).sort()).toEqual(['a/', 'a/b/', 'a/b/c/', 'a/b/c/d/', 'dir one/', 'dir one/sub+dir/', 'pct%dir/', 'ünïcødé/'].sort());
  });

  s.step('check reports 0 differences', async () => {
    const r = await rclone('check', local(), `:s3:${B}/tree`);
    expect(r.stderr).toContain('0 differences found');
    expect(r.stderr).toContain(`${TREE_NAMES.length} matching files`);
  });

  s.step('md5sum matches the local files', async () => {
    const r = await rclone('md5sum', `:s3:${B}/tree`);
    const got = Object.fromEntries(lines(r.stdout).map((l) => [l.slice(34), l.slice(0, 32)]));
    expect(got).toEqual(Object.fromEntries(TREE_NAMES.map((n) => [n, md5(TREE[n]!)])));
  });

  s.step('sync mirrors additions, changes and deletions; check then finds 0 differences', async () => {
    writeFileSync(join(local(), 'added ünï+.txt'), 'added\n');
    writeFileSync(join(local(), 'dir one/file with spaces.txt'), 'changed contents\n');
    rmSync(join(local(), 'a/b/c/d/deep.txt'));
    await rclone('sync', local(), `:s3:${B}/tree`);
    const expected = [...TREE_NAMES.filter((n) => n !== 'a/b/c/d/deep.txt'), 'added ünï+.txt'].sort();
    expect(engineNames(B, 'tree/').map((n) => n.slice(5)).sort()).toEqual(expected);
    expect(objectEtag(B, 'tree/dir one/file with spaces.txt')).toBe(md5('changed contents\n'));
    const r = await rclone('check', local(), `:s3:${B}/tree`);
    expect(r.stderr).toContain('0 differences found');
  });

  s.step('the native API lists what rclone uploaded', async () => {
    expect(await nativeNames(s.user, B, 'tree/')).toEqual(engineNames(B, 'tree/'));
  });

  s.step('a 20 MiB file goes up in parts (5 MiB chunks) and comes back byte-identical', async () => {
    await rclone('copyto', bigFile, `:s3:${B}/big/ビッグ file.bin`, '--s3-upload-cutoff', '5M', '--s3-chunk-size', '5M');
    expect(objectEtag(B, 'big/ビッグ file.bin')).toMatch(/^[0-9a-f]{32}-4$/);
    await rclone('copyto', `:s3:${B}/big/ビッグ file.bin`, join(out(), 'big.bin'));
    expectSameBytes(join(out(), 'big.bin'), big, 'rclone download');
  });

  s.step('copyto and lsf handle a unicode name', async () => {
    await rclone('copyto', smallFile, `:s3:${B}/ünïcødé/ファイル 名 +%.txt`);
    const r = await rclone('lsf', `:s3:${B}/ünïcødé`);
    expect(lines(r.stdout)).toEqual(['ファイル 名 +%.txt']);
    await rclone('copyto', `:s3:${B}/ünïcødé/ファイル 名 +%.txt`, join(out(), 'unicode.txt'));
    expectSameBytes(join(out(), 'unicode.txt'), small, 'rclone unicode download');
  });

  s.step('copyto / moveto between two remote paths copy on the server', async () => {
    await rclone('copyto', `:s3:${B}/ünïcødé/ファイル 名 +%.txt`, `:s3:${B}/copies/copy '&+%.txt`);
    expect(objectEtag(B, "copies/copy '&+%.txt")).toBe(md5(small));
    await rclone('moveto', `:s3:${B}/copies/copy '&+%.txt`, `:s3:${B}/copies/moved ü.txt`);
    expect(engineNames(B, 'copies/')).toEqual(['copies/moved ü.txt']);
    expect(objectEtag(B, 'copies/moved ü.txt')).toBe(md5(small));
  });

  s.step('delete removes the files below a path', async () => {
    await rclone('delete', `:s3:${B}/tree/dir one`);
    expect(engineNames(B, 'tree/dir one/')).toEqual([]);
    expect(engineNames(B, 'tree/').length).toBeGreaterThan(0);
  });

  s.step('purge removes everything and the bucket', async () => {
    await rclone('purge', `:s3:${B}`);
    expect(bucketExists(B)).toBe(false);
  });
});

serverLogTest();
