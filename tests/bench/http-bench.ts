/**
 * HTTP benchmark (issue #9): `BENCH=http npm run bench`. A measurement, not a test: ONE JSON
 * object on stdout (progress on stderr), every goal as a ratio of figures from this same run.
 *
 * One load generator (tests/bench/http/load.ts over connection.ts: plain keep-alive sockets,
 * signed requests prepared before the clock starts) drives four targets, each server its own
 * process on loopback:
 *   coffer-native, coffer-s3 - `coffer serve` (compiled, as shipped) with default options (fsync on), both APIs
 *   s3rver                    - the npm package, the peer users pick for a local S3
 *   floor                     - node:http that reads, MD5s, writes + fsyncs, answers (the practical limit)
 * Phases (BENCH_HTTP_PHASES=small,large,million picks a subset):
 *   small   - PUT, full listings (flat; delimiter=/ over 100 prefixes), GET, HEAD, DELETE of
 *             BENCH_HTTP_N (10,000) objects of 4 KiB at concurrency 16
 *   large   - PUT then GET of one BENCH_HTTP_LARGE_MIB (256) MiB object
 *   million - Coffer only: a BENCH_HTTP_BIG_N (1,000,000)-object container filled through the
 *             engine before the server starts; one delimiter page from the prefix holding 90% of
 *             it vs the same page from a 1,000-object container
 * Every phase has a request count and a time limit; BENCH_HTTP_LIMIT_S (2400) ends the section.
 * BENCH_HTTP_TARGETS=coffer-native,coffer-s3,s3rver,floor picks targets (a quick try; ratios need all).
 * BENCH_HTTP_CPU_PROF=DIR runs the Coffer server under --cpu-prof (profile written at its exit).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fillCofferStore, COFFER_USER, bigPrefixPage } from './http/coffer-setup.js';
import { syncLatency } from './http/disk.js';
import { LoadGenerator, summarize, type LoadStats, type RawRun, type Req } from './http/load.js';
import { startCoffer, startFloor, startS3rver, type Child } from './http/servers.js';
import { FloorTarget, NativeTarget, S3Target, type Query, type Target } from './http/targets.js';

const N = Number(process.env.BENCH_HTTP_N ?? 10_000);
const SIZE = 4096;
const CONC = 16;
const PREFIXES = 100;
const LARGE_MIB = Number(process.env.BENCH_HTTP_LARGE_MIB ?? 256);
const BIG_N = Number(process.env.BENCH_HTTP_BIG_N ?? 1_000_000);
const PHASES = new Set((process.env.BENCH_HTTP_PHASES ?? 'small,large,million').split(',').map((s) => s.trim()));
const LIMIT_S = Number(process.env.BENCH_HTTP_LIMIT_S ?? 2400);
const PHASE_LIMIT_MS = 180_000;
/** Full listings per target: one unmeasured first (each server's code warmed up, as in a server that has been running), then the measured ones. */
const LIST_REPEAT = 5;
const PAGE_REPEAT = 20;
const MiB = 1024 * 1024;

const runStart = performance.now();
const log = (msg: string) => process.stderr.write(`[http +${((performance.now() - runStart) / 1000).toFixed(1)}s] ${msg}\n`);
const round = (x: number, digits = 2) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ok2xx = (s: number) => s >= 200 && s < 300;

const root = mkdtempSync(join(os.tmpdir(), 'coffer-http-bench-'));
const children: Child[] = [];
const gens: LoadGenerator[] = [];
const ratios: { name: string; value: number; target: string; blockRange?: [number, number]; note?: string }[] = [];
/**
 * `blocks`: the two servers' rates block by block (the blocks of one round run back to back), so
 * the ratio also comes with its lowest and highest value over the rounds: how far the machine's
 * noise moved it within this run.
 */
