/**
 * Engine benchmark: `npm run bench`. A measurement, not a test: it prints ONE JSON object on
 * stdout (progress on stderr) with the figures and, for every performance goal, a ratio computed
 * from figures measured in this same run next to its target. No assertions.
 *
 * Sections (env BENCH_SECTIONS=small,large,listing picks a subset; BENCH_LIST_N scales the
 * listing container down for a quick try; defaults are the real run):
 *   small   - 10,000 x 4 KiB put then get at concurrency 16, inline (default) and blob files (inlineMax 0)
 *   large   - one 256 MiB object in 1 MiB chunks vs raw FileHandle write+fsync / read / in-memory MD5
 *   listing - 1,000,000-object container (900k under big/): fill rate, then 1,000-entry delimiter
 *             pages vs the same page from 1,000-object containers
 *
 * Engine options are the defaults (fsync on) except where a figure says otherwise. Data lives in a
 * temp directory under os.tmpdir(), removed at the end.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../../src-main/engine/engine.js';
import type { EngineOptions } from '../../src-main/engine/context.js';
import type { ContainerRef } from '../../src-main/engine/types.js';
import type { ListPage, ListParams } from '../../src-main/engine/ops/list-objects.js';

const MiB = 1024 * 1024;
const ACCOUNT = 'bench$bencher';
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? 'small,large,listing').split(',').map((s) => s.trim()));

const runStart = performance.now();
const log = (msg: string) => process.stderr.write(`[bench +${((performance.now() - runStart) / 1000).toFixed(1)}s] ${msg}\n`);

const root = mkdtempSync(join(os.tmpdir(), 'coffer-bench-'));
let dirCount = 0;
const freshDir = (label: string) => join(root, `${++dirCount}-${label}`);

// ---------------------------------------------------------------- helpers

const round = (x: number, digits = 2) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface OpStats {
  ops: number;
  seconds: number;
  opsPerSec: number;
  p50ms: number;
  p99ms: number;
  maxMs: number;
  /** CPU time of this whole process (all its threads) per operation: less sensitive to other load on the machine than wall time. */
  cpuUsPerOp: number;
}

/** Runs `fn(0..n-1)` with `concurrency` async workers; per-call latency and overall rate. */
async function pool(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<OpStats> {
  const lat = new Float64Array(n);
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const s = performance.now();
      await fn(i);
      lat[i] = performance.now() - s;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const sorted = Array.from(lat).sort((a, b) => a - b);
  return {
    ops: n,
    seconds: round(seconds, 3),
    opsPerSec: round(n / seconds, 1),
    p50ms: round(percentile(sorted, 50), 3),
    p99ms: round(percentile(sorted, 99), 3),
    maxMs: round(sorted.at(-1)!, 3),
    cpuUsPerOp: round((cpu.user + cpu.system) / n, 1),
  };
}

async function openEngine(dir: string, options: Partial<EngineOptions> = {}): Promise<Engine> {
  const engine = await Engine.open(dir, options);
  if (!engine.findAccount(ACCOUNT)) await engine.createAccount({ id: ACCOUNT, displayName: 'Bench' });
  return engine;
}

async function drain(body: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of body) n += c.length;
  return n;
}

const ratios: { name: string; value: number; target: string; note?: string }[] = [];
function ratio(name: string, num: number, den: number, target: string, note?: string): number {
  const value = round(num / den, 3);
  ratios.push({ name, value, target, ...(note ? { note } : {}) });
  return value;
}

// ---------------------------------------------------------------- 1. small objects

