/** Engine bench, section listing: 1,000-entry delimiter pages of a 1,000,000-object container vs 1,000-object ones. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type ContainerRef, Engine, type ListPage, type ListParams } from '../../../src-main/engine/index.js';
import { median, round } from '../stats.js';
import { ACCOUNT, MiB, openEngine, type SectionContext } from './common.js';

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

export async function benchListing({ dirFor, log, ratios }: SectionContext) {
  const scale = Number(process.env.BENCH_LIST_SCALE ?? 1);
  const { names, total } = bigLayout(scale);
  const BATCH = 4000;
  const EMPTY = Buffer.alloc(0);
  const dir = dirFor('listing');
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
    ratios.add(`listing.${label} big/small page median ms`, pair.bigContainer.medianMs, pair.smallContainer.medianMs, '<= 2',
      { note: 'goal: near 1 (page cost independent of container size)' });
    ratios.add(`listing.${label} big/small page median CPU ms`, pair.bigContainer.medianCpuMs, pair.smallContainer.medianCpuMs, '<= 2',
      { note: 'same pages, process CPU time instead of wall time (less sensitive to other load on the machine)' });
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
