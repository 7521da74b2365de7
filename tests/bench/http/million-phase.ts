/** The http bench's million phase (Coffer only): the page cost of a 1,000,000-object container. */
import { performance } from 'node:perf_hooks';
import { median, round } from '../stats.js';
import { bigPrefixPage } from './coffer-setup.js';
import type { LoadGenerator } from './load.js';
import type { Target } from './targets.js';

/**
 * One delimiter page from the prefix that holds 90% of the 1,000,000-object container, against
 * the same page from the 1,000-object one (both filled by coffer-setup.ts); the two alternate,
 * one unmeasured call each first.
 */
export async function millionPhase(gen: LoadGenerator, t: Target, repeat = 20) {
  const page = async (c: string) => {
    const t0 = performance.now();
    const res = await gen.send(await t.list!(c, bigPrefixPage), { keepBody: true });
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${t.label}: page of ${c}: HTTP ${res.status}`);
    return { ms, page: t.parseList!(res.body!, bigPrefixPage) };
  };
  await page('million');
  await page('thousand');
  const big: number[] = [];
  const small: number[] = [];
  let shape = { big: {}, small: {} };
  for (let r = 0; r < repeat; r++) {
    const b = await page('million');
    const s = await page('thousand');
    big.push(b.ms);
    small.push(s.ms);
    shape = { big: { keys: b.page.keys, prefixes: b.page.prefixes, truncated: !!b.page.next }, small: { keys: s.page.keys, prefixes: s.page.prefixes, truncated: !!s.page.next } };
  }
  return {
    params: bigPrefixPage,
    millionMedianMs: round(median(big), 2),
    thousandMedianMs: round(median(small), 2),
    millionMinMs: round(Math.min(...big), 2),
    thousandMinMs: round(Math.min(...small), 2),
    shape,
  };
}