async function benchSmall() {
  const N = 10_000;
  const SIZE = 4096;
  const CONC = 16;
  const template = randomBytes(SIZE);
  const bodyOf = (i: number) => {
    const b = Buffer.from(template);
    b.writeUInt32BE(i, 0);
    return b;
  };
  const nameOf = (i: number) => `obj/${String(i).padStart(6, '0')}`;

  const run = async (label: string, options: Partial<EngineOptions>) => {
    const engine = await openEngine(freshDir(`small-${label}`), options);
    await engine.createContainer(ACCOUNT, 'small');
    const ref = Engine.ref(ACCOUNT, 'small');
    log(`small/${label}: ${N} puts of ${SIZE} B at concurrency ${CONC}`);
    const put = await pool(N, CONC, (i) => engine.putObject(ref, nameOf(i), bodyOf(i), { size: SIZE }));
    log(`small/${label}: put ${put.opsPerSec} ops/s; gets`);
    let bytesRead = 0;
    const get = await pool(N, CONC, async (i) => {
      const { body } = await engine.getObject(ref, nameOf(i));
      const n = await drain(body);
      bytesRead += n;
    });
    log(`small/${label}: get ${get.opsPerSec} ops/s`);
    await engine.close();
    return { options, put, get, bytesRead };
  };

  const inline = await run('inline', {});
  const file = await run('file', { inlineMax: 0 });
  ratio('small.put inline/file ops/s', inline.put.opsPerSec, file.put.opsPerSec, '> 1 (inline storage should pay)');
  ratio('small.get inline/file ops/s', inline.get.opsPerSec, file.get.opsPerSec, '>= 1');
  return {
    objects: N,
    objectBytes: SIZE,
    concurrency: CONC,
    inline: { note: 'default options (inlineMax 64 KiB): 4 KiB bodies live in the index', ...inline },
    file: { note: 'inlineMax 0: every object a blob file (fsync file + dir + 2 index commits)', ...file },
  };
}

// ---------------------------------------------------------------- 2. one large object

