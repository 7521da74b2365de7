/**
 * Transfers benchmark (`BENCH=transfers npm run bench`): Coffer's transfer service side by side
 * with the tools users would otherwise pick, `rclone copy` and `aws s3 cp --recursive` (default
 * settings), against the same servers: Coffer's store as `coffer serve` over its S3 API, and Ceph
 * RGW and OpenStack Swift from tests/reference/ where installed. Three folders, each up then down:
 * 10,000 files of 4 KiB, 1,000 of 1 MiB, one of 2 GiB; and, for Coffer alone, a tenth of the small
 * folder (1,000 files of 4 KiB), whose peak RSS against the whole folder's says whether memory
 * grows with the file count. Per client and direction: throughput,
 * seconds, CPU per MiB and peak RSS (each client a process of its own, see transfers/clients.ts),
 * and the server's CPU for the run; the ratios of Coffer's throughput to each tool's and to the
 * faster one, next to the targets, and how far the server's own CPU lets any client go (serverCeiling).
 *
 * Rounds run the clients in a rotating order; each figure is the median over the rounds. Every
 * upload is listed and every download counted afterwards; what is deleted when, below (manyFiles).
 *
 * Env: BENCH_TRANSFER_TARGETS (coffer,rgw,swift), BENCH_TRANSFER_DATASETS (small,medium,large),
 * BENCH_TRANSFER_ROUNDS (default 1), BENCH_TRANSFER_SMALL_FILES, BENCH_TRANSFER_MEDIUM_FILES,
 * BENCH_TRANSFER_LARGE_MIB to scale down a trial run, BENCH_TRANSFER_CLIENTS (coffer,rclone,aws;
 * a subset reports no ratios), BENCH_TRANSFER_COFFER_CONCURRENCY (the queue's concurrency in
 * Coffer's run, as the transfers panel sets it; default the app's 3, small files 4x that) and
 * BENCH_TRANSFER_COFFER_NODE_ARGS (e.g. --cpu-prof). One JSON object on stdout.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { machineTicks } from './http/machine.js';
import { median, progressLog, round, type Ratio } from './stats.js';
import { CLIENTS, runClient, type ClientName, type RunFigures } from './transfers/clients.js';
import { makeDatasets, tally, type Dataset } from './transfers/inputs.js';
import { startCofferTarget, startRgwTarget, startSwiftTarget, type Target } from './transfers/targets.js';
import type { Direction } from './transfers/tools.js';

const MiB = 2 ** 20;
const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);
const TARGETS = list('BENCH_TRANSFER_TARGETS', 'coffer,rgw,swift');
const DATASETS = list('BENCH_TRANSFER_DATASETS', 'small,medium,large');
/** The small folder brings its tenth along, for Coffer's memory against the file count. */
const WITH_TENTH = DATASETS.includes('small') ? ['small', 'small-tenth', ...DATASETS.filter((d) => d !== 'small')] : DATASETS;
const ROUNDS = Number(process.env.BENCH_TRANSFER_ROUNDS ?? 1);
/** All three by default; a subset (BENCH_TRANSFER_CLIENTS=coffer) while working on one, then no ratios. */
const CLIENTS_RUN = list('BENCH_TRANSFER_CLIENTS', CLIENTS.join(',')) as ClientName[];
const log = progressLog('transfers-bench');

/** What the issue asks of Coffer against the faster tool, per folder. */
const TARGET_VS_FASTER: Record<string, { min: number; text: string }> = {
  small: { min: 2, text: '>= 2x the faster tool' },
  medium: { min: 1, text: '>= 1x the faster tool (the issue names small and large only)' },
  large: { min: 1, text: '>= 1x the faster tool' },
};

