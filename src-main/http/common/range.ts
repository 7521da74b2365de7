import type { RangeRequest } from '../../engine/index.js';

/**
 * Parses a `Range` header. Only the first range is served (as RGW does); a malformed header or
 * another unit is ignored (undefined: serve the whole object).
 */
export function parseRange(header: string | undefined): RangeRequest | undefined {
  if (!header) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*(?:,.*)?$/i.exec(header);
  if (!m) return undefined;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') return { suffix: Number(b) };
  const start = Number(a);
  if (b === '') return { start };
  const end = Number(b);
  if (end < start) return undefined;
  return { start, end };
}

/**
 * Every range of a `Range: bytes=…` header with more than one (Swift's multi-range GET), or
 * undefined: one range, a malformed header (any part that does not parse voids it, as in
 * Swift's swob) or another unit.
 */
export function parseRanges(header: string | undefined): RangeRequest[] | undefined {
  const m = header ? /^\s*bytes\s*=(.*)$/i.exec(header) : null;
  if (!m) return undefined;
  const parts = m[1]!.split(',');
  if (parts.length < 2) return undefined;
  const out: RangeRequest[] = [];
  for (const part of parts) {
    const r = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(part);
    if (!r || (r[1] === '' && r[2] === '')) return undefined;
    if (r[1] === '') out.push({ suffix: Number(r[2]) });
    else if (r[2] === '') out.push({ start: Number(r[1]) });
    else if (Number(r[2]) < Number(r[1])) return undefined;
    else out.push({ start: Number(r[1]), end: Number(r[2]) });
  }
  return out;
}
