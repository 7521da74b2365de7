// The files the real-S3-client tests upload and compare: a tree with awkward names, and byte checks.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';

/** Files of the tree the clients copy: awkward names, nested folders, distinct contents. */
export const TREE: Record<string, string> = {
  'dir one/file with spaces.txt': 'spaces\n',
  'dir one/sub+dir/plus+name.txt': 'plus\n',
  'pct%dir/100%.txt': 'percent\n',
  'pct%dir/%41 not an A.txt': 'percent-hex\n',
  'ünïcødé/日本語 ファイル.txt': 'unicode\n',
  'a/b/c/d/deep.txt': 'deep\n',
  "weird &=;,'!()~@$[]#?.txt": 'weird\n',
};
export const TREE_NAMES = Object.keys(TREE).sort();

export const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

/** Relative paths of the files under dir, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** Asserts that dir holds exactly the TREE files with their contents. */
export function expectTree(dir: string, what: string): void {
  expect(filesUnder(dir), `${what}: file names`).toEqual(TREE_NAMES);
  for (const name of TREE_NAMES) expect(readFileSync(join(dir, name), 'utf8'), `${what}: ${name}`).toBe(TREE[name]);
}

export function expectSameBytes(path: string, expected: Buffer, what: string): void {
  expect(existsSync(path), `${what}: ${path} exists`).toBe(true);
  const got = readFileSync(path);
  expect(got.length, `${what}: size`).toBe(expected.length);
  expect(md5(got), `${what}: MD5`).toBe(md5(expected));
}