async function emptyBucket(target: Target, bucket: string): Promise<void> {
  // Segments of large objects live in buckets of their own on Swift (`<bucket>_segments`, `<bucket>+segments`).
  const buckets = (await target.admin.listContainers()).map((c) => c.name).filter((n) => n === bucket || n.startsWith(`${bucket}_`) || n.startsWith(`${bucket}+`));
  for (const b of buckets) {
    for (;;) {
      const names: string[] = [];
      for await (const page of target.admin.listFolder(b, { delimiter: '' })) for (const e of page.entries) if (e.kind === 'object') names.push(e.name);
      if (names.length === 0) break;
      for (let i = 0; i < names.length; i += 1000) await target.admin.deleteMany(b, names.slice(i, i + 1000));
    }
    await target.admin.deleteContainer(b);
  }
  target.reclaim();
}

async function countObjects(target: Target, bucket: string, prefix: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for await (const page of target.admin.listFolder(bucket, { prefix, delimiter: '' })) {
    for (const e of page.entries) {
      if (e.kind !== 'object') continue;
      files++;
      bytes += e.size;
    }
  }
  return { files, bytes };
}

/** Nothing of the previous run still being written back, so each run starts from the same disk. */
const settleDisk = () => execFileSync('sync');

type Figures = Record<Direction, Record<ClientName, RunFigures[]>>;

/**
 * A dataset of many files is cleaned up only after all its runs: files deleted before a run slow
 * that run's file creations on some disks. ext4 without a journal, as on this project's CI
 * machines, will not reuse an inode freed in the last 60 s, or the last 300 s while its inode
 * table block is not yet written back (fs/ext4/ialloc.c, recently_deleted), and looks at each
 * free one in turn: 10,000 files of 4 KiB created within minutes of 10,000 deletions cost 2-7x
 * the kernel CPU, for every client (measured here, `perf`: find_inode_bit, recently_deleted).
 * So a run is only fair 5 minutes after the last mass deletion on the disk, this bench's own
 * clean-up included; `systemCpuMsPerMiB` shows when one was not. Nothing of a dataset of many
 * files is deleted on this disk until the bench ends: the downloaded folders go with the bench's
 * directory, the objects with the server's store (coffer serve's is in that directory, Swift's
 * with its run). Deleted after each dataset, the 60,000 files of `coffer serve`'s small folder
 * came within those minutes of the medium folder's and of RGW's small folder's downloads. RGW's
 * objects are deleted after each run (its memstore is memory, not this disk, and holds 4 GiB:
 * three rounds of the medium folder, kept to the dataset's end, filled it and stalled RGW), as
 * are large files (a few deletions, and the disk used stays bounded). Each target's downloads go
 * to folders of their own (below), kept to the end too: three rounds of the medium folder are
 * 9 GiB of downloads a target, 27 GiB for all three.
 */
const manyFiles = (d: Dataset) => d.files >= 100;

/** Who moves a dataset: its tenth is there for Coffer's memory only. */
const clientsFor = (d: Dataset): ClientName[] => (d.name === 'small-tenth' ? CLIENTS_RUN.filter((c) => c === 'coffer') : CLIENTS_RUN);

