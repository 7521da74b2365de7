/**
 * Starts the servers the HTTP benchmark measures, each as its own process on a free loopback
 * port with its own temp directory: `coffer serve` (default options: fsync on), s3rver and the
 * floor server. Every child is killed by `stop()` (and on exit of the bench process).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'node:http';
import { cpuMicrosOf } from '../proc-cpu.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export interface Child {
  port: number;
  process: ChildProcess;
  /** CPU time (user + system, all threads) the server process has used so far, in microseconds. */
  cpuMicros(): number;
  /** The same for its main thread alone (the one running JavaScript). */
  mainThreadCpuMicros(): number;
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
});

function track(child: ChildProcess, port: number): Child {
  started.add(child);
  return {
    port,
    process: child,
    cpuMicros: () => cpuMicrosOf(`/proc/${child.pid}/stat`),
    mainThreadCpuMicros: () => cpuMicrosOf(`/proc/${child.pid}/task/${child.pid}/stat`),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      started.delete(child);
    },
  };
}

/** A helper script that prints {"port":N} once it listens. */
function startScript(script: string, args: string[]): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${script} did not start`))), START_TIMEOUT_MS);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(track(child, Number(m[1])));
      }
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${script} exited with ${code}`))));
  });
}

export const startFloor = (dir: string) => startScript('./floor-server.ts', [dir]);
export const startS3rver = (dir: string) => startScript('./s3rver-server.ts', [dir]);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/info', method: 'GET', agent: false }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 0) < 500);
    });
    req.once('error', () => resolve(false));
    req.end();
  });
}

let compiled = false;

/**
 * Compiles the main process as `npm start` does (`tsc -b`, incremental: quick when nothing
 * changed), so the bench measures the JavaScript Coffer runs, not tsx's on-the-fly transform of
 * the sources (which names every function it creates at run time, 7-16% more CPU per request).
 */
function compileMain(): void {
  if (compiled) return;
  execFileSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.main.json'], { cwd: repoRoot, stdio: 'inherit' });
  compiled = true;
}

/**
 * `coffer serve --data DIR --port P --quiet` from the compiled CLI, with default engine options.
 * With `cpuProfDir`, the server runs under `--cpu-prof` and writes its profile there when it
 * exits (SIGTERM from stop()).
 */
export async function startCoffer(dataDir: string, opts: { cpuProfDir?: string } = {}): Promise<Child> {
  compileMain();
  const port = await freePort();
  const prof = opts.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProfDir] : [];
  const child = spawn(process.execPath, [...prof, 'dist/src-main/cli.js', 'serve', '--data', dataDir, '--port', String(port), '--quiet'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const handle = track(child, port);
  const until = Date.now() + START_TIMEOUT_MS;
  while (!(await answers(port))) {
    if (child.exitCode !== null) throw new Error(`coffer serve exited with ${child.exitCode}`);
    if (Date.now() > until) {
      await handle.stop();
      throw new Error('coffer serve did not answer in time');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return handle;
}
