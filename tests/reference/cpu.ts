/**
 * A reference server's CPU time: it is several processes (Swift's proxy, account, container and
 * object servers and memcached; RGW's monitor, OSD and radosgw), each started in a process group
 * of its own (servers.ts, groups()), so their CPU is summed from /proc by process group.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system, µs) of every live process in the given process groups, and of the children they reaped. */
export function groupCpuMicros(pgids: number[]): number {
  const wanted = new Set(pgids);
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state, ppid, pgrp, …, utime (14th field of the line), stime, and the
      // same for children it has reaped (Swift's updaters fork one per sweep): their work is the server's too.
      if (wanted.has(Number(fields[2]))) total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10_000;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}
