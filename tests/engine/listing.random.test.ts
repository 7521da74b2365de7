/**
 * Randomized container listings checked against a tiny reference implementation of the Swift
 * listing rules (names compared by their UTF-8 bytes). The seed is printed; rerun a failure with
 * LISTING_SEED=<seed> npx vitest run tests/engine/listing.random.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CofferError } from '../../src-shared/errors.js';
import { Engine } from '../../src-main/engine/engine.js';
import type { ListParams } from '../../src-main/engine/ops/list-objects.js';
import type { VersionListParams } from '../../src-main/engine/ops/list-versions.js';
import { openStore, type TestStore } from './helpers.js';

const SEED = process.env.LISTING_SEED ? Number(process.env.LISTING_SEED) : (Date.now() ^ (process.pid << 16)) >>> 0;
console.log(`listing.random seed: ${SEED} (rerun with LISTING_SEED=${SEED})`);

/** mulberry32: small, fast, seeded. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rng = ReturnType<typeof prng>;

// ---------------------------------------------------------------------------------------------
// Names

const TOKENS = ['a', 'b', 'c', 'z', '0', '9', 'A', '~', '/', '/', '-', '.', 'é', '日', '😀', 'aa', 'é/', '日/', '//', '-.'] as const;
const DELIMITERS = ['/', '-', 'é', '日/', 'a', '//', '😀'] as const;

function segment(r: Rng): string {
  let s = '';
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) s += r.pick(TOKENS);
  return s;
}

/** Code point-wise cut (never splits a surrogate pair). */
function cut(s: string, r: Rng, allowFull = true): string {
  const cps = Array.from(s);
  const n = allowFull ? r.int(cps.length + 1) : r.int(cps.length);
  return cps.slice(0, n).join('');
}

function makeNames(r: Rng, target: number): string[] {
  const names = new Set<string>();
  const valid = (n: string) => n.length > 0 && Buffer.byteLength(n) <= 1024;
  const add = (n: string) => {
    if (valid(n)) names.add(n);
  };
  // A few folders reused many times, so prefixes have many members and real nesting.
  const folders: string[] = [];
  for (let i = 0; i < 25; i++) {
    let f = '';
    const depth = 1 + r.int(4);
    for (let d = 0; d < depth; d++) f += segment(r) + (r.chance(0.8) ? '/' : r.pick(['-', 'é', '日/', '//']));
    folders.push(f);
  }
  while (names.size < target) {
    const roll = r.next();
    if (roll < 0.45) {
      // folder + leaf, sometimes deeper
      let n = r.pick(folders) + segment(r);
      while (r.chance(0.3)) n += '/' + segment(r);
      add(n);
    } else if (roll < 0.65) {
      // free-form
      let n = '';
      const k = 1 + r.int(6);
      for (let i = 0; i < k; i++) n += r.pick(TOKENS);
      add(n);
    } else if (roll < 0.8 && names.size > 0) {
      // a prefix of an existing name (so names are prefixes of others)
      add(cut(r.pick([...names].slice(-50)), r));
    } else if (roll < 0.9 && names.size > 0) {
      // an existing name ending in a delimiter, or extended by one
      const base = r.pick([...names].slice(-50));
      add(base + r.pick(['/', '-', 'é', '日/', '//', 'a']));
    } else {
      // deep nesting
      let n = '';
      const depth = 3 + r.int(8);
      for (let d = 0; d < depth; d++) n += segment(r) + '/';
      if (r.chance(0.7)) n += segment(r);
      add(n);
    }
  }
  return [...names];
}

// ---------------------------------------------------------------------------------------------
// Reference implementation

interface Named {
  s: string;
  b: Buffer;
}
type Entry = { kind: 'object'; name: string } | { kind: 'prefix'; prefix: string };
interface Page {
  entries: Entry[];
  truncated: boolean;
  nextMarker?: string;
}

const cmp = (a: Buffer, b: Buffer) => Buffer.compare(a, b);
const startsWith = (b: Buffer, p: Buffer) => b.length >= p.length && b.compare(p, 0, p.length, 0, p.length) === 0;

