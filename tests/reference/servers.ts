// Starting the reference servers, for tests and benchmarks alike, without vitest:
// - `startReference(kind)`: a server of one's own, stopped by the handle (a benchmark's way);
// - `sharedReference(runDir, kind)`: one server per run directory, started by whichever process
//   asks first (test files run in parallel worker processes) and found by the others through a
//   state file; `stopRun(runDir)` stops everything a run started.
// Every daemon's process group is written to `<dir>/groups` as it starts, and a watchdog process
// stops them if the owner dies first, so nothing outlives a run, even one killed midway.
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closedMarkerOf, groupsIn, startWatchdog, stopGroups } from './processes.js';
import { RGW_COMMANDS, startRgw, type RgwEndpoints, type RgwOptions } from './rgw.js';
import { startSwift, SWIFT_COMMANDS, type SwiftEndpoints } from './swift.js';

export type ReferenceKind = 'swift' | 'rgw';
export interface ReferenceEndpoints {
  swift: SwiftEndpoints;
  rgw: RgwEndpoints;
}

const COMMANDS: Record<ReferenceKind, string[]> = { swift: SWIFT_COMMANDS, rgw: RGW_COMMANDS };
export const PACKAGES: Record<ReferenceKind, string> = {
  swift: 'swift swift-proxy swift-account swift-container swift-object python3-swift memcached',
  rgw: 'ceph-mon ceph-osd radosgw',
};
const NAMES: Record<ReferenceKind, string> = { swift: 'OpenStack Swift', rgw: 'Ceph RGW' };
/** Longest a server may take to come up before its tests fail (RGW takes ~13 s on 2 cores). */
const START_TIMEOUT_MS = 180_000;
/** A watchdog stops a run's servers after this long whatever happens (CI's whole run is 90 minutes). */
const MAX_RUN_SECONDS = 2 * 3600;

function onPath(command: string): boolean {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/sbin']) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // Not in this directory.
    }
  }
  return false;
}

/** Why the server cannot run here (its commands missing), or undefined when it can. */
export function unavailableReason(kind: ReferenceKind): string | undefined {
  const missing = COMMANDS[kind].filter((c) => !onPath(c));
  return missing.length ? `${NAMES[kind]} is not installed (no ${missing.join(', ')}; apt-get install ${PACKAGES[kind]})` : undefined;
}

async function launch<K extends ReferenceKind>(kind: K, dir: string, groupsFile: string, rgwOptions?: RgwOptions): Promise<ReferenceEndpoints[K]> {
  const reason = unavailableReason(kind);
  if (reason) throw new Error(reason);
  mkdirSync(dir, { recursive: true });
  return (kind === 'swift' ? startSwift(dir, groupsFile) : startRgw(dir, groupsFile, rgwOptions)) as Promise<ReferenceEndpoints[K]>;
}

/**
 * A server of one's own in a fresh temp directory; `stop()` ends every process it started and
 * removes the directory. `groups()` lists its daemons' process groups (a benchmark sums their CPU).
 */
export async function startReference<K extends ReferenceKind>(kind: K, rgwOptions?: RgwOptions): Promise<{ endpoints: ReferenceEndpoints[K]; startMs: number; groups(): number[]; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `coffer-${kind}-`));
  const groupsFile = join(dir, 'groups');
  startWatchdog(process.pid, groupsFile, dir, MAX_RUN_SECONDS);
  const stop = () => stopRun(dir);
  const started = Date.now();
  try {
    const groups = () => groupsIn(groupsFile).map((g) => g.pgid);
    return { endpoints: await launch(kind, join(dir, kind), groupsFile, rgwOptions), startMs: Date.now() - started, groups, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

type State<K extends ReferenceKind> = { ok: true; endpoints: ReferenceEndpoints[K]; startMs: number } | { ok: false; error: string };

/**
 * The run's one server of this kind: started here if no other process has claimed it (an atomic
 * mkdir is the claim), else awaited through its state file. A failed start fails every caller
 * with the same reason. `ownerPid` is the process whose death stops the run's servers.
 */
export async function sharedReference<K extends ReferenceKind>(runDir: string, ownerPid: number, kind: K): Promise<ReferenceEndpoints[K]> {
  const stateFile = join(runDir, `${kind}.json`);
  let claimed = true;
  try {
    mkdirSync(join(runDir, `${kind}.claim`));
  } catch {
    claimed = false;
  }
  if (claimed) {
    startWatchdog(ownerPid, join(runDir, 'groups'), runDir, MAX_RUN_SECONDS);
    const started = Date.now();
    let state: State<K>;
    try {
      state = { ok: true, endpoints: await launch(kind, join(runDir, kind), join(runDir, 'groups')), startMs: Date.now() - started };
    } catch (err) {
      state = { ok: false, error: (err as Error).message };
    }
    writeFileSync(`${stateFile}.tmp`, JSON.stringify(state));
    renameSync(`${stateFile}.tmp`, stateFile);
  }
  const until = Date.now() + START_TIMEOUT_MS;
  while (!existsSync(stateFile)) {
    if (Date.now() > until) throw new Error(`${NAMES[kind]} was being started by another test file and did not come up within ${START_TIMEOUT_MS / 1000} s`);
    await sleep(200);
  }
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as State<K>;
  if (!state.ok) throw new Error(`${NAMES[kind]} did not start: ${state.error}`);
  return state.endpoints;
}

/** How long each of the run's servers took to start, for the run's closing line. */
export function startTimes(runDir: string): string[] {
  return (['swift', 'rgw'] as const).flatMap((kind) => {
    const file = join(runDir, `${kind}.json`);
    if (!existsSync(file)) return [];
    const s = JSON.parse(readFileSync(file, 'utf8')) as State<typeof kind>;
    return [s.ok ? `${NAMES[kind]} started in ${(s.startMs / 1000).toFixed(1)} s` : `${NAMES[kind]} failed to start`];
  });
}

/** Stops every daemon a run started (its listed process groups), then removes its directory. */
export async function stopRun(runDir: string): Promise<void> {
  const groupsFile = join(runDir, 'groups');
  if (existsSync(runDir)) writeFileSync(closedMarkerOf(groupsFile), '');
  await stopGroups(groupsIn(groupsFile).map((g) => g.pgid));
  rmSync(runDir, { recursive: true, force: true });
}