async function benchLarge() {
  const TOTAL_MIB = 256;
  const CHUNK = MiB;
  const base = randomBytes(CHUNK);
  /** A fresh 1 MiB chunk each time (the base buffer with its first 8 bytes varied): a copy, so nothing downstream sees a reused buffer change. */
  const chunkAt = (i: number) => {
    const c = Buffer.allocUnsafe(CHUNK);
    base.copy(c);
    c.writeUInt32BE(i, 0);
    c.writeUInt32BE(i ^ 0x5a5a5a5a, 4);
    return c;
  };
  async function* source(): AsyncGenerator<Buffer> {
    for (let i = 0; i < TOTAL_MIB; i++) yield chunkAt(i);
  }
  const mibps = (ms: number) => round(TOTAL_MIB / (ms / 1000), 1);
  const dir = freshDir('large');
  const engine = await openEngine(dir);
  await engine.createContainer(ACCOUNT, 'large');
  const ref = Engine.ref(ACCOUNT, 'large');

  log('large: chunk source alone');
  let t = performance.now();
  let produced = 0;
  for await (const c of source()) produced += c.length;
  const sourceMs = performance.now() - t;

  log('large: in-memory MD5 (one 1 MiB buffer hashed 256 times: hashing alone, no chunk making)');
  t = performance.now();
  const h = createHash('md5');
  for (let i = 0; i < TOTAL_MIB; i++) h.update(base);
  h.digest('hex');
  const md5Ms = performance.now() - t;

  log('large: raw write + fsync');
  const rawPath = join(dir, 'raw.bin');
  t = performance.now();
  const fh = await open(rawPath, 'w');
  for (let i = 0; i < TOTAL_MIB; i++) {
    const c = chunkAt(i);
    let off = 0;
    while (off < c.length) off += (await fh.write(c, off, c.length - off)).bytesWritten;
  }
  await fh.sync();
  await fh.close();
  const rawWriteMs = performance.now() - t;

  log('large: engine put');
  t = performance.now();
  const info = await engine.putObject(ref, 'big.bin', source(), { size: TOTAL_MIB * CHUNK });
  const putMs = performance.now() - t;

  // Reads are short (page cache) and noisy: raw read and engine get alternate, 3 runs each, median kept.
  const rawReadOnce = async () => {
    const s0 = performance.now();
    const rh = await open(rawPath, 'r');
    const buf = Buffer.allocUnsafe(CHUNK);
    let n = 0;
    for (;;) {
      const { bytesRead } = await rh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    await rh.close();
    return { ms: performance.now() - s0, n };
  };
  const getOnce = async () => {
    const s0 = performance.now();
    const { body } = await engine.getObject(ref, 'big.bin');
    const n = await drain(body);
    return { ms: performance.now() - s0, n };
  };
  /** Node's own fs stream over the raw file (fresh buffer per chunk): the floor for any stream-based read. */
  const rawStreamOnce = async (highWaterMark: number) => {
    const s0 = performance.now();
    const rh = await open(rawPath, 'r');
    await drain(rh.createReadStream({ highWaterMark }));
    return performance.now() - s0;
  };
  const rawReadRuns: number[] = [];
  const rawStream256kRuns: number[] = [];
  const rawStream1mRuns: number[] = [];
  const getRuns: number[] = [];
  let rawRead = 0;
  let got = 0;
  for (let r = 0; r < 3; r++) {
    log(`large: raw read / engine get, run ${r + 1} of 3`);
    const a = await rawReadOnce();
    rawReadRuns.push(a.ms);
    rawRead = a.n;
    const b = await getOnce();
    getRuns.push(b.ms);
    got = b.n;
    rawStream256kRuns.push(await rawStreamOnce(256 * 1024));
    rawStream1mRuns.push(await rawStreamOnce(MiB));
  }
  const rawReadMs = median(rawReadRuns);
  const getMs = median(getRuns);

  log('large: engine get + MD5 of what is read (what a verifying client does)');
  t = performance.now();
  const h2 = createHash('md5');
  const { body: body2 } = await engine.getObject(ref, 'big.bin');
  for await (const c of body2) h2.update(c);
  const getMd5 = h2.digest('hex');
  const getHashMs = performance.now() - t;
  await engine.close();

  const putMiBps = mibps(putMs);
  const rawWriteMiBps = mibps(rawWriteMs);
  const md5MiBps = mibps(md5Ms);
  // What writing and hashing one after another (no overlap) would give at best.
  const serialBoundMiBps = round(1 / (1 / rawWriteMiBps + 1 / md5MiBps), 1);
  // A put must both hash and write every byte, so its ceiling is the slower of the two.
  ratio('large.put engine/min(raw write, MD5) MiB/s', putMiBps, Math.min(rawWriteMiBps, md5MiBps), '>= 0.8');
  ratio('large.put engine/raw write MiB/s', putMiBps, rawWriteMiBps, 'informational');
  ratio('large.get engine/raw read MiB/s', mibps(getMs), mibps(rawReadMs), 'informational',
    'raw read copies into one reused buffer; any stream that hands out fresh buffers is far below it');
  ratio('large.get engine/fs ReadStream 256 KiB MiB/s', mibps(getMs), mibps(median(rawStream256kRuns)), '>= 0.8',
    'the engine streams 1 MiB chunks through a Readable; ~1 means its get costs what Node streaming itself costs');
  ratio('large.put engine/serial(write+md5) bound', putMiBps, serialBoundMiBps, 'informational',
    '> 1 would mean hashing overlaps the writes; ~1 means they run one after the other');
  return {
    mib: TOTAL_MIB,
    chunkBytes: CHUNK,
    note: 'reads are served from the page cache (dropping it is not possible here); writes end with fsync; raw write and engine put both include making the chunks (see sourceMiBps); reads: median of 3 alternating runs; rawRead = FileHandle.read into one reused 1 MiB buffer, rawFsStream* = fs ReadStream (fresh buffer per chunk; the engine streams 256 KiB chunks)',
    sourceMiBps: mibps(sourceMs),
    sourceBytes: produced,
    md5InMemoryMiBps: md5MiBps,
    rawWriteFsyncMiBps: rawWriteMiBps,
    rawReadMiBps: mibps(rawReadMs),
    rawReadRunsMiBps: rawReadRuns.map(mibps),
    rawFsStream256KiBMiBps: mibps(median(rawStream256kRuns)),
    rawFsStream1MiBMiBps: mibps(median(rawStream1mRuns)),
    putMiBps,
    getMiBps: mibps(getMs),
    getRunsMiBps: getRuns.map(mibps),
    getWithMd5MiBps: mibps(getHashMs),
    serialWriteThenMd5BoundMiBps: serialBoundMiBps,
    etagMatchesGet: info.etag === getMd5,
    bytesRawRead: rawRead,
    bytesGot: got,
  };
}

// ---------------------------------------------------------------- 3. listing

/**
 * Layout of the big container (1,000,000 objects), in name order:
 *   a0000..a0009                10 plain names before big/
 *   big/000000000..big/000899999  900,000 under one prefix
 *   for i in 0..98: d%04d.00..d%04d.09 (10 plain names) then d%04d/x0000..x0999 (1,000 under a prefix)
 * so a root delimiter page is: 10 objects, big/, then ~91 x (10 objects + 1 prefix), truncated.
 * The reference containers hold 1,000 objects each:
 *   small-mixed: a0000..a0008, big/000000000, and for i in 0..98: d%04d.0..d%04d.8 + d%04d/x0000
 *                -> a root delimiter page of 1,000 entries (900 objects, 100 prefixes), same shape
 *   small-flat:  big/000000000..big/000000999 -> the prefix 'big/' page of 1,000 objects
 */
function bigLayout(scale: number): { names: (i: number) => string; total: number } {
  const big = Math.round(900_000 * scale);
  const perD = Math.max(1, Math.round(1000 * scale));
  const D = 99;
  const plainA = 10;
  const dGroup = 10 + perD;
  const total = plainA + big + D * dGroup;
  const names = (i: number) => {
    if (i < plainA) return `a${String(i).padStart(4, '0')}`;
    i -= plainA;
    if (i < big) return `big/${String(i).padStart(9, '0')}`;
    i -= big;
    const d = Math.floor(i / dGroup);
    const j = i % dGroup;
    const dn = `d${String(d).padStart(4, '0')}`;
    return j < 10 ? `${dn}.${String(j).padStart(2, '0')}` : `${dn}/x${String(j - 10).padStart(4, '0')}`;
  };
  return { names, total };
}

function smallMixedNames(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 9; i++) out.push(`a${String(i).padStart(4, '0')}`);
  out.push('big/000000000');
  for (let d = 0; d < 99; d++) {
    const dn = `d${String(d).padStart(4, '0')}`;
    for (let j = 0; j < 9; j++) out.push(`${dn}.${j}`);
    out.push(`${dn}/x0000`);
  }
  return out;
}

