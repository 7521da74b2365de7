// Daemons of the reference servers: each in its own session and process group (Swift's daemons
// kill their own group on shutdown, so none may share the test runner's), its output in a log
// file, its group id written down at once so whoever stops the run finds every one of them.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, openSync, closeSync, readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** A daemon we started: its process group id (= its pid) and where its output goes. */
export interface Daemon {
  name: string;
  pgid: number;
  log: string;
  /** Resolves with the exit code when the group leader exits. */
  exited: Promise<number | null>;
}

/**
 * Starts `command` as the leader of a new session (node's `detached` is setsid(2)), output to
 * `log`, and appends its group id to `groupsFile` before anything else can go wrong.
 */
export function startDaemon(name: string, command: string, args: string[], opts: { log: string; groupsFile: string; cwd?: string; env?: NodeJS.ProcessEnv }): Daemon {
  const fd = openSync(opts.log, 'a');
  try {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], cwd: opts.cwd, env: { ...process.env, ...opts.env } });
    if (child.pid === undefined) throw new Error(`${name}: ${command} did not start`);
    child.unref();
    let listed = false;
    try {
      appendFileSync(opts.groupsFile, `${child.pid} ${name}\n`);
      listed = true;
    } catch {
      // The run's directory is gone: it was stopped while this server was starting.
    }
    // A run being stopped (its owner died) takes no new daemons: the stopper may have read the list already.
    if (!listed || existsSync(closedMarkerOf(opts.groupsFile))) {
      process.kill(-child.pid, 'SIGKILL');
      throw new Error(`${name}: the test run was stopped while it started`);
    }
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', () => resolve(null));
    });
    return { name, pgid: child.pid, log: opts.log, exited };
  } finally {
    closeSync(fd);
  }
}

/** Runs a set-up command to its end (ring builder, radosgw-admin, …); its output joins `log`. */
export function runTool(command: string, args: string[], opts: { log: string; timeoutMs?: number; allowFail?: boolean }): string {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: opts.timeoutMs ?? 60_000 });
  appendFileSync(opts.log, `$ ${command} ${args.join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  if ((r.status !== 0 || r.error) && !opts.allowFail) {
    throw new Error(`${command} ${args.slice(0, 3).join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr || r.stdout || '').trim().slice(-800)}`);
  }
  return r.stdout ?? '';
}

const alive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Written next to the groups file by whoever stops the run, before it reads the list. */
export const closedMarkerOf = (groupsFile: string) => `${groupsFile}.closed`;

/** The groups written to `groupsFile` (one `<pgid> <name>` a line). */
export function groupsIn(groupsFile: string): { pgid: number; name: string }[] {
  if (!existsSync(groupsFile)) return [];
  return readFileSync(groupsFile, 'utf8')
    .split('\n')
    .map((l) => /^(\d+) (.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pgid: Number(m[1]), name: m[2]! }));
}

/** SIGTERM to each group, SIGKILL to what is left after `graceMs`; returns once none is alive. */
export async function stopGroups(pgids: number[], graceMs = 5000): Promise<void> {
  const signal = (pgid: number, sig: NodeJS.Signals) => {
    try {
      process.kill(-pgid, sig);
    } catch {
      // Already gone.
    }
  };
  for (const g of pgids) signal(g, 'SIGTERM');
  const until = Date.now() + graceMs;
  while (pgids.some(alive) && Date.now() < until) await sleep(100);
  for (const g of pgids.filter(alive)) signal(g, 'SIGKILL');
  while (pgids.some(alive)) await sleep(50);
}

/** A free TCP port on 127.0.0.1 (bound, then released for the daemon to take). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/**
 * Polls `ready` until it returns true; fails with the last error and the tail of `log` when
 * `daemon` exits first or `timeoutMs` passes, so a server that cannot start says why.
 */
export async function waitUntil(what: string, ready: () => Promise<boolean>, opts: { timeoutMs: number; daemons?: Daemon[]; log?: string }): Promise<void> {
  const until = Date.now() + opts.timeoutMs;
  let dead: Daemon | undefined;
  for (const d of opts.daemons ?? []) void d.exited.then(() => (dead ??= d));
  let last = '';
  while (Date.now() < until) {
    if (dead) throw new Error(`${what}: ${dead.name} exited while starting. ${tail(dead.log)}`);
    try {
      if (await ready()) return;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(150);
  }
  throw new Error(`${what} did not answer within ${opts.timeoutMs / 1000} s${last ? ` (${last})` : ''}. ${opts.log ? tail(opts.log) : ''}`);
}

export function tail(log: string, chars = 1500): string {
  try {
    return `Last lines of ${log}:\n${readFileSync(log, 'utf8').slice(-chars)}`;
  } catch {
    return '';
  }
}

/**
 * A small detached process that stops the groups in `groupsFile` when `ownerPid` dies (a test
 * runner killed or interrupted before its teardown) or after `maxSeconds` at the latest.
 */
export function startWatchdog(ownerPid: number, groupsFile: string, removeDir: string, maxSeconds: number): void {
  const script = fileURLToPath(new URL('./watchdog.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, String(ownerPid), groupsFile, removeDir, String(maxSeconds)], { detached: true, stdio: 'ignore' });
  child.unref();
}