function ratio(name: string, num: number, den: number, target: string, extra: { note?: string; blocks?: [number[], number[]] } = {}) {
  const { note, blocks } = extra;
  const perBlock = blocks ? blocks[0].map((x, i) => x / blocks[1][i]!) : [];
  const blockRange: [number, number] | undefined = perBlock.length ? [round(Math.min(...perBlock), 3), round(Math.max(...perBlock), 3)] : undefined;
  ratios.push({ name, value: round(num / den, 3), target, ...(blockRange ? { blockRange } : {}), ...(note ? { note } : {}) });
}

const cleanup = async () => {
  for (const g of gens) g.close();
  await Promise.all(children.map((c) => c.stop()));
  rmSync(root, { recursive: true, force: true });
};
const watchdog = setTimeout(() => {
  log(`section time limit of ${LIMIT_S} s reached: stopping`);
  void cleanup().finally(() => process.exit(3));
}, LIMIT_S * 1000).unref();

async function prepare(n: number, make: (i: number) => Promise<Req>): Promise<Req[]> {
  const out: Req[] = [];
  for (let i = 0; i < n; i++) out.push(await make(i));
  return out;
}

// ---------------------------------------------------------------- small objects and listings

const template = Buffer.alloc(SIZE, 'coffer-bench-4k ');
const bodyOf = (i: number) => {
  const b = Buffer.from(template);
  b.writeUInt32BE(i, 0);
  return b;
};
/** 100 prefixes of N/100 names each: d00/o000000 ... d99/o009999. */
const nameOf = (i: number) => `d${String(i % PREFIXES).padStart(2, '0')}/o${String(i).padStart(6, '0')}`;

interface ListTiming {
  medianMs: number;
  runsMs: number[];
  /** Server process CPU time for one full listing (10 ms resolution). */
  serverCpuMedianMs: number;
  pages: number;
  keys: number;
  prefixes: number;
}


