import { NativeError } from './errors.js';

// Content negotiation as Swift's swob reads an Accept header (swob.Accept): each media range with
// its quality, sorted by quality and then exact types before wildcards (a stable sort: the
// header's order breaks ties); the first range that matches any offer picks that offer, the
// offers tried in the server's order of preference.

const TOKEN = '[^()<>@,;:"/\\[\\]?={}\\x00-\\x20\\x7f]+';
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const RANGE = new RegExp(`^\\s*(${TOKEN})/(${TOKEN})((?:\\s*;\\s*${TOKEN}\\s*=\\s*(?:${TOKEN}|${QUOTED}))*?\\s*)$`);
/** Python's float(): what a q value may be (swob raises on anything else). */
const FLOAT = /^[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf(inity)?|nan)$/i;

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  exact: boolean;
}

/** The ranges of an Accept header, best first; a header swob cannot read is 400, as Swift answers it. */
function mediaRanges(accept: string): MediaRange[] {
  const ranges = accept.split(',').map((part): MediaRange => {
    const m = RANGE.exec(part);
    if (!m) throw new NativeError(400, 'Invalid Accept header');
    let q: number | undefined;
    for (const param of m[3]!.split(';').map((p) => p.trim()).filter(Boolean)) {
      // swob splits on every `;` and `=`, quoted strings included: a piece that is not one name=value is its ValueError.
      const pieces = param.split('=').map((s) => s.trim());
      if (pieces.length !== 2) throw new NativeError(400, 'Invalid Accept header');
      const [name, value] = pieces as [string, string];
      if (name !== 'q') continue;
      if (q !== undefined || !FLOAT.test(value)) throw new NativeError(400, 'Invalid Accept header');
      q = Number(value.replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
    }
    // Media types are case-insensitive (RFC 9110 8.3.1); swob compares them as written.
    const [type, subtype] = [m[1]!.toLowerCase(), m[2]!.toLowerCase()];
    return { type, subtype, q: q ?? 1, exact: type !== '*' && subtype !== '*' };
  });
  // Array.prototype.sort is stable, as Python's sort is.
  return ranges.sort((a, b) => b.q - a.q || Number(b.exact) - Number(a.exact));
}

const matches = (r: MediaRange, offer: string): boolean => {
  const [type, subtype] = offer.split('/');
  return (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
};

/**
 * The offer an Accept header picks (swob's best_match), or undefined when it accepts none of them
 * (Swift: 406). `wildcard` is what a leading `*\/*` picks, when the caller's default is not the
 * first offer (the native listings' JSON, seed N1/N4).
 */
export function bestMatch<T extends string>(accept: string, offers: readonly T[], wildcard?: T): T | undefined {
  for (const r of mediaRanges(accept)) {
    if (wildcard !== undefined && r.type === '*' && r.subtype === '*') return wildcard;
    const offer = offers.find((o) => matches(r, o));
    if (offer !== undefined) return offer;
  }
  return undefined;
}