async function measureDataset(target: Target, d: Dataset, scratch: string): Promise<Figures> {
  const figures: Figures = { up: { coffer: [], rclone: [], aws: [] }, down: { coffer: [], rclone: [], aws: [] } };
  const clients = clientsFor(d);
  // A large file goes at once (the disk used stays bounded), its bucket with it.
  const few = !manyFiles(d);
  // Objects in memory (RGW's memstore) go after each run; many files on this disk stay to the end.
  const emptyAfterRun = few || !target.storesOnThisDisk;
  for (let r = 0; r < ROUNDS; r++) {
    const order = clients.map((_, i) => clients[(i + r) % clients.length]!);
    for (const client of order) {
      const bucket = `bench-${client}-${d.name}-${r}`;
      await target.admin.createContainer(bucket);
      try {
        settleDisk();
        const up = await runClient(client, target, d, bucket, d.dir, 'up', scratch);
        const stored = await countObjects(target, bucket, `${d.name}/`);
        if (stored.files !== d.files || stored.bytes !== d.bytes) throw new Error(`${client} up: ${stored.files} objects, ${stored.bytes} bytes stored of ${d.files}, ${d.bytes}`);
        figures.up[client].push(up);
        log(`${target.name} ${d.name} ${client} up: ${round(d.bytes / MiB / up.seconds, 1)} MiB/s in ${round(up.seconds, 1)} s`);
        // A folder of its own for each target: into one that holds the same files already (a
        // former target's run), `rclone copy` downloads nothing (same size and modification time:
        // a HEAD per object, then "Unchanged skipping"), and the others replace every file.
        const out = join(scratch, `out-${target.name}-${client}-${r}`);
        mkdirSync(out, { recursive: true });
        settleDisk();
        const down = await runClient(client, target, d, bucket, out, 'down', scratch);
        const written = tally(join(out, d.name));
        if (few) rmSync(out, { recursive: true, force: true });
        if (written.files !== d.files || written.bytes !== d.bytes) throw new Error(`${client} down: ${written.files} files, ${written.bytes} bytes written of ${d.files}, ${d.bytes}`);
        figures.down[client].push(down);
        log(`${target.name} ${d.name} ${client} down: ${round(d.bytes / MiB / down.seconds, 1)} MiB/s in ${round(down.seconds, 1)} s`);
      } finally {
        if (emptyAfterRun) await emptyBucket(target, bucket);
      }
    }
  }
  return figures;
}

function summarise(d: Dataset, runs: RunFigures[]) {
  const seconds = median(runs.map((x) => x.seconds));
  const serverCpu = median(runs.map((x) => x.serverCpuSeconds));
  return {
    MiBps: round(d.bytes / MiB / seconds, 1),
    filesPerSec: round(d.files / seconds, 1),
    seconds: round(seconds, 2),
    cpuMsPerMiB: round((median(runs.map((x) => x.cpuSeconds)) * 1000) / (d.bytes / MiB), 2),
    systemCpuMsPerMiB: round((median(runs.map((x) => x.systemCpuSeconds)) * 1000) / (d.bytes / MiB), 2),
    serverCpuMsPerMiB: round((serverCpu * 1000) / (d.bytes / MiB), 2),
    serverCpuMsPerFile: round((serverCpu * 1000) / d.files, 2),
    serverCpuSeconds: round(serverCpu, 2),
    peakRssMiB: round(median(runs.map((x) => x.peakRssMiB)), 1),
    ...(runs[0]?.verified !== undefined ? { verified: Math.min(...runs.map((x) => x.verified!)) } : {}),
    runs: runs.length,
  };
}

/**
 * On a machine the server shares, no client can be faster than the server's own CPU for the
 * folder spread over every core: the least it took for any client, divided by the cores, is a
 * floor on the time, and the faster tool's time over that floor the most any client can reach
 * against it here. Above a target, the target is out of reach on this machine whatever the client does.
 */
function serverCeiling(label: string, s: Record<string, { serverCpuSeconds: number }>, fasterSeconds: number): Ratio {
  const cores = os.cpus().length;
  const floor = Math.min(...Object.values(s).map((x) => x.serverCpuSeconds)) / cores;
  return { name: `${label}: the most any client could reach vs the faster tool (the server's own CPU for this folder, ${round(floor, 1)} s over ${cores} cores, is the least time it can take)`, value: round(fasterSeconds / Math.max(floor, 1e-3)), target: 'informational' };
}

async function startTarget(name: string, root: string, largestBytes: number): Promise<Target | string> {
  if (name === 'coffer') return startCofferTarget(root, log);
  // One client's large object at a time (deleted and collected after each), plus room for the rest.
  if (name === 'rgw') return startRgwTarget(Math.max(2 * 1024 ** 3, 2 * largestBytes));
  if (name === 'swift') return startSwiftTarget();
  throw new Error(`unknown target ${name}`);
}

