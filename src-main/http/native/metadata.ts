import type { RequestHeaders } from '../common/headers.js';
import type { StandardHeaders } from '../../engine/index.js';
import { STANDARD_HEADERS } from '../../../src-shared/standard-headers.js';
import { headerToText, textToHeader } from '../common/header-text.js';

export type MetaScope = 'Object' | 'Container' | 'Account';

/** Swift's metadata limits (§7.1), also published in /info. */
export const META_LIMITS = {
  max_meta_name_length: 128,
  max_meta_value_length: 256,
  max_meta_count: 90,
  max_meta_overall_size: 4096,
  max_header_size: 8192,
};

export interface MetaChange {
  set: Record<string, string>;
  remove: string[];
  /** An account/container metadata value was not valid UTF-8 (§7.1: 400 `Metadata must be valid UTF-8`). */
  invalidUtf8?: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Node hands header values over as latin1 strings of their bytes: are those bytes valid UTF-8? */
function isUtf8Header(raw: string): boolean {
  if (/^[\x00-\x7f]*$/.test(raw)) return true;
  try {
    strictUtf8.decode(Buffer.from(raw, 'latin1'));
    return true;
  } catch {
    return false;
  }
}

/** Swift's per-header limit on metadata writes (§7.1: 400 `Header value too long: {name}`), or null. */
export function headerProblem(headers: RequestHeaders): string | null {
  for (const [name, raw] of Object.entries(headers)) {
    const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
    // Node's latin1 strings have one character per byte.
    if (value.length > META_LIMITS.max_header_size) return `Header value too long: ${titleCase(name).slice(0, META_LIMITS.max_meta_name_length)}`;
  }
  return null;
}

/** `X-{Scope}-Meta-*` (set; an empty value removes) and `X-Remove-{Scope}-Meta-*` headers. */
export function readMetaHeaders(headers: RequestHeaders, scope: MetaScope): MetaChange {
  const prefix = `x-${scope.toLowerCase()}-meta-`;
  const removePrefix = `x-remove-${scope.toLowerCase()}-meta-`;
  const out: MetaChange = { set: {}, remove: [] };
  for (const [name, raw] of Object.entries(headers)) {
    const joined = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
    const value = headerToText(joined);
    if (name.startsWith(removePrefix)) out.remove.push(name.slice(removePrefix.length));
    else if (name.startsWith(prefix)) {
      if (scope !== 'Object' && !isUtf8Header(joined)) out.invalidUtf8 = true;
      const key = name.slice(prefix.length);
      if (value === '' && scope !== 'Object') out.remove.push(key);
      else out.set[key] = value;
    }
  }
  return out;
}

/** Why a metadata set breaks the limits (the Swift message), or null. */
export function metaProblem(scope: MetaScope, meta: Record<string, string>): string | null {
  let total = 0;
  const entries = Object.entries(meta);
  for (const [k, v] of entries) {
    // Swift names the header as its WSGI environ gives it back: the prefix in lower case, the
    // rest title-cased (x-object-meta-Long).
    const name = `x-${scope.toLowerCase()}-meta-${pythonTitle(k)}`;
    if (k === '') return 'Metadata name cannot be empty';
    const kl = Buffer.byteLength(k);
    const vl = Buffer.byteLength(v);
    if (kl > META_LIMITS.max_meta_name_length) return `Metadata name too long: ${name}`;
    if (vl > META_LIMITS.max_meta_value_length) return `Metadata value longer than ${META_LIMITS.max_meta_value_length}: ${name}`;
    total += kl + vl;
  }
  if (entries.length > META_LIMITS.max_meta_count) return `Too many metadata items; max ${META_LIMITS.max_meta_count}`;
  if (total > META_LIMITS.max_meta_overall_size) return `Total metadata too large; max ${META_LIMITS.max_meta_overall_size}`;
  return null;
}

/** `foo-bar` -> `Foo-Bar` (how RGW prints metadata names). */
/** Python's str.title() on an ASCII name: a letter after a non-letter upper case, every other lower. */
function pythonTitle(name: string): string {
  return name.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_m, before: string, c: string) => before + c.toUpperCase());
}

export function titleCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** Into `out` when given (a response's headers filled in place), else a new object. */
export function metaResponseHeaders(scope: MetaScope, meta: Record<string, string>, out: Record<string, unknown> = {}): Record<string, string> {
  for (const k in meta) out[`X-${scope}-Meta-${titleCase(k)}`] = textToHeader(meta[k]!);
  return out as Record<string, string>;
}

/** The standard headers of a request (all the table's, X-Robots-Tag included), as sent: empty ones too. */
export function readStandardHeaders(headers: RequestHeaders): StandardHeaders {
  const out: StandardHeaders = {};
  for (const { field, name } of STANDARD_HEADERS) {
    const v = headers[name.toLowerCase()];
    if (typeof v === 'string') out[field] = headerToText(v);
  }
  return out;
}

/** Into `out` when given, as metaResponseHeaders. */
export function standardResponseHeaders(h: StandardHeaders, out: Record<string, unknown> = {}): Record<string, string> {
  for (const { field, name } of STANDARD_HEADERS) if (h[field] !== undefined) out[name] = textToHeader(h[field]!);
  return out as Record<string, string>;
}