async function benchListing() {
  const scale = Number(process.env.BENCH_LIST_SCALE ?? 1);
  const { names, total } = bigLayout(scale);
  const BATCH = 4000;
  const EMPTY = Buffer.alloc(0);
  const dir = freshDir('listing');
  const FILL_BUDGET_S = 180;
  const CHECK = 50_000;

  let engine = await openEngine(dir);
  await engine.createContainer(ACCOUNT, 'big');
  await engine.createContainer(ACCOUNT, 'small-mixed');
  await engine.createContainer(ACCOUNT, 'small-flat');
  const bigRef = Engine.ref(ACCOUNT, 'big');
  const mixedRef = Engine.ref(ACCOUNT, 'small-mixed');
  const flatRef = Engine.ref(ACCOUNT, 'small-flat');

  const fillRange = async (e: Engine, ref: ContainerRef, from: number, to: number, nameAt: (i: number) => string) => {
    for (let s = from; s < to; s += BATCH) {
      const end = Math.min(to, s + BATCH);
      const ps: Promise<unknown>[] = [];
      for (let i = s; i < end; i++) ps.push(e.putObject(ref, nameAt(i), EMPTY, { size: 0 }));
      await Promise.all(ps);
      if (Math.floor(end / 100_000) !== Math.floor(s / 100_000)) log(`listing: filled ${end}/${total}`);
    }
  };

  // Reference containers first (fsync on, 1,000 objects each).
  const mixed = smallMixedNames();
  await fillRange(engine, mixedRef, 0, mixed.length, (i) => mixed[i]!);
  await fillRange(engine, flatRef, 0, 1000, (i) => `big/${String(i).padStart(9, '0')}`);

  // Fill the big container in name order (as a bulk import would), in steps of CHECK objects. While
  // on fsync, after each step project the whole fill from the last step's rate; past the budget,
  // reopen with noSync for the rest (the JSON says where the switch happened).
  log(`listing: filling ${total} objects, batches of ${BATCH}, fsync on while the projection fits ${FILL_BUDGET_S} s`);
  const fillStart = performance.now();
  const seg = { fsync: { objects: 0, seconds: 0 }, noSync: { objects: 0, seconds: 0 } };
  let mode: 'fsync' | 'noSync' = 'fsync';
  let switchedAt: number | undefined;
  let projectedFsyncS: number | undefined;
  const stepRates: number[] = [];
  for (let from = 0; from < total; from += CHECK) {
    const to = Math.min(total, from + CHECK);
    const t0 = performance.now();
    await fillRange(engine, bigRef, from, to, names);
    const dt = (performance.now() - t0) / 1000;
    seg[mode].objects += to - from;
    seg[mode].seconds += dt;
    stepRates.push(round((to - from) / dt, 0));
    if (mode === 'fsync' && to < total) {
      const elapsed = (performance.now() - fillStart) / 1000;
      projectedFsyncS = elapsed + (total - to) / ((to - from) / dt);
      if (projectedFsyncS > FILL_BUDGET_S) {
        log(`listing: fsync fill at ${((to - from) / dt).toFixed(0)} obj/s projects ${projectedFsyncS.toFixed(0)} s: reopening with noSync at ${to}`);
        await engine.close();
        engine = await openEngine(dir, { noSync: true });
        mode = 'noSync';
        switchedAt = to;
      }
    }
  }
  const fillSeconds = (performance.now() - fillStart) / 1000;
  // Reopen with defaults for the timings (after a noSync fill, close() has put everything on disk).
  await engine.close();
  const t = performance.now();
  engine = await openEngine(dir);
  const reopenMs = performance.now() - t;
  const mem = process.memoryUsage();
  const indexBytes = statSync(join(dir, 'index', 'data.mdb'), { throwIfNoEntry: false })?.size;
  const usage = engine.getContainer(bigRef).usage;

  const REPEAT = 20;
  const LIMIT = 1000;
  const describe = (page: ListPage, ms: number[], cpuMs: number[]) => {
    const prefixes = page.entries.filter((e) => e.kind === 'prefix').length;
    const first = page.entries[0];
    return {
      medianMs: round(median(ms), 3),
      medianCpuMs: round(median(cpuMs), 3),
      minMs: round(Math.min(...ms), 3),
      maxMs: round(Math.max(...ms), 3),
      entries: page.entries.length,
      objects: page.entries.length - prefixes,
      prefixes,
      truncated: page.truncated,
      first: first?.kind === 'prefix' ? first.prefix : first?.name,
      ...(page.nextMarker !== undefined ? { nextMarker: page.nextMarker } : {}),
    };
  };
  /** One untimed call each, then REPEAT rounds alternating big and small, so GC and drift hit both alike. */
  const timePair = (bigParams: ListParams, smallRef: ContainerRef, smallParams: ListParams) => {
    let bigPage = engine.listObjects(bigRef, bigParams);
    let smallPage = engine.listObjects(smallRef, smallParams);
    const bigMs: number[] = [];
    const smallMs: number[] = [];
    const bigCpu: number[] = [];
    const smallCpu: number[] = [];
    const cpuMsSince = (c: NodeJS.CpuUsage) => {
      const d = process.cpuUsage(c);
      return (d.user + d.system) / 1000;
    };
    for (let r = 0; r < REPEAT; r++) {
      let c0 = process.cpuUsage();
      let s0 = performance.now();
      bigPage = engine.listObjects(bigRef, bigParams);
      bigMs.push(performance.now() - s0);
      bigCpu.push(cpuMsSince(c0));
      c0 = process.cpuUsage();
      s0 = performance.now();
      smallPage = engine.listObjects(smallRef, smallParams);
      smallMs.push(performance.now() - s0);
      smallCpu.push(cpuMsSince(c0));
    }
    return {
      bigContainer: { container: 'big', params: bigParams, ...describe(bigPage, bigMs, bigCpu) },
      smallContainer: { container: smallRef.container, params: smallParams, ...describe(smallPage, smallMs, smallCpu) },
    };
  };
  const midMarker = `big/${String(Math.round(450_000 * scale)).padStart(9, '0')}`;
  const cases: Record<string, { big: ListParams; ref: ContainerRef; small: ListParams; what: string }> = {
    root: {
      what: '(a) root page, delimiter / (objects a*, prefix big/, then d* objects and prefixes)',
      big: { delimiter: '/', limit: LIMIT },
      ref: mixedRef,
      small: { delimiter: '/', limit: LIMIT },
    },
    bigPrefix: {
      what: "(b) prefix 'big/' (900,000 names under it in the big container), delimiter /",
      big: { delimiter: '/', prefix: 'big/', limit: LIMIT },
      ref: flatRef,
      small: { delimiter: '/', prefix: 'big/', limit: LIMIT },
    },
    rootFromMarkerBeforeBig: {
      what: "(c) root page from marker 'big.' (sorts just before 'big/'): big/ is rolled up and the walk must seek past its 900,000 names",
      big: { delimiter: '/', marker: 'big.', limit: LIMIT },
      ref: mixedRef,
      small: { delimiter: '/', marker: 'big.', limit: LIMIT },
    },
    bigPrefixFromMiddleMarker: {
      what: "extra: prefix 'big/' from a marker in the middle of its 900,000 names",
      big: { delimiter: '/', prefix: 'big/', marker: midMarker, limit: LIMIT },
      ref: flatRef,
      small: { delimiter: '/', prefix: 'big/', marker: 'big/000000000', limit: LIMIT },
    },
  };
  const pages: Record<string, unknown> = {};
  for (const [label, c] of Object.entries(cases)) {
    log(`listing: timing ${label}`);
    const pair = timePair(c.big, c.ref, c.small);
    pages[label] = { what: c.what, ...pair };
    ratio(`listing.${label} big/small page median ms`, pair.bigContainer.medianMs, pair.smallContainer.medianMs, '<= 2',
      'goal: near 1 (page cost independent of container size)');
    ratio(`listing.${label} big/small page median CPU ms`, pair.bigContainer.medianCpuMs, pair.smallContainer.medianCpuMs, '<= 2',
      'same pages, process CPU time instead of wall time (less sensitive to other load on the machine)');
  }
  await engine.close();

  return {
    objects: total,
    layout: '10 plain a*, 900,000 big/NNNNNNNNN, then 99 x (10 plain dNNNN.NN + 1,000 under dNNNN/); references: small-mixed (1,000, same root shape), small-flat (1,000 under big/)',
    fill: {
      body: '0 bytes',
      batch: `Promise.all of ${BATCH} putObject calls, in name order`,
      objectsPerSec: round(total / fillSeconds, 0),
      seconds: round(fillSeconds, 1),
      fsync: { objects: seg.fsync.objects, seconds: round(seg.fsync.seconds, 1), objectsPerSec: round(seg.fsync.objects / seg.fsync.seconds, 0) },
      ...(seg.noSync.objects > 0
        ? { noSync: { objects: seg.noSync.objects, seconds: round(seg.noSync.seconds, 1), objectsPerSec: round(seg.noSync.objects / seg.noSync.seconds, 0) } }
        : {}),
      ...(projectedFsyncS !== undefined ? { projectedAllFsyncSeconds: round(projectedFsyncS, 1) } : {}),
      stepObjects: CHECK,
      stepRatesObjPerSec: stepRates,
      note:
        switchedAt !== undefined
          ? `fsync fill projected over ${FILL_BUDGET_S} s: after ${switchedAt} objects the engine was reopened with { noSync: true } for the rest, then closed and reopened with defaults for the timings`
          : 'whole fill with default options (fsync on); reopened with defaults for the timings',
    },
    reopenMs: round(reopenMs, 1),
    ...(indexBytes !== undefined ? { indexFileMiB: round(indexBytes / MiB, 0), indexBytesPerObject: round(indexBytes / (total + 2000), 0) } : {}),
    memoryAfterFillMiB: { rss: round(mem.rss / MiB, 0), heapUsed: round(mem.heapUsed / MiB, 0), external: round(mem.external / MiB, 0) },
    containerUsageObjects: usage.objects,
    repeats: REPEAT,
    pageLimit: LIMIT,
    pages,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const cpus = os.cpus();
  const fs = statfsSync(os.tmpdir());
  const out: Record<string, unknown> = {
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model,
      memGiB: round(os.totalmem() / 1024 ** 3, 1),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      tmpdir: os.tmpdir(),
      tmpFsType: `0x${fs.type.toString(16)}`,
      loadavgAtStart: os.loadavg().map((x) => round(x, 2)),
    },
    engineOptions: 'defaults (fsync on) unless a section says otherwise',
  };
  try {
    if (SECTIONS.has('small')) out.small = await benchSmall();
    if (SECTIONS.has('large')) out.large = await benchLarge();
    if (SECTIONS.has('listing')) out.listing = await benchListing();
  } finally {
    log(`removing ${root}`);
    rmSync(root, { recursive: true, force: true });
  }
  (out.machine as Record<string, unknown>).loadavgAtEnd = os.loadavg().map((x) => round(x, 2));
  (out.machine as Record<string, unknown>).note =
    'other work may share this machine: compare loadavg with cpus; cpu figures (cpuUsPerOp, medianCpuMs) are less affected by it than wall-time ones';
  out.ratios = ratios;
  out.totalSeconds = round((performance.now() - runStart) / 1000, 1);
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

await main();
