/** What the engine bench's sections share: the account, a worker pool that times each call, and the section context. */
import { performance } from 'node:perf_hooks';
import { Engine, type EngineOptions } from '../../../src-main/engine/index.js';
import { percentile, round, type RatioList } from '../stats.js';

export const MiB = 1024 * 1024;
export const ACCOUNT = 'bench$bencher';

/** Handed to each section by engine-bench.ts. */
export interface SectionContext {
  /** A new, empty directory under the run's temp directory (removed at the end). */
  dirFor(label: string): string;
  log(msg: string): void;
  ratios: RatioList;
}

export interface OpStats {
  ops: number;
  seconds: number;
  opsPerSec: number;
  p50ms: number;
  p99ms: number;
  maxMs: number;
  /** CPU time of this whole process (all its threads) per operation: less sensitive to other load on the machine than wall time. */
  cpuUsPerOp: number;
}

/** Runs `fn(0..n-1)` with `concurrency` async workers; per-call latency and overall rate. */
export async function pool(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<OpStats> {
  const lat = new Float64Array(n);
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const s = performance.now();
      await fn(i);
      lat[i] = performance.now() - s;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const sorted = Array.from(lat).sort((a, b) => a - b);
  return {
    ops: n,
    seconds: round(seconds, 3),
    opsPerSec: round(n / seconds, 1),
    p50ms: round(percentile(sorted, 50), 3),
    p99ms: round(percentile(sorted, 99), 3),
    maxMs: round(sorted.at(-1)!, 3),
    cpuUsPerOp: round((cpu.user + cpu.system) / n, 1),
  };
}

export async function openEngine(dir: string, options: Partial<EngineOptions> = {}): Promise<Engine> {
  const engine = await Engine.open(dir, options);
  if (!engine.findAccount(ACCOUNT)) await engine.createAccount({ id: ACCOUNT, displayName: 'Bench' });
  return engine;
}

export async function drain(body: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of body) n += c.length;
  return n;
}
