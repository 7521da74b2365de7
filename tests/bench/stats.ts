/**
 * What every bench section shares: rounding and order statistics for the JSON it prints, a
 * progress line on stderr, and the list of ratios (each next to its target) the run reports.
 */
import { performance } from 'node:perf_hooks';

/** Rounds for the JSON; NaN and Infinity pass through (JSON prints them as null). */
export const round = (x: number, digits = 2) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

/** The p-th percentile (0-100) of ascending values, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `[tag +12.3s] message` on stderr, timed from when the section started. */
export function progressLog(tag: string): (msg: string) => void {
  const start = performance.now();
  return (msg) => process.stderr.write(`[${tag} +${((performance.now() - start) / 1000).toFixed(1)}s] ${msg}\n`);
}

export interface Ratio {
  name: string;
  value: number;
  target: string;
  /** Lowest and highest per-block value, where the figures were measured in interleaved blocks. */
  blockRange?: [number, number];
  note?: string;
}

/** The ratios a section reports, each computed from two figures of this same run. */
export class RatioList {
  readonly items: Ratio[] = [];

  /**
   * `blocks`: the two figures block by block (the blocks of one round run back to back), so the
   * ratio also comes with its lowest and highest value over the rounds: how far the machine's
   * noise moved it within this run.
   */
  add(name: string, num: number, den: number, target: string, extra: { note?: string; blocks?: [number[], number[]] } = {}): void {
    const { note, blocks } = extra;
    const perBlock = blocks ? blocks[0].map((x, i) => x / blocks[1][i]!) : [];
    const blockRange: [number, number] | undefined = perBlock.length ? [round(Math.min(...perBlock), 3), round(Math.max(...perBlock), 3)] : undefined;
    this.items.push({ name, value: round(num / den, 3), target, ...(blockRange ? { blockRange } : {}), ...(note ? { note } : {}) });
  }
}
