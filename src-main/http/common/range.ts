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
