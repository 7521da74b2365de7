/**
 * Listings given markers, end markers and prefixes longer than any name (1024 bytes): the engine
 * cuts them to bounds that fit an index key, and must still select exactly what a plain filter
 * over all names selects (names compared as UTF-8 bytes). Names sit near the limit and share
 * long prefixes with the markers, and the cut often splits a multi-byte character.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { openStore, type TestStore } from './helpers.js';

let s: TestStore;
const ref = () => Engine.ref(s.account, 'long');
const B = (x: string) => Buffer.from(x, 'utf8');
const cmp = (a: string, b: string) => Buffer.compare(B(a), B(b));

/** mulberry32, with a fixed seed: the cases are the same on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}
const r = prng(22);

const STEM = 'p/'.repeat(498); // 996 bytes
const TAIL = ['a', 'b', '/', 'é', '😀', '~'] as const;
const grow = (base: string, maxBytes: number) => {
  let out = base;
  for (;;) {
    const next = out + r.pick(TAIL);
    if (Buffer.byteLength(next) > maxBytes) return out;
    out = next;
    if (r.int(40) === 0) return out;
  }
};

// Names of exactly 1024 bytes, ending in 1-, 2- and 4-byte characters.
const NAMES = new Set<string>(['a', 'p', 'p/', 'q', STEM, `${STEM}a`, `${STEM}${'a'.repeat(28)}`, `${STEM}${'é'.repeat(14)}`, `${STEM}${'😀'.repeat(7)}`]);
while (NAMES.size < 90) NAMES.add(grow(`${STEM}${r.pick(TAIL)}`, 1024 - r.int(3)));
for (let i = 0; i < 10; i++) NAMES.add(grow(`${STEM}a${'b'.repeat(20)}`, 1024));
const SORTED = [...NAMES].sort(cmp);

/** Past lmdb's key limit as well (1978 bytes), where an uncut bound used to fail outright. */
const pastKeyLimit = () => `${longString()}${'~'.repeat(1000)}`;

/** A string past 1024 bytes that starts like a stored name (or like the stem). */
function longString(): string {
  const base = r.int(4) === 0 ? STEM : r.pick(SORTED);
  let out = base;
  while (Buffer.byteLength(out) <= 1024 + r.int(3)) out += r.pick(TAIL);
  return r.int(5) === 0 ? out + 'z'.repeat(r.int(2000)) : out;
}

interface Q {
  prefix?: string;
  marker?: string;
  endMarker?: string;
  delimiter?: string;
  reverse?: boolean;
}

/** Swift's rules over the whole name list: filter, roll up by delimiter, order. */
function expected(q: Q): string[] {
  const prefix = q.prefix ?? '';
  const names = SORTED.filter((n) => B(n).subarray(0, B(prefix).length).equals(B(prefix)))
    .filter((n) => q.marker === undefined || (q.reverse ? cmp(n, q.marker) < 0 : cmp(n, q.marker) > 0))
    .filter((n) => q.endMarker === undefined || (q.reverse ? cmp(n, q.endMarker) > 0 : cmp(n, q.endMarker) < 0));
  if (q.reverse) names.reverse();
  const out: string[] = [];
  for (const n of names) {
    const at = q.delimiter ? n.indexOf(q.delimiter, prefix.length) : -1;
    const entry = at >= 0 ? `[${n.slice(0, at + q.delimiter!.length)}]` : n;
    if (out.at(-1) !== entry && !(at >= 0 && !q.reverse && entry === `[${q.marker}]`)) out.push(entry);
  }
  return out;
}

const list = (q: Q) =>
  s.engine.listObjects(ref(), { ...q, limit: 10000 }).entries.map((e) => (e.kind === 'object' ? e.name : `[${e.prefix}]`));

beforeAll(async () => {
  s = await openStore({ noSync: true });
  await s.engine.createContainer(s.account, 'long');
  for (const n of SORTED) await s.engine.putObject(ref(), n, 'x');
});
afterAll(() => s.close());

