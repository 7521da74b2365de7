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
 * and, in the reference phase, the servers users run in production (http/references.ts, started
 * with tests/reference/ where their Debian packages are installed, else skipped with the reason):
 *   rgw-s3, rgw-swift         - Ceph RGW 16.2 (memstore: RAM only), its S3 and its Swift API
 *   swift-native, swift-s3api - OpenStack Swift 2.30 (one node, one replica, on this disk), native and s3api
 * Phases (BENCH_HTTP_PHASES=small,large,million,reference picks a subset):
 *   small   - PUT, full listings (flat; delimiter=/ over 100 prefixes), GET, HEAD, DELETE of
 *             BENCH_HTTP_N (10,000) objects of 4 KiB at concurrency 16
 *   reference - the small phase's load with BENCH_HTTP_REF_N (2,000) objects on every target,
 *             the references included, interleaved as ever; Coffer's ratios to them are informational
 *   large   - PUT then GET of one BENCH_HTTP_LARGE_MIB (256) MiB object
 *   million - Coffer only: a BENCH_HTTP_BIG_N (1,000,000)-object container filled through the
 *             engine before the server starts; one delimiter page from the prefix holding 90% of
 *             it vs the same page from a 1,000-object container
 * Every phase has a request count and a time limit; BENCH_HTTP_LIMIT_S (2400) ends the section.
 * BENCH_HTTP_TARGETS=coffer-native,coffer-s3,s3rver,floor,rgw-s3,rgw-swift,swift-native,swift-s3api picks
 * targets (a quick try; ratios need all).
 * BENCH_HTTP_CPU_PROF=DIR runs the Coffer server under --cpu-prof (profile written at its exit).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fillCofferStore, COFFER_USER } from './http/coffer-setup.js';
import { largePhase } from './http/large-phase.js';
import { LoadGenerator } from './http/load.js';
import { machineTicks, syncLatency } from './http/machine.js';
import { millionPhase } from './http/million-phase.js';
import { startReferences, type References } from './http/references.js';
import { startCoffer, startFloor, startS3rver, type Child } from './http/servers.js';
import { PREFIXES, SIZE, smallPhase, type PhaseOptions, type SmallResult } from './http/small-phase.js';
import { FloorTarget, NativeTarget, S3Target, type Target } from './http/targets.js';
import { progressLog, RatioList, round } from './stats.js';

const N = Number(process.env.BENCH_HTTP_N ?? 10_000);
const CONC = 16;
const LARGE_MIB = Number(process.env.BENCH_HTTP_LARGE_MIB ?? 256);
const BIG_N = Number(process.env.BENCH_HTTP_BIG_N ?? 1_000_000);
const PHASES = new Set((process.env.BENCH_HTTP_PHASES ?? 'small,large,million,reference').split(',').map((s) => s.trim()));
const REF_N = Number(process.env.BENCH_HTTP_REF_N ?? 2_000);
const LIMIT_S = Number(process.env.BENCH_HTTP_LIMIT_S ?? 2400);

const runStart = performance.now();
const log = progressLog('http');
const root = mkdtempSync(join(os.tmpdir(), 'coffer-http-bench-'));
const phase: PhaseOptions = { n: N, concurrency: CONC, limitMs: 180_000, dataDir: root, log };
const children: Child[] = [];
const gens: LoadGenerator[] = [];
const ratios = new RatioList();
let references: References | undefined;