/** Index of the first name >= key (names sorted ascending). */
function lowerBound(sortedAsc: Named[], key: Buffer): number {
  let lo = 0;
  let hi = sortedAsc.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(sortedAsc[mid]!.b, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function reference(sortedAsc: Named[], p: ListParams): Page {
  let prefixStr = p.prefix ?? '';
  let delimiterStr = p.delimiter || undefined;
  let skipExact: Buffer | undefined;
  if (p.path !== undefined) {
    prefixStr = p.path === '' || p.path.endsWith('/') ? p.path : `${p.path}/`;
    delimiterStr = '/';
    skipExact = Buffer.from(prefixStr);
  }
  const prefix = Buffer.from(prefixStr);
  const delimiter = delimiterStr === undefined ? undefined : Buffer.from(delimiterStr);
  const marker = p.marker === undefined ? undefined : Buffer.from(p.marker);
  const endMarker = p.endMarker === undefined ? undefined : Buffer.from(p.endMarker);
  // Names starting with the prefix are one contiguous run: [prefix, prefix + 0xFF).
  const run = sortedAsc.slice(lowerBound(sortedAsc, prefix), lowerBound(sortedAsc, Buffer.concat([prefix, Buffer.of(0xff)])));
  const names = p.reverse ? run.reverse() : run;
  const all: Entry[] = [];
  let lastCp: string | undefined;
  for (const { s, b } of names) {
    if (!startsWith(b, prefix)) continue;
    if (marker && (p.reverse ? cmp(b, marker) >= 0 : cmp(b, marker) <= 0)) continue;
    if (endMarker && (p.reverse ? cmp(b, endMarker) <= 0 : cmp(b, endMarker) >= 0)) continue;
    if (delimiter) {
      const at = b.indexOf(delimiter, prefix.length);
      if (at >= 0) {
        const cpb = b.subarray(0, at + delimiter.length);
        const cp = cpb.toString('utf8');
        if (cp === lastCp) continue;
        lastCp = cp;
        if (marker && cpb.equals(marker)) continue;
        all.push({ kind: 'prefix', prefix: cp });
        continue;
      }
    }
    if (skipExact && b.equals(skipExact)) continue;
    all.push({ kind: 'object', name: s });
  }
  // limit 0: an empty page, reported as not truncated (the engine's choice, RGW's too).
  if (p.limit === 0) return { entries: [], truncated: false };
  const limit = p.limit ?? 10000;
  const entries = all.slice(0, limit);
  const truncated = all.length > limit;
  const last = entries.at(-1);
  const nextMarker = truncated && last ? (last.kind === 'object' ? last.name : last.prefix) : undefined;
  return { entries, truncated, ...(nextMarker !== undefined ? { nextMarker } : {}) };
}

// ---------------------------------------------------------------------------------------------

let s: TestStore;
const REF = () => Engine.ref(s.account, 'rand');
const VREF = () => Engine.ref(s.account, 'vers');
const r = prng(SEED);
let sorted: Named[] = [];
let insertMs = 0;

function simplify(page: { entries: Array<{ kind: 'object'; name: string; object: { name: string } } | { kind: 'prefix'; prefix: string }>; truncated: boolean; nextMarker?: string }): Page {
  return {
    entries: page.entries.map((e) => {
      if (e.kind === 'object') {
        if (e.object.name !== e.name) throw new Error(`entry ${e.name} carries object ${e.object.name}`);
        return { kind: 'object', name: e.name };
      }
      return { kind: 'prefix', prefix: e.prefix };
    }),
    truncated: page.truncated,
    ...(page.nextMarker !== undefined ? { nextMarker: page.nextMarker } : {}),
  };
}

const show = (p: ListParams) => JSON.stringify(p);

function randomString(): string {
  let x = '';
  const k = 1 + r.int(4);
  for (let i = 0; i < k; i++) x += r.pick(TOKENS);
  return x;
}

function randomNamePrefix(): string {
  return cut(r.pick(sorted).s, r);
}

function randomBoundary(): string | undefined {
  const roll = r.next();
  if (roll < 0.35) return r.pick(sorted).s;
  if (roll < 0.55) return randomNamePrefix() || undefined;
  if (roll < 0.7) return randomString();
  if (roll < 0.85) {
    // a common-prefix-like marker: a name cut right after a delimiter occurrence
    const n = r.pick(sorted).s;
    const d = r.pick(DELIMITERS);
    const at = n.indexOf(d);
    return at >= 0 ? n.slice(0, at + d.length) : n;
  }
  return r.pick(sorted).s + r.pick(['', 'a', '/', '\u0001', '😀']);
}

function randomParams(): ListParams {
  const p: ListParams = {};
  if (r.chance(0.15)) {
    // path mode
    const roll = r.next();
    if (roll < 0.15) p.path = '';
    else if (roll < 0.75) {
      const n = r.pick(sorted).s;
      const slashes = [...n.matchAll(/\//g)].map((m) => m.index);
      if (slashes.length === 0) p.path = n;
      else {
        const i = r.pick(slashes);
        p.path = r.chance(0.5) ? n.slice(0, i + 1) : n.slice(0, i);
      }
    } else p.path = randomNamePrefix();
  } else {
    const pr = r.next();
    if (pr < 0.35) p.prefix = undefined;
    else if (pr < 0.45) p.prefix = '';
    else if (pr < 0.85) p.prefix = randomNamePrefix();
    else p.prefix = randomString();
    if (p.prefix === undefined) delete p.prefix;
    if (r.chance(0.75)) p.delimiter = r.pick(DELIMITERS);
    else if (r.chance(0.3)) p.allowUnordered = true;
  }
  if (r.chance(0.55)) {
    const m = randomBoundary();
    if (m !== undefined) p.marker = m;
  }
  if (r.chance(0.3)) {
    const m = randomBoundary();
    if (m !== undefined) p.endMarker = m;
  }
  if (r.chance(0.75)) p.limit = r.int(51);
  if (r.chance(0.5)) p.reverse = true;
  return p;
}

beforeAll(async () => {
  s = await openStore({ noSync: true });
  await s.engine.createContainer(s.account, 'rand');
  const names = makeNames(r, 3000);
  const t0 = performance.now();
  const BATCH = 250;
  for (let i = 0; i < names.length; i += BATCH) {
    await Promise.all(names.slice(i, i + BATCH).map((n, j) => s.engine.putObject(REF(), n, `#${i + j}`)));
  }
  // Delete a few again: a deleted name must vanish from every listing.
  const doomed = names.filter(() => r.chance(0.05));
  await Promise.all(doomed.map((n) => s.engine.deleteObject(REF(), n)));
  insertMs = performance.now() - t0;
  const gone = new Set(doomed);
  sorted = names
    .filter((n) => !gone.has(n))
    .map((n) => ({ s: n, b: Buffer.from(n) }))
    .sort((a, b) => cmp(a.b, b.b));
  console.log(`inserted ${names.length} objects and deleted ${doomed.length} in ${insertMs.toFixed(0)} ms`);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('randomized container listing', () => {
  it('inserts a few thousand small objects in seconds', () => {
    expect(sorted.length).toBeGreaterThan(2500);
    expect(insertMs).toBeLessThan(20_000);
    expect(s.engine.getContainer(REF()).usage.objects).toBe(sorted.length);
  });

  it('lists everything in UTF-8 byte order', () => {
    const page = simplify(s.engine.listObjects(REF()));
    expect(page).toEqual(reference(sorted, {}));
    const rev = simplify(s.engine.listObjects(REF(), { reverse: true }));
    expect(rev).toEqual(reference(sorted, { reverse: true }));
  });

  it('matches the reference for thousands of random parameter combinations', () => {
    const N = 3000;
    let refMs = 0;
    let engMs = 0;
    let failures = 0;
    const firstFailures: string[] = [];
    for (let i = 0; i < N; i++) {
      const p = randomParams();
      const t0 = performance.now();
      const want = reference(sorted, p);
      const t1 = performance.now();
      refMs += t1 - t0;
      let got: Page;
      try {
        got = simplify(s.engine.listObjects(REF(), p));
        engMs += performance.now() - t1;
      } catch (err) {
        got = { entries: [], truncated: false, nextMarker: `THREW ${(err as Error).message}` };
      }
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        failures++;
        if (firstFailures.length < 3) firstFailures.push(`${show(p)}\n  want ${JSON.stringify(want).slice(0, 600)}\n  got  ${JSON.stringify(got).slice(0, 600)}`);
      }
    }
    console.log(`reference ${refMs.toFixed(0)} ms, engine ${engMs.toFixed(0)} ms`);
    if (failures) console.log(`seed ${SEED}: ${failures}/${N} mismatches; first:\n${firstFailures.join('\n')}`);
    expect(failures).toBe(0);
  });

  it('pages with nextMarker concatenate to the unlimited listing, forward and reverse', () => {
    const N = 500;
    let failures = 0;
    const firstFailures: string[] = [];
    for (let i = 0; i < N; i++) {
      const p = randomParams();
      p.reverse = i % 2 === 1;
      const pageSize = 1 + r.int(i % 3 === 0 ? 3 : 25);
      delete p.limit;
      const want = reference(sorted, p).entries;
      const got: Entry[] = [];
      let marker = p.marker;
      let problem: string | undefined;
      for (let pages = 0; ; pages++) {
        if (pages > want.length + 2) {
          problem = 'does not terminate';
          break;
        }
        const q: ListParams = { ...p, limit: pageSize };
        if (marker === undefined) delete q.marker;
        else q.marker = marker;
        const page = simplify(s.engine.listObjects(REF(), q));
        got.push(...page.entries);
        if (!page.truncated) break;
        if (page.entries.length !== pageSize) {
          problem = `truncated page with ${page.entries.length} of ${pageSize} entries`;
          break;
        }
        const last = page.entries.at(-1)!;
        if (page.nextMarker !== (last.kind === 'object' ? last.name : last.prefix)) {
          problem = `nextMarker ${page.nextMarker} is not the last entry`;
          break;
        }
        marker = page.nextMarker;
      }
      if (problem || JSON.stringify(got) !== JSON.stringify(want)) {
        failures++;
        if (firstFailures.length < 3) {
          firstFailures.push(`${show(p)} pageSize=${pageSize} ${problem ?? ''}\n  want ${JSON.stringify(want).slice(0, 500)}\n  got  ${JSON.stringify(got).slice(0, 500)}`);
        }
      }
    }
    if (failures) console.log(`seed ${SEED}: ${failures}/${N} paging mismatches; first:\n${firstFailures.join('\n')}`);
    expect(failures).toBe(0);
  });

  it('walks a whole delimiter listing one entry at a time in both directions', () => {
    for (const delimiter of DELIMITERS) {
      for (const reverse of [false, true]) {
        const want = reference(sorted, { delimiter, reverse }).entries;
        const got: Entry[] = [];
        let marker: string | undefined;
        for (let pages = 0; pages <= want.length + 1; pages++) {
          const page = simplify(s.engine.listObjects(REF(), { delimiter, reverse, limit: 1, ...(marker !== undefined ? { marker } : {}) }));
          got.push(...page.entries);
          if (!page.truncated) break;
          marker = page.nextMarker;
        }
        expect(got, `delimiter ${delimiter} reverse ${reverse}`).toEqual(want);
      }
    }
  });

  it('rejects the forbidden parameter combinations with InvalidArgument', () => {
    const bad: ListParams[] = [
      { delimiter: '/', path: 'a' },
      { delimiter: '/', allowUnordered: true },
      { prefix: 'a', path: 'a' },
      { prefix: '', path: '' },
      { path: 'a', allowUnordered: true },
      { delimiter: '-', path: '', allowUnordered: true },
    ];
    for (const p of bad) {
      let err: unknown;
      try {
        s.engine.listObjects(REF(), p);
      } catch (e) {
        err = e;
      }
      expect(err, show(p)).toBeInstanceOf(CofferError);
      expect((err as CofferError).code, show(p)).toBe('InvalidArgument');
    }
    // allowUnordered alone (or with a prefix) is fine.
    expect(() => s.engine.listObjects(REF(), { allowUnordered: true, prefix: 'a' })).not.toThrow();
  });

  it('does not show a common prefix whose only members have expired (X-Delete-At passed)', async () => {
    const ref = Engine.ref(s.account, 'expiring');
    await s.engine.createContainer(s.account, 'expiring');
    const deleteAt = Math.floor(Date.now() / 1000) + 1;
    await s.engine.putObject(ref, 'gone/x', 'x', { deleteAt });
    await s.engine.putObject(ref, 'kept', 'k');
    expect(simplify(s.engine.listObjects(ref, { delimiter: '/' })).entries).toEqual([
      { kind: 'prefix', prefix: 'gone/' },
      { kind: 'object', name: 'kept' },
    ]);
    while (Date.now() <= deleteAt * 1000 + 20) await new Promise((res) => setTimeout(res, 50));
    // The object itself is hidden from listings once expired...
    expect(simplify(s.engine.listObjects(ref)).entries).toEqual([{ kind: 'object', name: 'kept' }]);
    expect(simplify(s.engine.listObjects(ref, { prefix: 'gone/', delimiter: '/' })).entries).toEqual([]);
    // ...so its folder must not be listed either (it would lead to an empty listing).
    expect(simplify(s.engine.listObjects(ref, { delimiter: '/' })).entries).toEqual([{ kind: 'object', name: 'kept' }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Versions

type VEntry = { kind: 'version'; name: string; versionId: string | null; deleteMarker: boolean; isLatest: boolean } | { kind: 'prefix'; prefix: string };

describe('randomized version listing', () => {
  /** name -> versions newest first (as the engine reported them when written). */
  const model = new Map<string, { versionId: string | null; deleteMarker: boolean }[]>();
  let vnames: Named[] = [];

  beforeAll(async () => {
    await s.engine.createContainer(s.account, 'vers');
    await s.engine.updateContainer(VREF(), { versioning: 'enabled' });
    const pool = new Set<string>();
    while (pool.size < 220) pool.add(r.pick(sorted).s);
    const names = [...pool];
    // Several rounds; within a round each name gets at most one operation, so the model's
    // order is the engine's order.
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        names.map(async (n) => {
          const vs = model.get(n) ?? [];
          model.set(n, vs);
          const roll = r.next();
          if (round === 0 || roll < 0.45) {
            const info = await s.engine.putObject(VREF(), n, `${n}@${round}`);
            vs.unshift({ versionId: info.versionId, deleteMarker: false });
          } else if (roll < 0.65) {
            const d = await s.engine.deleteObject(VREF(), n);
            expect(d.deleteMarker).toBe(true);
            vs.unshift({ versionId: d.versionId, deleteMarker: true });
          } else if (roll < 0.72 && vs.length > 1) {
            // delete one specific version (a marker or an object version)
            const i = r.int(vs.length);
            await s.engine.deleteObject(VREF(), n, { versionId: vs[i]!.versionId ?? 'null' });
            vs.splice(i, 1);
          }
        }),
      );
    }
    for (const [n, vs] of model) if (vs.length === 0) model.delete(n);
    vnames = [...model.keys()].map((n) => ({ s: n, b: Buffer.from(n) })).sort((a, b) => cmp(a.b, b.b));
  }, 60_000);

  function expected(p: { prefix?: string; delimiter?: string }): VEntry[] {
    const prefix = Buffer.from(p.prefix ?? '');
    const delimiter = p.delimiter ? Buffer.from(p.delimiter) : undefined;
    const out: VEntry[] = [];
    let lastCp: string | undefined;
    for (const { s: n, b } of vnames) {
      if (!startsWith(b, prefix)) continue;
      if (delimiter) {
        const at = b.indexOf(delimiter, prefix.length);
        if (at >= 0) {
          const cp = b.subarray(0, at + delimiter.length).toString('utf8');
          if (cp !== lastCp) out.push({ kind: 'prefix', prefix: cp });
          lastCp = cp;
          continue;
        }
      }
      model.get(n)!.forEach((v, i) => out.push({ kind: 'version', name: n, versionId: v.versionId, deleteMarker: v.deleteMarker, isLatest: i === 0 }));
    }
    return out;
  }

  const simplifyV = (entries: ReturnType<Engine['listVersions']>['entries']): VEntry[] =>
    entries.map((e) =>
      e.kind === 'prefix'
        ? { kind: 'prefix', prefix: e.prefix }
        : { kind: 'version', name: e.name, versionId: e.version.versionId, deleteMarker: e.version.deleteMarker, isLatest: e.version.isLatest },
    );

  function walk(p: VersionListParams, pageSize: number): { got: VEntry[]; problem?: string } {
    const got: VEntry[] = [];
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    const maxPages = 5000;
    for (let pages = 0; pages < maxPages; pages++) {
      const q: VersionListParams = { ...p, limit: pageSize };
      if (keyMarker !== undefined) q.keyMarker = keyMarker;
      if (versionIdMarker !== undefined) q.versionIdMarker = versionIdMarker;
      const page = s.engine.listVersions(VREF(), q);
      got.push(...simplifyV(page.entries));
      if (!page.truncated) return { got };
      if (page.entries.length !== pageSize) return { got, problem: `truncated page with ${page.entries.length} of ${pageSize}` };
      if (got.length > 100_000) return { got, problem: 'runaway listing (more than 100000 entries)' };
      keyMarker = page.nextKeyMarker;
      versionIdMarker = page.nextVersionIdMarker;
    }
    return { got, problem: 'does not terminate' };
  }

  it('one big listing holds every version, by name then newest first, one latest per name', () => {
    const want = expected({});
    expect(want.length).toBeGreaterThan(300);
    const page = s.engine.listVersions(VREF(), { limit: 10000 });
    const got = simplifyV(page.entries);
    // Per-name invariants first (clearer failures), then the exact listing.
    const perName = new Map<string, VEntry[]>();
    for (const e of got) if (e.kind === 'version') perName.set(e.name, [...(perName.get(e.name) ?? []), e]);
    for (const [n, vs] of perName) {
      expect(vs.filter((v) => v.kind === 'version' && v.isLatest).length, `isLatest count of ${n}`).toBe(1);
      expect(vs.length, `version count of ${n}`).toBe(model.get(n)?.length);
    }
    expect(page.truncated).toBe(false);
    expect(got).toEqual(want);
  });

  it('pages with keyMarker/versionIdMarker (limits 1..7) concatenate to the whole listing', () => {
    const want = expected({});
    for (let pageSize = 1; pageSize <= 7; pageSize++) {
      const { got, problem } = walk({}, pageSize);
      expect(problem, `page size ${pageSize}`).toBeUndefined();
      expect(got, `page size ${pageSize}`).toEqual(want);
    }
  });

  it('pages with a prefix and a delimiter too', () => {
    for (let i = 0; i < 40; i++) {
      const p: VersionListParams = {};
      if (r.chance(0.7)) p.prefix = cut(r.pick(vnames).s, r);
      if (r.chance(0.7)) p.delimiter = r.pick(DELIMITERS);
      const want = expected(p);
      const pageSize = 1 + r.int(7);
      const { got, problem } = walk(p, pageSize);
      expect(problem, `${JSON.stringify(p)} page size ${pageSize}`).toBeUndefined();
      expect(got, `${JSON.stringify(p)} page size ${pageSize}`).toEqual(want);
    }
  });
});