/** Lists the whole container once, the client following markers. */
async function fullListing(gen: LoadGenerator, t: Target, c: string, params: Query) {
  const counted = { pages: 0, keys: 0, prefixes: 0 };
  const t0 = performance.now();
  let q: Query | undefined = params;
  while (q && counted.pages < 10 * Math.ceil(N / 1000) + 10) {
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

interface Runner {
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
 * (near 1: bound by its JavaScript; well below: waiting, on the disk or on other threads); and
 * the share of the machine's CPU time stolen by its hypervisor meanwhile (runs with much steal
 * are not comparable with quiet ones).
 */
type OpStats = LoadStats & {
  serverCpuUsPerOp: number;
  generatorCpuUsPerOp: number;
  serverMainThreadBusy: number;
  machineStealPercent: number;
  blockOpsPerSec: number[];
};

/** Total and steal jiffies of all CPUs from /proc/stat (zeros where it is not there). */
function machineTicks(): { total: number; steal: number } {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 };
  }
}
interface SmallResult {
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
async function smallPhase(runners: Runner[]): Promise<Record<string, SmallResult>> {
  const BLOCKS = 5;
  const WARM = Math.min(2000, Math.ceil(N / 5));
  const container = (r: Runner) => `small-${r.t.label}`;
  const warmContainer = (r: Runner) => `warm-${r.t.label}`;
  for (const r of runners) {
    for (const c of [container(r), warmContainer(r)]) {
      const created = await r.gen.send(await r.t.createContainer(c));
      if (!ok2xx(created.status)) throw new Error(`${r.t.label}: create container ${c}: HTTP ${created.status}`);
    }
  }
  const out: Record<string, Partial<SmallResult>> = Object.fromEntries(runners.map((r) => [r.t.label, {}]));
  const op = async (name: 'put' | 'get' | 'head' | 'delete', make: (t: Target, c: string, i: number) => Promise<Req>) => {
    const deadline = performance.now() + PHASE_LIMIT_MS;
    const prepared = new Map<Runner, Req[]>();
    for (const r of runners) prepared.set(r, await prepare(N, (i) => make(r.t, container(r), i)));
    const raw = new Map<Runner, RawRun[]>(runners.map((r) => [r, []]));
    const cpu = new Map<Runner, { all: number; main: number; generator: number; steal: number; ticks: number }>(
      runners.map((r) => [r, { all: 0, main: 0, generator: 0, steal: 0, ticks: 0 }]),
    );
    log(`${name.toUpperCase()}: ${WARM} warm-up requests, then ${N} requests per target in ${BLOCKS} interleaved blocks at concurrency ${CONC}`);
    for (const r of runners) {
      const warm = await r.gen.run(await prepare(WARM, (i) => make(r.t, warmContainer(r), i)), { concurrency: CONC, deadline, ok: ok2xx });
      if (warm.errors) throw new Error(`${r.t.label}: ${name} warm-up: ${warm.errors} errors (${warm.firstError})`);
    }
    for (let b = 0; b < BLOCKS; b++) {
      for (let k = 0; k < runners.length; k++) {
        const r = runners[(b + k) % runners.length]!;
        const block = prepared.get(r)!.slice(Math.floor((b * N) / BLOCKS), Math.floor(((b + 1) * N) / BLOCKS));
        const [cpu0, main0, m0, own0] = [r.cpu(), r.mainCpu(), machineTicks(), process.cpuUsage()];
        raw.get(r)!.push(await r.gen.run(block, { concurrency: CONC, deadline, ok: ok2xx }));
        const [sum, m1, own] = [cpu.get(r)!, machineTicks(), process.cpuUsage(own0)];
        sum.all += r.cpu() - cpu0;
        sum.generator += own.user + own.system;
        sum.main += r.mainCpu() - main0;
        sum.steal += m1.steal - m0.steal;
        sum.ticks += m1.total - m0.total;
      }
    }
    for (const r of runners) {
      const stats = summarize(raw.get(r)!);
      const sum = cpu.get(r)!;
      out[r.t.label]![name] = {
        ...stats,
        serverCpuUsPerOp: round(sum.all / stats.ops, 0),
        generatorCpuUsPerOp: round(sum.generator / stats.ops, 0),
        serverMainThreadBusy: round(sum.main / 1e6 / stats.seconds, 2),
        machineStealPercent: round((100 * sum.steal) / sum.ticks, 1),
        blockOpsPerSec: raw.get(r)!.map((run) => round(run.latencies.length / run.seconds, 1)),
      };
      const o = out[r.t.label]![name]!;
      log(`  ${r.t.label}: ${stats.opsPerSec}/s, p50 ${stats.p50ms} ms, ${o.serverCpuUsPerOp} µs server CPU/op (generator ${o.generatorCpuUsPerOp}), main thread ${Math.round(o.serverMainThreadBusy * 100)}% busy, ${o.machineStealPercent}% stolen${stats.errors ? `, ${stats.errors} errors (${stats.firstError})` : ''}`);
    }
  };
  await op('put', (t, c, i) => t.put(c, nameOf(i), bodyOf(i)));
  const listers = runners.filter((r) => r.t.list);
  for (const [key, params] of [['listFlat', {}], ['listDelimiter', { delimiter: '/' }]] as const) {
    log(`listing ${key}: a warm-up and ${LIST_REPEAT} full listings per target, alternating`);
    for (const r of listers) await fullListing(r.gen, r.t, container(r), params);
    const runs = new Map<Runner, Awaited<ReturnType<typeof fullListing>>[]>(listers.map((r) => [r, []]));
    const cpu = new Map<Runner, number[]>(listers.map((r) => [r, []]));
    for (let rep = 0; rep < LIST_REPEAT; rep++) {
      for (const r of listers) {
        const cpu0 = r.cpu();
        runs.get(r)!.push(await fullListing(r.gen, r.t, container(r), params));
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

// ---------------------------------------------------------------- one large object

/** PUT then GET of one large object on every target, 3 rounds with the targets alternating; medians kept. */
async function largePhase(runners: Runner[]) {
  const ROUNDS = 3;
  const chunk = Buffer.alloc(MiB, 'coffer-large-object ');
  const size = LARGE_MIB * MiB;
  const stream = async (write: (b: Buffer) => Promise<void>) => {
    for (let i = 0; i < LARGE_MIB; i++) await write(chunk);
  };
  const container = (r: Runner) => `large-${r.t.label}`;
  for (const r of runners) await r.gen.send(await r.t.createContainer(container(r)));
  const put = new Map<Runner, number[]>(runners.map((r) => [r, []]));
  const get = new Map<Runner, number[]>(runners.map((r) => [r, []]));
  const deadline = performance.now() + 3 * PHASE_LIMIT_MS;
  for (let round = 0; round < ROUNDS && performance.now() < deadline; round++) {
    for (let k = 0; k < runners.length; k++) {
      const r = runners[(round + k) % runners.length]!;
      log(`${r.t.label}: PUT and GET of ${LARGE_MIB} MiB (round ${round + 1} of ${ROUNDS})`);
      let t0 = performance.now();
      const res = await r.gen.send(await r.t.put(container(r), 'large.bin', { size, stream }), { timeoutMs: PHASE_LIMIT_MS });
      put.get(r)!.push(performance.now() - t0);
      if (!ok2xx(res.status)) throw new Error(`${r.t.label}: large PUT: HTTP ${res.status}`);
      t0 = performance.now();
      const got = await r.gen.send(await r.t.get(container(r), 'large.bin'), { timeoutMs: PHASE_LIMIT_MS });
      get.get(r)!.push(performance.now() - t0);
      if (got.status !== 200 || got.bytes !== size) throw new Error(`${r.t.label}: large GET: HTTP ${got.status}, ${got.bytes} bytes`);
    }
  }
  const mibps = (ms: number) => round(LARGE_MIB / (ms / 1000), 1);
  const out: Record<string, { putMiBps: number; getMiBps: number; putRunsMiBps: number[]; getRunsMiBps: number[] }> = {};
  for (const r of runners) {
    await r.gen.send(await r.t.del(container(r), 'large.bin'));
    out[r.t.label] = { putMiBps: mibps(median(put.get(r)!)), getMiBps: mibps(median(get.get(r)!)), putRunsMiBps: put.get(r)!.map(mibps), getRunsMiBps: get.get(r)!.map(mibps) };
  }
  return out;
}

// ---------------------------------------------------------------- 1,000,000-object page

async function millionPhase(gen: LoadGenerator, t: Target) {
  const page = async (c: string) => {
    const t0 = performance.now();
    const res = await gen.send(await t.list!(c, bigPrefixPage), { keepBody: true });
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${t.label}: page of ${c}: HTTP ${res.status}`);
    return { ms, page: t.parseList!(res.body!, bigPrefixPage) };
  };
  await page('million');
  await page('thousand');
  const big: number[] = [];
  const small: number[] = [];
  let shape = { big: {}, small: {} };
  for (let r = 0; r < PAGE_REPEAT; r++) {
    const b = await page('million');
    const s = await page('thousand');
    big.push(b.ms);
    small.push(s.ms);
    shape = { big: { keys: b.page.keys, prefixes: b.page.prefixes, truncated: !!b.page.next }, small: { keys: s.page.keys, prefixes: s.page.prefixes, truncated: !!s.page.next } };
  }
  return {
    params: bigPrefixPage,
    millionMedianMs: round(median(big), 2),
    thousandMedianMs: round(median(small), 2),
    millionMinMs: round(Math.min(...big), 2),
    thousandMinMs: round(Math.min(...small), 2),
    shape,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const ticksAtStart = machineTicks();
  const out: Record<string, unknown> = {
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      loadavgAtStart: os.loadavg().map((x) => round(x, 2)),
      syncLatencyAtStart: syncLatency(root),
    },
    setup: { objects: N, objectBytes: SIZE, concurrency: CONC, prefixes: PREFIXES, largeMiB: LARGE_MIB, millionObjects: BIG_N, phases: [...PHASES] },
  };
  const results: Record<string, Record<string, unknown>> = {};

  const cofferDir = join(root, 'coffer');
  log(`coffer: preparing the store (account, keys${PHASES.has('million') ? `, ${BIG_N}-object container through the engine` : ''})`);
  out.cofferFill = await fillCofferStore(cofferDir, PHASES.has('million') ? BIG_N : 0, log);

  const profDir = process.env.BENCH_HTTP_CPU_PROF ? resolve(process.env.BENCH_HTTP_CPU_PROF) : undefined;
  if (profDir) mkdirSync(profDir, { recursive: true });
  const coffer = await startCoffer(cofferDir, profDir ? { cpuProfDir: profDir } : {});
  children.push(coffer);
  const s3rverDir = join(root, 's3rver');
  const floorDir = join(root, 'floor');
  mkdirSync(s3rverDir);
  mkdirSync(floorDir);
  const s3rver = await startS3rver(s3rverDir);
  children.push(s3rver);
  const floor = await startFloor(floorDir);
  children.push(floor);

  const genFor = (port: number) => {
    const g = new LoadGenerator(port, CONC);
    gens.push(g);
    return g;
  };
  const cofferGen = genFor(coffer.port);
  const targets: { t: Target; gen: LoadGenerator; server: Child }[] = [
    { t: new S3Target('s3rver', s3rver.port, 'S3RVER', 'S3RVER'), gen: genFor(s3rver.port), server: s3rver },
    { t: new FloorTarget(), gen: genFor(floor.port), server: floor },
    { t: await NativeTarget.login('coffer-native', cofferGen, COFFER_USER.swiftUser, COFFER_USER.swiftKey), gen: cofferGen, server: coffer },
    { t: new S3Target('coffer-s3', coffer.port, COFFER_USER.accessKey, COFFER_USER.secretKey), gen: cofferGen, server: coffer },
  ];
  const only = process.env.BENCH_HTTP_TARGETS?.split(',').map((x) => x.trim());
  if (only) targets.splice(0, targets.length, ...targets.filter((x) => only.includes(x.t.label)));
  for (const { t } of targets) results[t.label] = {};

  if (PHASES.has('small')) {
    const small = await smallPhase(targets.map(({ t, gen, server }) => ({ t, gen, cpu: () => server.cpuMicros(), mainCpu: () => server.mainThreadCpuMicros() })));
    for (const [label, r] of Object.entries(small)) results[label]!.small = r;
  }
  if (PHASES.has('large')) {
    const large = await largePhase(targets.map(({ t, gen, server }) => ({ t, gen, cpu: () => server.cpuMicros(), mainCpu: () => server.mainThreadCpuMicros() })));
    for (const [label, r] of Object.entries(large)) results[label]!.large = r;
  }
  if (PHASES.has('million')) {
    for (const { t, gen } of targets.filter((x) => x.t.label.startsWith('coffer'))) {
      log(`${t.label}: 1M-object page vs 1,000-object page`);
      results[t.label]!.million = await millionPhase(gen, t);
    }
  }
  (out.machine as Record<string, unknown>).syncLatencyAtEnd = syncLatency(root);
  log('stopping servers');
  await cleanup();
  clearTimeout(watchdog);

  type Small = SmallResult;
  type Large = Awaited<ReturnType<typeof largePhase>>[string];
  type Million = Awaited<ReturnType<typeof millionPhase>>;
  const small = (l: string) => results[l]?.small as Small | undefined;
  const large = (l: string) => results[l]?.large as Large | undefined;
  /** 10k at the default N; the listing ratios name the container size they measured. */
  const countLabel = N % 1000 === 0 ? `${N / 1000}k` : String(N);
  for (const api of ['coffer-native', 'coffer-s3']) {
    const c = small(api);
    const s = small('s3rver');
    const f = small('floor');
    if (c && s && f) {
      for (const op of ['put', 'get'] as const) {
        ratio(`${api} ${op.toUpperCase()} 4 KiB ops/s vs s3rver`, c[op].opsPerSec, s[op].opsPerSec, '>= 3', { blocks: [c[op].blockOpsPerSec, s[op].blockOpsPerSec] });
        ratio(`${api} ${op.toUpperCase()} 4 KiB ops/s vs floor`, c[op].opsPerSec, f[op].opsPerSec, '>= 0.7', { blocks: [c[op].blockOpsPerSec, f[op].blockOpsPerSec] });
      }
      for (const op of ['put', 'get', 'head', 'delete'] as const) {
        ratio(`${api} ${op.toUpperCase()} 4 KiB server CPU per op vs floor`, c[op].serverCpuUsPerOp, f[op].serverCpuUsPerOp, 'informational', {
          note: 'server process CPU time per request (lower is better); steadier than ops/s when other work shares the machine',
        });
      }
      for (const op of ['head', 'delete'] as const) {
        ratio(`${api} ${op.toUpperCase()} 4 KiB ops/s vs s3rver`, c[op].opsPerSec, s[op].opsPerSec, 'informational');
        ratio(`${api} ${op.toUpperCase()} 4 KiB ops/s vs floor`, c[op].opsPerSec, f[op].opsPerSec, 'informational');
      }
      ratio(`${api} ${countLabel} flat listing time vs s3rver`, c.listFlat!.medianMs, s.listFlat!.medianMs, '< 0.05');
      ratio(`${api} ${countLabel} delimiter=/ listing time vs s3rver`, c.listDelimiter!.medianMs, s.listDelimiter!.medianMs, '< 0.05');
    }
    const cl = large(api);
    const fl = large('floor');
    if (cl && fl) {
      ratio(`${api} ${LARGE_MIB} MiB PUT MiB/s vs floor`, cl.putMiBps, fl.putMiBps, '>= 0.85');
      ratio(`${api} ${LARGE_MIB} MiB GET MiB/s vs floor`, cl.getMiBps, fl.getMiBps, 'informational');
    }
    const m = results[api]?.million as Million | undefined;
    if (m) ratio(`${api} ${BIG_N}-object page vs 1,000-object page (median ms)`, m.millionMedianMs, m.thousandMedianMs, '<= 2');
  }
  out.results = results;
  out.notes = [
    'Coffer runs `coffer serve` from the compiled CLI (dist/, built first as `npm start` does) with default options (fsync on); the floor server fsyncs every PUT; s3rver does not fsync.',
    `The ${BIG_N}-object container is filled through the engine directly (noSync, then closed so it is on disk) before the server starts; not timed here.`,
    'S3 requests carry SigV4 header auth (4 KiB bodies: payload SHA-256; large body: UNSIGNED-PAYLOAD); native ones an X-Auth-Token from v1 auth.',
    'Requests are signed before each phase starts; listings are signed per page (they depend on the previous page).',
    'Other work may share this machine: see loadavg, and machineStealPercent (per operation and for the whole run; CPU time the hypervisor gave to other guests).',
    'blockRange: a ratio\'s lowest and highest value over the rounds of interleaved blocks (one block per server per round, back to back): the spread the machine\'s noise gave it in this run.',
    'syncLatencyAtStart/AtEnd: µs for a 4 KiB write growing a file, then fdatasync, in the bench directory. Coffer acknowledges a PUT once its batch is synced; s3rver does not sync, so PUT ratios against s3rver drop as the disk slows.',
    'serverMainThreadBusy: the share of an operation\'s measured time the server\'s main (JavaScript) thread was running; well below 1 means requests were waiting on something else (the disk, other threads), near 1 that the JavaScript itself is the limit.',
  ];
  (out.machine as Record<string, unknown>).loadavgAtEnd = os.loadavg().map((x) => round(x, 2));
  const ticksAtEnd = machineTicks();
  (out.machine as Record<string, unknown>).stealPercent = round((100 * (ticksAtEnd.steal - ticksAtStart.steal)) / (ticksAtEnd.total - ticksAtStart.total), 1);
  out.ratios = ratios;
  out.totalSeconds = round((performance.now() - runStart) / 1000, 1);
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

try {
  await main();
} catch (err) {
  log(`failed: ${(err as Error).stack ?? String(err)}`);
  await cleanup();
  process.exit(1);
}
