/**
 * The HTTP load generator of the benchmark: keep-alive connections of our own (connection.ts),
 * N requests issued by `concurrency` workers, per-request latency recorded.
 * Requests are prepared (and signed) before the clock starts, so signing costs the generator
 * nothing while it measures; a signature or token stays valid far longer than a phase may run.
 */
import { performance } from 'node:perf_hooks';
import { percentile, round } from '../stats.js';
import { Connection } from './connection.js';
import type { WireRequest as Req, WireResponse as Res } from './connection.js';

/** A prepared request and what came back (defined with the connection that sends them). */
export type { Req, Res };

export interface LoadStats {
  ops: number;
  /** Requests not issued because the phase's time limit passed. */
  skipped: number;
  errors: number;
  firstError?: string;
  seconds: number;
  opsPerSec: number;
  p50ms: number;
  p99ms: number;
  maxMs: number;
  bytes: number;
}

/** What one batch of requests gave; batches of one operation are merged by `summarize`. */
export interface RawRun {
  latencies: number[];
  skipped: number;
  errors: number;
  firstError?: string;
  seconds: number;
  bytes: number;
}

/** Rate and latency percentiles over one or more batches (the rate counts only time spent sending). */
export function summarize(runs: RawRun[]): LoadStats {
  const lat = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((t, r) => t + r.seconds, 0);
  const firstError = runs.find((r) => r.firstError)?.firstError;
  return {
    ops: lat.length,
    skipped: runs.reduce((t, r) => t + r.skipped, 0),
    errors: runs.reduce((t, r) => t + r.errors, 0),
    ...(firstError ? { firstError } : {}),
    seconds: round(seconds, 3),
    opsPerSec: round(lat.length / seconds, 1),
    p50ms: round(percentile(lat, 50), 3),
    p99ms: round(percentile(lat, 99), 3),
    maxMs: round(lat.at(-1) ?? NaN, 3),
    bytes: runs.reduce((t, r) => t + r.bytes, 0),
  };
}

/** A 2xx status: what every measured request must get back. */
export const ok2xx = (status: number) => status >= 200 && status < 300;

/** Makes (and signs) `n` requests one after another, before the clock starts. */
export async function prepare(n: number, make: (i: number) => Promise<Req>): Promise<Req[]> {
  const out: Req[] = [];
  for (let i = 0; i < n; i++) out.push(await make(i));
  return out;
}

export class LoadGenerator {
  /** Keep-alive connections not serving a request right now. */
  private readonly idle: Connection[] = [];

  constructor(
    readonly port: number,
    private readonly concurrency: number,
  ) {}

  /**
   * One request; resolves with status and byte count once the response body has been read. A
   * request on a reused keep-alive socket that the server had just closed (s3rver closes idle
   * sockets after 5 s) fails before any answer: it is sent once more on a fresh socket.
   */
  async send(r: Req, opts: { keepBody?: boolean; timeoutMs?: number } = {}): Promise<Res> {
    try {
      return await this.sendOnce(r, opts);
    } catch (err) {
      if (!(err as { reusedSocket?: boolean }).reusedSocket || typeof r.body === 'function') throw err;
      return this.sendOnce(r, opts);
    }
  }

  private async sendOnce(r: Req, opts: { keepBody?: boolean; timeoutMs?: number }): Promise<Res> {
    let conn = this.idle.pop();
    while (conn?.closed) conn = this.idle.pop();
    conn ??= new Connection(this.port);
    const res = await conn.send(r, opts.keepBody ?? false, opts.timeoutMs ?? 120_000);
    if (!conn.closed && this.idle.length < this.concurrency) this.idle.push(conn);
    else conn.close();
    return res;
  }

  /**
   * Sends `reqs` with `concurrency` workers; a response status outside `ok` counts as an error.
   * Past `deadline` (a performance.now() time) no new request starts; the rest count as skipped.
   */
  async run(reqs: Req[], o: { concurrency: number; deadline: number; ok: (status: number) => boolean }): Promise<RawRun> {
    const lat: number[] = [];
    let next = 0;
    const out: RawRun = { latencies: lat, skipped: 0, errors: 0, seconds: 0, bytes: 0 };
    const t0 = performance.now();
    const worker = async () => {
      for (let i = next++; i < reqs.length; i = next++) {
        if (performance.now() > o.deadline) return;
        const s = performance.now();
        try {
          const res = await this.send(reqs[i]!);
          out.bytes += res.bytes;
          if (!o.ok(res.status)) {
            out.errors++;
            out.firstError ??= `${reqs[i]!.method} ${reqs[i]!.path}: HTTP ${res.status}`;
          }
        } catch (err) {
          out.errors++;
          out.firstError ??= `${reqs[i]!.method} ${reqs[i]!.path}: ${(err as Error).message}`;
        }
        lat.push(performance.now() - s);
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    out.seconds = (performance.now() - t0) / 1000;
    out.skipped = reqs.length - lat.length;
    return out;
  }

  close(): void {
    for (const conn of this.idle.splice(0)) conn.close();
  }
}