const root = mkdtempSync(join(os.tmpdir(), 'coffer-transfers-bench-'));
const load0 = os.loadavg();
const ticks0 = machineTicks();
try {
  log(`writing inputs: ${WITH_TENTH.join(', ')}`);
  const datasets = makeDatasets(join(root, 'inputs'), WITH_TENTH);
  const results: Record<string, unknown> = {};
  const skipped: Record<string, string> = {};
  const ratios: Ratio[] = [];
  for (const name of TARGETS) {
    const target = await startTarget(name, root, Math.max(...datasets.map((d) => d.bytes)));
    if (typeof target === 'string') {
      skipped[name] = target;
      log(`${name} skipped: ${target}`);
      continue;
    }
    try {
      const perTarget: Record<string, unknown> = {};
      for (const d of datasets) {
        const figures = await measureDataset(target, d, join(root, 'scratch'));
        const perDirection: Record<string, unknown> = {};
        for (const direction of ['up', 'down'] as const) {
          const s = Object.fromEntries(clientsFor(d).map((c) => [c, summarise(d, figures[direction][c])]));
          perDirection[direction] = s;
          if (clientsFor(d).length < CLIENTS.length) continue;
          const label = `${name} ${d.name} ${direction}`;
          // From the times, not the MiB/s rounded to 0.1: 10,000 × 4 KiB at 0.6 MiB/s each made 153 and 144 files/s a ratio of 1.
          const faster = Math.min(s.rclone!.seconds, s.aws!.seconds);
          const goal = TARGET_VS_FASTER[d.name]!;
          ratios.push({ name: `${label}: coffer vs the faster tool`, value: round(faster / s.coffer!.seconds), target: goal.text });
          ratios.push({ name: `${label}: coffer vs rclone`, value: round(s.rclone!.seconds / s.coffer!.seconds), target: 'informational' });
          ratios.push({ name: `${label}: coffer vs aws`, value: round(s.aws!.seconds / s.coffer!.seconds), target: 'informational' });
          ratios.push(serverCeiling(label, s, faster));
        }
        perTarget[d.name] = perDirection;
      }
      results[name] = perTarget;
      const rss = (d: string, direction: Direction) => ((perTarget[d] as Record<Direction, Record<ClientName, { peakRssMiB: number }>> | undefined)?.[direction].coffer.peakRssMiB);
      for (const direction of ['up', 'down'] as const) {
        const many = rss('small', direction);
        const tenth = rss('small-tenth', direction);
        const medium = rss('medium', direction);
        if (many !== undefined && tenth !== undefined) {
          ratios.push({ name: `${name} ${direction}: coffer peak RSS, the small folder vs its tenth (same file size, ten times the files)`, value: round(many / tenth), target: '<= 1.1 (memory flat in the file count)' });
        }
        if (many !== undefined && medium !== undefined) {
          ratios.push({ name: `${name} ${direction}: coffer peak RSS, small files vs medium (10,000 files of 4 KiB vs 1,000 of 1 MiB)`, value: round(many / medium), target: 'informational' });
        }
      }
    } finally {
      await target.stop();
    }
  }
  const ticks1 = machineTicks();
  const machine = {
    cores: os.cpus().length,
    loadAverageAtStart: round(load0[0]!, 2),
    loadAverageAtEnd: round(os.loadavg()[0]!, 2),
    stealPercent: round((100 * (ticks1.steal - ticks0.steal)) / Math.max(1, ticks1.total - ticks0.total), 2),
  };
  const settings = { rounds: ROUNDS, datasets: datasets.map(({ name, files, bytes }) => ({ name, files, bytes })) };
  process.stdout.write(`${JSON.stringify({ settings, machine, ...(Object.keys(skipped).length ? { skipped } : {}), results, ratios }, null, 2)}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
