/**
 * Engine benchmark: `npm run bench`. A measurement, not a test: it prints ONE JSON object on
 * stdout (progress on stderr) with the figures and, for every performance goal, a ratio computed
 * from figures measured in this same run next to its target. No assertions.
 *
 * Sections (env BENCH_SECTIONS=small,large,listing picks a subset; BENCH_LIST_SCALE=0.01 scales the
 * listing container down for a quick try; defaults are the real run):
 *   small   - 10,000 x 4 KiB put then get at concurrency 16, inline (default) and blob files (inlineMax 0)
 *   large   - one 256 MiB object in 1 MiB chunks vs raw FileHandle write+fsync / read / in-memory MD5
 *   listing - 1,000,000-object container (900k under big/): fill rate, then 1,000-entry delimiter
 *             pages vs the same page from 1,000-object containers
 *
 * Engine options are the defaults (fsync on) except where a figure says otherwise. Data lives in a
 * temp directory under os.tmpdir(), removed at the end.
 */
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SectionContext } from './engine/common.js';
import { benchLarge } from './engine/large.js';
import { benchListing } from './engine/listing.js';
import { benchSmall } from './engine/small.js';
import { progressLog, RatioList, round } from './stats.js';

const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? 'small,large,listing').split(',').map((s) => s.trim()));

const runStart = performance.now();
const log = progressLog('bench');
const root = mkdtempSync(join(os.tmpdir(), 'coffer-bench-'));
let dirCount = 0;
const ratios = new RatioList();

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
  const ctx: SectionContext = { dirFor: (label) => join(root, `${++dirCount}-${label}`), log, ratios };
  try {
    if (SECTIONS.has('small')) out.small = await benchSmall(ctx);
    if (SECTIONS.has('large')) out.large = await benchLarge(ctx);
    if (SECTIONS.has('listing')) out.listing = await benchListing(ctx);
  } finally {
    log(`removing ${root}`);
    rmSync(root, { recursive: true, force: true });
  }
  (out.machine as Record<string, unknown>).loadavgAtEnd = os.loadavg().map((x) => round(x, 2));
  (out.machine as Record<string, unknown>).note =
    'other work may share this machine: compare loadavg with cpus; cpu figures (cpuUsPerOp, medianCpuMs) are less affected by it than wall-time ones';
  out.ratios = ratios.items;
  out.totalSeconds = round((performance.now() - runStart) / 1000, 1);
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

await main();
