/**
 * CPU time of the servers a benchmark measures, from /proc: one process of ours (coffer serve,
 * or a thread of it), or a reference server, which is several processes (Swift's proxy, account,
 * container and object servers and memcached; RGW's monitor, OSD and radosgw), each in a process
 * group of its own (tests/reference/servers.ts, groups()).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks are 10 ms. */
const TICK_MICROS = 10_000;

/** The fields after the command (state, ppid, pgrp, …); undefined where the file is not there (the process ended, or no /proc). */
function statFields(statFile: string): string[] | undefined {
  try {
    const stat = readFileSync(statFile, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** utime + stime from /proc/PID/stat or /proc/PID/task/TID/stat, µs; NaN where it is not there. */
export function cpuMicrosOf(statFile: string): number {
  const f = statFields(statFile);
  return f ? (Number(f[11]) + Number(f[12])) * TICK_MICROS : NaN;
}

/** CPU time (user + system, µs) of every live process in the given process groups, and of the children they reaped. */
export function groupCpuMicros(pgids: number[]): number {
  const wanted = new Set(pgids);
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(`/proc/${entry}/stat`);
    // utime and stime, then the same for the children it reaped (Swift's updaters fork one per sweep): their work is the server's too.
    if (f && wanted.has(Number(f[2]))) total += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MICROS;
  }
  return total;
}
