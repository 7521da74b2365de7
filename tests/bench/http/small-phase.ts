/**
 * The http bench's small phase: PUT, full listings (flat; delimiter=/ over 100 prefixes), GET,
 * HEAD and DELETE of N objects of 4 KiB on every target, in interleaved blocks.
 */
import { performance } from 'node:perf_hooks';
import { median, round } from '../stats.js';
import { LoadGenerator, ok2xx, prepare, summarize, type LoadStats, type RawRun, type Req } from './load.js';
import { diskCounters, machineTicks } from './machine.js';
import type { Query, Target } from './targets.js';

export const SIZE = 4096;
export const PREFIXES = 100;
/** Full listings per target: one unmeasured first (each server's code warmed up, as in a server that has been running), then the measured ones. */
const LIST_REPEAT = 5;

export interface PhaseOptions {
  /** Objects (small phase) per target. */
  n: number;
  concurrency: number;
  /** How long one operation may run on all targets together, in ms. */
  limitMs: number;
  /** Where the servers keep their data (the disk whose requests are counted). */
  dataDir: string;
  /** Names the phase's containers (`small-<target>`), so a second run of the phase on the same servers starts empty. */
  containerPrefix?: string;
  log(msg: string): void;
}

const template = Buffer.alloc(SIZE, 'coffer-bench-4k ');
const bodyOf = (i: number) => {
  const b = Buffer.from(template);
  b.writeUInt32BE(i, 0);
  return b;
};
/** 100 prefixes of N/100 names each: d00/o000000 ... d99/o009999. */
const nameOf = (i: number) => `d${String(i % PREFIXES).padStart(2, '0')}/o${String(i).padStart(6, '0')}`;

export interface ListTiming {
  medianMs: number;
  runsMs: number[];
  /** Server process CPU time for one full listing (10 ms resolution). */
  serverCpuMedianMs: number;
  pages: number;
  keys: number;
  prefixes: number;
}

/** Lists the whole container once, the client following markers. */
async function fullListing(gen: LoadGenerator, t: Target, c: string, params: Query, objects: number) {
  const counted = { pages: 0, keys: 0, prefixes: 0 };
  const t0 = performance.now();
  let q: Query | undefined = params;
  while (q && counted.pages < 10 * Math.ceil(objects / 1000) + 10) {
    const res = await gen.send(await t.list!(c, q), { keepBody: true });
    if (res.status !== 200) throw new Error(`${t.label} listing: HTTP ${res.status}: ${res.body?.toString().slice(0, 300)}`);
    const page = t.parseList!(res.body!, params);
    counted.pages++;
    counted.keys += page.keys;
    counted.prefixes += page.prefixes;
    q = page.next ? { ...page.next } : undefined;
  }
  return { ms: performance.now() - t0, ...counted };
}

export interface Runner {
  t: Target;
  gen: LoadGenerator;
  /** CPU time of the server process so far (µs). */
  cpu: () => number;
  /** CPU time of the server's main (JavaScript) thread so far (µs). */
  mainCpu: () => number;
}

/**
 * Per operation: server CPU per request; the load generator's own CPU per request (it shares the
 * machine with the server); the share of the measured time the server's main thread was busy
 * (near 1: bound by its JavaScript; well below: waiting, on the disk or on other threads); the
 * share of the machine's CPU time stolen by its hypervisor meanwhile (runs with much steal are
 * not comparable with quiet ones); and the data disk's write requests, KiB written and cache
 * flushes per request (machine-wide, like steal).
 */
export type OpStats = LoadStats & {
  serverCpuUsPerOp: number;
  generatorCpuUsPerOp: number;
  serverMainThreadBusy: number;
  machineStealPercent: number;
  diskWritesPerOp: number;
  diskKiBPerOp: number;
  diskFlushesPerOp: number;
  blockOpsPerSec: number[];
};

export interface SmallResult {
  put: OpStats;
  get: OpStats;
  head: OpStats;
  delete: OpStats;
  listFlat?: ListTiming;
  listDelimiter?: ListTiming;
}

/**
 * Every operation runs on every target in BLOCKS interleaved blocks (target order rotating), so a
 * burst of other work on this shared machine lands on all targets alike rather than on one.
 * Before its measured blocks, each operation runs WARM unmeasured requests per target on objects
 * of a separate container: steady-state rates, not a freshly started process warming its code up
 * (that cost Coffer's PUT about a quarter of its rate here).
 */