const cleanup = async () => {
  for (const g of gens) g.close();
  await Promise.all(children.map((c) => c.stop()));
  await references?.stop();
  rmSync(root, { recursive: true, force: true });
};
const watchdog = setTimeout(() => {
  log(`section time limit of ${LIMIT_S} s reached: stopping`);
  void cleanup().finally(() => process.exit(3));
}, LIMIT_S * 1000).unref();

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
    setup: { objects: N, objectBytes: SIZE, concurrency: CONC, prefixes: PREFIXES, largeMiB: LARGE_MIB, millionObjects: BIG_N, referenceObjects: REF_N, phases: [...PHASES] },
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
  const runners = targets.map(({ t, gen, server }) => ({ t, gen, cpu: () => server.cpuMicros(), mainCpu: () => server.mainThreadCpuMicros() }));

  if (PHASES.has('small')) {
    const small = await smallPhase(runners, phase);
    for (const [label, r] of Object.entries(small)) results[label]!.small = r;
  }
  if (PHASES.has('large')) {
    const large = await largePhase(runners, LARGE_MIB, phase);
    for (const [label, r] of Object.entries(large)) results[label]!.large = r;
  }
  if (PHASES.has('million')) {
    for (const { t, gen } of targets.filter((x) => x.t.label.startsWith('coffer'))) {
      log(`${t.label}: 1M-object page vs 1,000-object page`);
      results[t.label]!.million = await millionPhase(gen, t);
    }
  }
  if (PHASES.has('reference')) {
    references = await startReferences(genFor, log);
    const refRunners = references.targets.filter((x) => !only || only.includes(x.t.label)).map(({ t, gen, cpu }) => ({ t, gen, cpu, mainCpu: () => NaN }));
    for (const r of refRunners) results[r.t.label] = {};
    out.references = {
      versions: references.versions,
      startMs: references.startMs,
      ...(Object.keys(references.skipped).length ? { skipped: references.skipped } : {}),
    };
    log(`reference phase: ${REF_N} objects on ${[...runners, ...refRunners].map((r) => r.t.label).join(', ')}`);
    const ref = await smallPhase([...runners, ...refRunners], { ...phase, n: REF_N, containerPrefix: 'ref' });
    for (const [label, r] of Object.entries(ref)) results[label]!.reference = r;
  }
  (out.machine as Record<string, unknown>).syncLatencyAtEnd = syncLatency(root);
  log('stopping servers');
  await cleanup();
  clearTimeout(watchdog);

  type Large = Awaited<ReturnType<typeof largePhase>>[string];
  type Million = Awaited<ReturnType<typeof millionPhase>>;
  const small = (l: string) => results[l]?.small as SmallResult | undefined;
  const large = (l: string) => results[l]?.large as Large | undefined;
  /** 10k at the default N; the listing ratios name the container size they measured. */
  const countLabel = N % 1000 === 0 ? `${N / 1000}k` : String(N);
  for (const api of ['coffer-native', 'coffer-s3']) {
    const c = small(api);
    const s = small('s3rver');
    const f = small('floor');
    if (c && s && f) {
      for (const op of ['put', 'get'] as const) {
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB ops/s vs s3rver`, c[op].opsPerSec, s[op].opsPerSec, '>= 3', { blocks: [c[op].blockOpsPerSec, s[op].blockOpsPerSec] });
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB ops/s vs floor`, c[op].opsPerSec, f[op].opsPerSec, '>= 0.7', { blocks: [c[op].blockOpsPerSec, f[op].blockOpsPerSec] });
      }
      for (const op of ['put', 'get', 'head', 'delete'] as const) {
        const note = 'server process CPU time per request (lower is better); steadier than ops/s when other work shares the machine, and unmoved by how long the disk takes to sync';
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB server CPU per op vs floor`, c[op].serverCpuUsPerOp, f[op].serverCpuUsPerOp, 'informational', { note });
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB server CPU per op vs s3rver`, c[op].serverCpuUsPerOp, s[op].serverCpuUsPerOp, 'informational', { note });
      }
      for (const op of ['head', 'delete'] as const) {
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB ops/s vs s3rver`, c[op].opsPerSec, s[op].opsPerSec, 'informational');
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB ops/s vs floor`, c[op].opsPerSec, f[op].opsPerSec, 'informational');
      }
      ratios.add(`${api} ${countLabel} flat listing time vs s3rver`, c.listFlat!.medianMs, s.listFlat!.medianMs, '< 0.05');
      ratios.add(`${api} ${countLabel} delimiter=/ listing time vs s3rver`, c.listDelimiter!.medianMs, s.listDelimiter!.medianMs, '< 0.05');
    }
    const cl = large(api);
    const fl = large('floor');
    if (cl && fl) {
      ratios.add(`${api} ${LARGE_MIB} MiB PUT MiB/s vs floor`, cl.putMiBps, fl.putMiBps, '>= 0.85');
      ratios.add(`${api} ${LARGE_MIB} MiB GET MiB/s vs floor`, cl.getMiBps, fl.getMiBps, 'informational');
    }
    const m = results[api]?.million as Million | undefined;
    if (m) ratios.add(`${api} ${BIG_N}-object page vs 1,000-object page (median ms)`, m.millionMedianMs, m.thousandMedianMs, '<= 2');
    // The servers users run in production, each API against the two that serve it (same phase, interleaved).
    const mine = results[api]?.reference as SmallResult | undefined;
    const theirs = api === 'coffer-native' ? ['swift-native', 'rgw-swift'] : ['rgw-s3', 'swift-s3api'];
    const refLabel = REF_N % 1000 === 0 ? `${REF_N / 1000}k` : String(REF_N);
    for (const other of theirs) {
      const o = results[other]?.reference as SmallResult | undefined;
      if (!mine || !o) continue;
      for (const op of ['put', 'get', 'head', 'delete'] as const) {
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB ops/s vs ${other}`, mine[op].opsPerSec, o[op].opsPerSec, 'informational', { blocks: [mine[op].blockOpsPerSec, o[op].blockOpsPerSec] });
        ratios.add(`${api} ${op.toUpperCase()} 4 KiB server CPU per op vs ${other}`, mine[op].serverCpuUsPerOp, o[op].serverCpuUsPerOp, 'informational', {
          note: 'the reference\'s CPU is all its processes\' (Swift: proxy, account, container and object servers, memcached, container updater; RGW: monitor, OSD, radosgw)',
        });
      }
      ratios.add(`${api} ${refLabel} flat listing time vs ${other}`, mine.listFlat!.medianMs, o.listFlat!.medianMs, 'informational');
      ratios.add(`${api} ${refLabel} delimiter=/ listing time vs ${other}`, mine.listDelimiter!.medianMs, o.listDelimiter!.medianMs, 'informational');
    }
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
    'Reference phase: the small phase\'s load on every target with fewer objects, the servers users run in production included: Ceph RGW 16.2 (one monitor, one OSD on memstore: RAM only, nothing reaches a disk, so its PUT rates are above what a durable RGW gives) and OpenStack Swift 2.30 (one node, one replica, workers = 0: one proxy process, its object server fsyncs on this disk). Their serverCpuUsPerOp sums all their processes; serverMainThreadBusy is not measured for them (null). Where their packages are missing, references.skipped says why.',
    'diskWritesPerOp/KiBPerOp/FlushesPerOp: the data disk\'s completed write requests, KiB written and cache flushes per request during an operation\'s blocks, machine-wide, so the kernel\'s later writeback of what a server wrote without syncing (s3rver) lands in whichever block runs then (0 where /proc/diskstats does not show the disk). Coffer syncs a batch of PUTs at a time, the floor server every file: a slow flush costs the floor\'s PUT more than Coffer\'s.',
  ];
  (out.machine as Record<string, unknown>).loadavgAtEnd = os.loadavg().map((x) => round(x, 2));
  const ticksAtEnd = machineTicks();
  (out.machine as Record<string, unknown>).stealPercent = round((100 * (ticksAtEnd.steal - ticksAtStart.steal)) / (ticksAtEnd.total - ticksAtStart.total), 1);
  out.ratios = ratios.items;
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
