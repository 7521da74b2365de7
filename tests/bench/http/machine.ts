/** What the machine under the bench is doing: how long the disk takes to sync, how much CPU the hypervisor steals. */
import { closeSync, fdatasyncSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
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
