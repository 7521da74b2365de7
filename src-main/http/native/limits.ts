import type { Exchange } from '../common/exchange.js';

export const LISTING_LIMIT = 10_000;

/** The `limit` parameter: undefined when absent, else a number, or an error to answer with. */
export function readLimit(x: Exchange): number | undefined | { status: 400 | 412; body: string } {
  const raw = x.param('limit');
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) return { status: 400, body: 'InvalidArgument' };
  const n = Number(raw);
  if (n < 0) return { status: 412, body: 'Value of limit must be non-negative' };
  if (n > LISTING_LIMIT) return { status: 412, body: `Maximum limit is ${LISTING_LIMIT}` };
  return n;
}

/** Swift's boolean query/header spellings. */
export function truthy(v: string | undefined): boolean {
  return v !== undefined && ['true', '1', 'yes', 'on', 't', 'y'].includes(v.toLowerCase());
}
