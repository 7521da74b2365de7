/** The http bench's large phase: PUT then GET of one large object (256 MiB by default) on every target. */
import { performance } from 'node:perf_hooks';
import { median, round } from '../stats.js';
import { ok2xx } from './load.js';
import type { PhaseOptions, Runner } from './small-phase.js';

const MiB = 1024 * 1024;

/** PUT then GET of one large object on every target, 3 rounds with the targets alternating; medians kept. */
export async function largePhase(runners: Runner[], mib: number, { limitMs, log }: Pick<PhaseOptions, 'limitMs' | 'log'>) {
  const ROUNDS = 3;
  const chunk = Buffer.alloc(MiB, 'coffer-large-object ');
  const size = mib * MiB;
  const stream = async (write: (b: Buffer) => Promise<void>) => {
    for (let i = 0; i < mib; i++) await write(chunk);
  };
  const container = (r: Runner) => `large-${r.t.label}`;
  for (const r of runners) await r.gen.send(await r.t.createContainer(container(r)));
  const put = new Map<Runner, number[]>(runners.map((r) => [r, []]));
  const get = new Map<Runner, number[]>(runners.map((r) => [r, []]));
  const deadline = performance.now() + 3 * limitMs;
  for (let pass = 0; pass < ROUNDS && performance.now() < deadline; pass++) {
    for (let k = 0; k < runners.length; k++) {
      const r = runners[(pass + k) % runners.length]!;
      log(`${r.t.label}: PUT and GET of ${mib} MiB (round ${pass + 1} of ${ROUNDS})`);
      let t0 = performance.now();
      const res = await r.gen.send(await r.t.put(container(r), 'large.bin', { size, stream }), { timeoutMs: limitMs });
      put.get(r)!.push(performance.now() - t0);
      if (!ok2xx(res.status)) throw new Error(`${r.t.label}: large PUT: HTTP ${res.status}`);
      t0 = performance.now();
      const got = await r.gen.send(await r.t.get(container(r), 'large.bin'), { timeoutMs: limitMs });
      get.get(r)!.push(performance.now() - t0);
      if (got.status !== 200 || got.bytes !== size) throw new Error(`${r.t.label}: large GET: HTTP ${got.status}, ${got.bytes} bytes`);
    }
  }
  const mibps = (ms: number) => round(mib / (ms / 1000), 1);
  const out: Record<string, { putMiBps: number; getMiBps: number; putRunsMiBps: number[]; getRunsMiBps: number[] }> = {};
  for (const r of runners) {
    await r.gen.send(await r.t.del(container(r), 'large.bin'));
    out[r.t.label] = { putMiBps: mibps(median(put.get(r)!)), getMiBps: mibps(median(get.get(r)!)), putRunsMiBps: put.get(r)!.map(mibps), getRunsMiBps: get.get(r)!.map(mibps) };
  }
  return out;
}
