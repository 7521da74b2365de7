/**
 * Runs a client as a child process under GNU time, which reports what the kernel counted for it:
 * user and system CPU and the peak RSS (getrusage of the waited-for child), next to our wall time.
 * The child has a process group of its own, so a run past its time limit is killed whole.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const TIME = '/usr/bin/time';

export interface ProcessFigures {
  seconds: number;
  /** User + system CPU of the child and everything it waited for. */
  cpuSeconds: number;
  systemCpuSeconds: number;
  peakRssMiB: number;
  stdout: string;
}

export function runMeasured(command: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number }): Promise<ProcessFigures> {
  const dir = mkdtempSync(join(os.tmpdir(), 'coffer-bench-time-'));
  const report = join(dir, 'rusage');
  return new Promise<ProcessFigures>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(TIME, ['-f', '%U %S %M', '-o', report, command, ...args], {
      env: opts.env,
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, opts.timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - t0) / 1000;
      try {
        if (code !== 0) throw new Error(`${command} ${args.slice(0, 3).join(' ')} … ended with ${signal ?? code}: ${stderr.trim().slice(-1500)}`);
        const [user, sys, maxKiB] = readFileSync(report, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
        resolve({ seconds, cpuSeconds: user! + sys!, systemCpuSeconds: sys!, peakRssMiB: maxKiB! / 1024, stdout });
      } catch (err) {
        reject(err as Error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
