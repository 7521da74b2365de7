/**
 * One measured transfer of one folder by one client: Coffer (its transfer service in an app
 * process of its own, coffer-client.ts), rclone or the AWS CLI, each a fresh process. Every run
 * is checked afterwards (the objects listed, or the files written, counted and sized), so a
 * client that silently skipped work cannot look fast.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import type { Dataset } from './inputs.js';
import { runMeasured } from './measured-process.js';
import type { Target } from './targets.js';
import { awsRun, rcloneRun, type Direction } from './tools.js';

export const CLIENTS = ['coffer', 'rclone', 'aws'] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface RunFigures {
  seconds: number;
  /** The client's CPU: the whole process for a tool, the transfer for Coffer's running app. */
  cpuSeconds: number;
  /** The kernel's part of cpuSeconds: file creation and writes, sockets. */
  systemCpuSeconds: number;
  peakRssMiB: number;
  /** Coffer: items the service verified (uploads: MD5 or composite ETag; downloads: MD5). */
  verified?: number;
  /** What the run cost the server: coffer serve's process, or all of a reference server's. */
  serverCpuSeconds: number;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Generous: a stuck client ends the run instead of hanging it. */
export const timeoutFor = (d: Dataset) => 120_000 + d.files * 100 + d.bytes / 2048;

async function runCoffer(target: Target, d: Dataset, bucket: string, localDir: string, direction: Direction, scratch: string): Promise<ClientFigures> {
  const dataDir = join(scratch, 'coffer-app');
  rmSync(dataDir, { recursive: true, force: true });
  const arg = JSON.stringify({ connection: target.connection, container: bucket, direction, localDir, prefix: `${d.name}/`, dataDir });
  const script = fileURLToPath(new URL('./coffer-client.ts', import.meta.url));
  // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where Coffer's time goes.
  const nodeArgs = (process.env.BENCH_TRANSFER_COFFER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const run = await runMeasured(process.execPath, [...nodeArgs, '--import', 'tsx', script, arg], { env: process.env, cwd: repoRoot, timeoutMs: timeoutFor(d) });
  rmSync(dataDir, { recursive: true, force: true });
  const inner = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as RunFigures & { items: number };
  if (inner.items !== d.files) throw new Error(`coffer ${direction}: ${inner.items} items for ${d.files} files`);
  return { seconds: inner.seconds, cpuSeconds: inner.cpuSeconds, systemCpuSeconds: inner.systemCpuSeconds, peakRssMiB: inner.peakRssMiB, verified: inner.verified };
}

/**
 * `localDir`: up, the dataset's folder; down, the folder the prefix is written into (the
 * dataset's name under it, as every client lays it out).
 */
export async function runClient(client: ClientName, target: Target, d: Dataset, bucket: string, localDir: string, direction: Direction, scratch: string): Promise<RunFigures> {
  const server0 = target.serverCpuMicros();
  const figures = await runOne(client, target, d, bucket, localDir, direction, scratch);
  return { ...figures, serverCpuSeconds: (target.serverCpuMicros() - server0) / 1e6 };
}

type ClientFigures = Omit<RunFigures, 'serverCpuSeconds'>;

async function runOne(client: ClientName, target: Target, d: Dataset, bucket: string, localDir: string, direction: Direction, scratch: string): Promise<ClientFigures> {
  if (client === 'coffer') return runCoffer(target, d, bucket, localDir, direction, scratch);
  const home = join(scratch, `home-${client}`);
  const dir = direction === 'up' ? localDir : join(localDir, d.name);
  const tool = (client === 'rclone' ? rcloneRun : awsRun)(target, home, bucket, d.name, dir, direction);
  try {
    const run = await runMeasured(tool.command, tool.args, { env: tool.env, timeoutMs: timeoutFor(d) });
    return { seconds: run.seconds, cpuSeconds: run.cpuSeconds, systemCpuSeconds: run.systemCpuSeconds, peakRssMiB: run.peakRssMiB };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