describe('listings with bounds past the longest name', () => {
  it('a marker or end marker past 1024 bytes selects what the filter selects, forward and reverse', () => {
    for (let i = 0; i < 300; i++) {
      const q: Q = { reverse: r.int(2) === 0 };
      const kind = r.int(3);
      if (kind !== 1) q.marker = longString();
      if (kind !== 0) q.endMarker = r.int(3) === 0 ? r.pick(SORTED) : longString();
      if (r.int(3) === 0) q.delimiter = r.pick(['/', 'é', 'b']);
      if (r.int(4) === 0) q.prefix = STEM.slice(0, r.int(STEM.length));
      expect(list(q), JSON.stringify({ ...q, marker: q.marker?.length, endMarker: q.endMarker?.length })).toEqual(expected(q));
    }
  });

  it('so do pages after such a marker, in both directions, and listings of versions and unfinished uploads', async () => {
    for (const reverse of [false, true]) {
      const q: Q = reverse ? { reverse, marker: pastKeyLimit() } : { marker: pastKeyLimit(), endMarker: `${STEM}~${pastKeyLimit()}` };
      const got: string[] = [];
      let marker = q.marker;
      for (;;) {
        const page = s.engine.listObjects(ref(), { ...q, marker, limit: 7 });
        got.push(...page.entries.map((e) => (e.kind === 'object' ? e.name : e.prefix)));
        if (!page.truncated) break;
        marker = page.nextMarker;
      }
      expect(got).toEqual(expected(q));
    }
    const uploaded = SORTED.filter((_, i) => i % 9 === 0);
    for (const n of uploaded) await s.engine.createUpload(ref(), n);
    for (let i = 0; i < 40; i++) {
      const keyMarker = i % 2 ? longString() : pastKeyLimit();
      const after = SORTED.filter((n) => cmp(n, keyMarker) > 0);
      const versions = s.engine.listVersions(ref(), { keyMarker, versionIdMarker: 'null', limit: 10000 });
      expect(versions.entries.map((e) => (e.kind === 'version' ? e.name : e.prefix))).toEqual(after);
      // S3 skips a common prefix the key marker lies in: it was listed on the page before.
      const delimited = s.engine.listVersions(ref(), { keyMarker, delimiter: '/', prefix: 'p/', limit: 10000 });
      const inMarker = (e: string) => e.startsWith('[') && keyMarker.startsWith(e.slice(1, -1));
      const wanted = expected({ marker: keyMarker, delimiter: '/', prefix: 'p/' }).filter((e) => !inMarker(e));
      expect(delimited.entries.map((e) => (e.kind === 'version' ? e.name : `[${e.prefix}]`))).toEqual(wanted);
      const uploads = s.engine.listUploads(ref(), { keyMarker, uploadIdMarker: 'z' });
      expect(uploads.uploads.map((u) => u.name)).toEqual(uploaded.filter((n) => cmp(n, keyMarker) > 0));
    }
  });

  it('a marker that is a stored name plus more bytes lists from just after that name', () => {
    const name = `${STEM}${'é'.repeat(14)}`;
    const marker = `${name}${'a'.repeat(2000)}`;
    expect(list({ marker })).toEqual(expected({ marker }));
    expect(list({ marker })).not.toContain(name);
    expect(list({ endMarker: marker })).toContain(name);
    expect(list({ reverse: true, marker })).toContain(name);
    expect(list({ reverse: true, endMarker: marker })).not.toContain(name);
  });


  it('a prefix or path past 1024 bytes matches nothing', () => {
    for (const prefix of [`${STEM}${'a'.repeat(29)}`, longString(), 'x'.repeat(20_000)]) {
      expect(s.engine.listObjects(ref(), { prefix })).toEqual({ entries: [], truncated: false });
      expect(s.engine.listObjects(ref(), { path: prefix })).toEqual({ entries: [], truncated: false });
      expect(s.engine.listObjects(ref(), { prefix, reverse: true, delimiter: '/' })).toEqual({ entries: [], truncated: false });
      expect(s.engine.listVersions(ref(), { prefix })).toEqual({ entries: [], truncated: false });
      expect(s.engine.listUploads(ref(), { prefix })).toEqual({ uploads: [], prefixes: [], truncated: false });
    }
  });

});