export async function smallPhase(runners: Runner[], { n, concurrency, limitMs, dataDir, log, containerPrefix = 'small' }: PhaseOptions): Promise<Record<string, SmallResult>> {
  const BLOCKS = 5;
  const WARM = Math.min(2000, Math.ceil(n / 5));
  const container = (r: Runner) => `${containerPrefix}-${r.t.label}`;
  const warmContainer = (r: Runner) => `${containerPrefix}-warm-${r.t.label}`;
  for (const r of runners) {
    for (const c of [container(r), warmContainer(r)]) {
      const created = await r.gen.send(await r.t.createContainer(c));
      if (!ok2xx(created.status)) throw new Error(`${r.t.label}: create container ${c}: HTTP ${created.status}`);
    }
  }
  const out: Record<string, Partial<SmallResult>> = Object.fromEntries(runners.map((r) => [r.t.label, {}]));
  const op = async (name: 'put' | 'get' | 'head' | 'delete', make: (t: Target, c: string, i: number) => Promise<Req>) => {
    const deadline = performance.now() + limitMs;
    const prepared = new Map<Runner, Req[]>();
    for (const r of runners) prepared.set(r, await prepare(n, (i) => make(r.t, container(r), i)));
    const raw = new Map<Runner, RawRun[]>(runners.map((r) => [r, []]));
    const zero = () => ({ all: 0, main: 0, generator: 0, steal: 0, ticks: 0, writes: 0, kib: 0, flushes: 0 });
    const totals = new Map<Runner, ReturnType<typeof zero>>(runners.map((r) => [r, zero()]));
    log(`${name.toUpperCase()}: ${WARM} warm-up requests, then ${n} requests per target in ${BLOCKS} interleaved blocks at concurrency ${concurrency}`);
    for (const r of runners) {
      const warm = await r.gen.run(await prepare(WARM, (i) => make(r.t, warmContainer(r), i)), { concurrency, deadline, ok: ok2xx });
      if (warm.errors) throw new Error(`${r.t.label}: ${name} warm-up: ${warm.errors} errors (${warm.firstError})`);
    }
    for (let b = 0; b < BLOCKS; b++) {
      for (let k = 0; k < runners.length; k++) {
        const r = runners[(b + k) % runners.length]!;
        const block = prepared.get(r)!.slice(Math.floor((b * n) / BLOCKS), Math.floor(((b + 1) * n) / BLOCKS));
        const [cpu0, main0, m0, d0, own0] = [r.cpu(), r.mainCpu(), machineTicks(), diskCounters(dataDir), process.cpuUsage()];
        raw.get(r)!.push(await r.gen.run(block, { concurrency, deadline, ok: ok2xx }));
        const [sum, m1, d1, own] = [totals.get(r)!, machineTicks(), diskCounters(dataDir), process.cpuUsage(own0)];
        sum.all += r.cpu() - cpu0;
        sum.generator += own.user + own.system;
        sum.main += r.mainCpu() - main0;
        sum.steal += m1.steal - m0.steal;
        sum.ticks += m1.total - m0.total;
        sum.writes += d1.writes - d0.writes;
        sum.kib += d1.kib - d0.kib;
        sum.flushes += d1.flushes - d0.flushes;
      }
    }
    for (const r of runners) {
      const stats = summarize(raw.get(r)!);
      const sum = totals.get(r)!;
      out[r.t.label]![name] = {
        ...stats,
        serverCpuUsPerOp: round(sum.all / stats.ops, 0),
        generatorCpuUsPerOp: round(sum.generator / stats.ops, 0),
        serverMainThreadBusy: round(sum.main / 1e6 / stats.seconds, 2),
        machineStealPercent: round((100 * sum.steal) / sum.ticks, 1),
        diskWritesPerOp: round(sum.writes / stats.ops, 2),
        diskKiBPerOp: round(sum.kib / stats.ops, 1),
        diskFlushesPerOp: round(sum.flushes / stats.ops, 3),
        blockOpsPerSec: raw.get(r)!.map((run) => round(run.latencies.length / run.seconds, 1)),
      };
      const o = out[r.t.label]![name]!;
      log(`  ${r.t.label}: ${stats.opsPerSec}/s, p50 ${stats.p50ms} ms, ${o.serverCpuUsPerOp} µs server CPU/op (generator ${o.generatorCpuUsPerOp}), main thread ${Number.isNaN(o.serverMainThreadBusy) ? 'not measured' : `${Math.round(o.serverMainThreadBusy * 100)}% busy`}, ${o.machineStealPercent}% stolen, disk ${o.diskWritesPerOp} writes, ${o.diskKiBPerOp} KiB and ${o.diskFlushesPerOp} flushes per op${stats.errors ? `, ${stats.errors} errors (${stats.firstError})` : ''}`);
    }
  };
  await op('put', (t, c, i) => t.put(c, nameOf(i), bodyOf(i)));
  const listers = runners.filter((r) => r.t.list);
  for (const [key, params] of [['listFlat', {}], ['listDelimiter', { delimiter: '/' }]] as const) {
    log(`listing ${key}: a warm-up and ${LIST_REPEAT} full listings per target, alternating`);
    for (const r of listers) await fullListing(r.gen, r.t, container(r), params, n);
    const runs = new Map<Runner, Awaited<ReturnType<typeof fullListing>>[]>(listers.map((r) => [r, []]));
    const cpu = new Map<Runner, number[]>(listers.map((r) => [r, []]));
    for (let rep = 0; rep < LIST_REPEAT; rep++) {
      for (const r of listers) {
        const cpu0 = r.cpu();
        runs.get(r)!.push(await fullListing(r.gen, r.t, container(r), params, n));
        cpu.get(r)!.push((r.cpu() - cpu0) / 1000);
      }
    }
    for (const r of listers) {
      const rs = runs.get(r)!;
      const last = rs.at(-1)!;
      out[r.t.label]![key] = {
        medianMs: round(median(rs.map((x) => x.ms)), 1),
        runsMs: rs.map((x) => round(x.ms, 1)),
        serverCpuMedianMs: round(median(cpu.get(r)!), 0),
        pages: last.pages,
        keys: last.keys,
        prefixes: last.prefixes,
      };
      log(`  ${r.t.label}: ${out[r.t.label]![key]!.medianMs} ms, server CPU ${out[r.t.label]![key]!.serverCpuMedianMs} ms (${last.pages} pages, ${last.keys} keys, ${last.prefixes} prefixes)`);
    }
  }
  await op('get', (t, c, i) => t.get(c, nameOf(i)));
  await op('head', (t, c, i) => t.head(c, nameOf(i)));
  await op('delete', (t, c, i) => t.del(c, nameOf(i)));
  return out as Record<string, SmallResult>;
}
