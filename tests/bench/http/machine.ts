/** What the machine under the bench is doing: how long the disk takes to sync, what it writes, how much CPU the hypervisor steals. */
import { closeSync, existsSync, fdatasyncSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { percentile } from '../stats.js';

/**
 * Wall time of a 4 KiB write that grows a file, followed by fdatasync in `dir`, in µs (median
 * and 90th percentile): what waiting for the disk costs here. Growing, because Coffer's index and
 * the floor server's new files both make the file system journal a change with each sync.
 * Coffer's PUT waits for one such sync per batch of writes and s3rver never syncs, so the PUT
 * ratio against s3rver falls as this rises.
 */
export function syncLatency(dir: string, rounds = 200): { medianUs: number; p90Us: number } {
  const file = join(dir, `sync-probe-${process.pid}`);
  const fd = openSync(file, 'w');
  const page = Buffer.alloc(4096, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      writeSync(fd, page, 0, page.length, i * page.length);
      fdatasyncSync(fd);
      times.push((performance.now() - t0) * 1000);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  times.sort((a, b) => a - b);
  return { medianUs: Math.round(percentile(times, 50)), p90Us: Math.round(percentile(times, 90)) };
}

/** Total and steal jiffies of all CPUs from /proc/stat (zeros where it is not there). */
export function machineTicks(): { total: number; steal: number } {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 };
  }
}

export interface DiskCounters {
  writes: number;
  kib: number;
  flushes: number;
}

/** The /proc/diskstats name of the whole disk holding `dir` (a partition counts no flushes of its own). */
function diskOf(dir: string): string | undefined {
  try {
    const dev = statSync(dir).dev;
    const major = (dev >>> 8) & 0xfff;
    const minor = (dev & 0xff) | ((dev >>> 12) & 0xfff00);
    const sys = realpathSync(`/sys/dev/block/${major}:${minor}`);
    return basename(existsSync(join(sys, 'partition')) ? dirname(sys) : sys);
  } catch {
    return undefined;
  }
}

const disks = new Map<string, string | undefined>();

/**
 * Write requests completed, KiB written and cache flushes of the disk holding `dir`, for the
 * whole machine (zeros where /proc/diskstats or the disk is not there, e.g. on tmpfs). Coffer
 * syncs a batch of writes at a time, the floor server each file: per request, the floor flushes
 * several times as often, so its PUT rate follows the disk and Coffer's the CPU.
 */
export function diskCounters(dir: string): DiskCounters {
  if (!disks.has(dir)) disks.set(dir, diskOf(dir));
  const name = disks.get(dir);
  if (!name) return { writes: 0, kib: 0, flushes: 0 };
  try {
    const line = readFileSync('/proc/diskstats', 'utf8')
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find((f) => f[2] === name);
    if (!line) return { writes: 0, kib: 0, flushes: 0 };
    return { writes: Number(line[7]), kib: Number(line[9]) / 2, flushes: Number(line[18] ?? 0) };
  } catch {
    return { writes: 0, kib: 0, flushes: 0 };
  }
}
