import { CofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { cidBytes, CID_BYTES } from '../index/keys.js';
import type { ListedRecord } from '../index/object-codec.js';
import type { ContainerRecord, ContainerRef, ListedObject } from '../types.js';
import { requireContainer } from './containers.js';
import { afterBound, beforeBound, prefixCanMatch } from './name-limits.js';
import { isLive } from './read-object.js';

export interface ListParams {
  prefix?: string;
  /** Any non-empty string; names containing it after the prefix roll up into one prefix entry. */
  delimiter?: string;
  /** Native `path`: the direct children of a virtual folder (prefix `path/`, delimiter `/`). */
  path?: string;
  /** Only names strictly after this one (in the listing's order). */
  marker?: string;
  /** Only names strictly before this one (in the listing's order). */
  endMarker?: string;
  limit?: number;
  reverse?: boolean;
  /**
   * Native `allow_unordered`, true or false as given (undefined: not given, which is what the
   * combination rules look at); the listing is always ordered (that costs nothing here).
   */
  allowUnordered?: boolean;
}

export type ListEntry = { kind: 'object'; name: string; object: ListedObject } | { kind: 'prefix'; prefix: string };

function listed(c: ContainerRecord, name: string, rec: ListedRecord): ListedObject {
  const o: ListedObject = { container: c.name, name, size: rec.size, etag: rec.etag, lastModified: Math.floor(rec.mtime / 1000), mtimeMicros: rec.mtime, contentType: rec.contentType };
  if (rec.link) o.link = rec.link;
  if (rec.manifestEtag !== undefined) o.manifestEtag = rec.manifestEtag;
  return o;
}

export interface ListPage {
  entries: ListEntry[];
  /** More entries follow: continue with `nextMarker` as the marker. */
  truncated: boolean;
  nextMarker?: string;
}

export const MAX_LIST_LIMIT = 10000;

/** The seed's combination rules (4.1.2), over the parameters given: an empty `delimiter=` or `prefix=` and `allow_unordered=false` count. */
export function checkListParams(p: ListParams): void {
  const bad = (msg: string) => new CofferError('InvalidArgument', msg);
  if (p.delimiter !== undefined && p.path !== undefined) throw bad('delimiter and path cannot be combined');
  if (p.delimiter !== undefined && p.allowUnordered !== undefined) throw bad('delimiter and allow_unordered cannot be combined');
  if (p.prefix !== undefined && p.path !== undefined) throw bad('prefix and path cannot be combined');
  if (p.path !== undefined && p.allowUnordered !== undefined) throw bad('path and allow_unordered cannot be combined');
  if (p.limit !== undefined && (!Number.isInteger(p.limit) || p.limit < 0)) throw bad('limit must be a non-negative integer');
}

const AFTER_ALL = Buffer.of(0xff);
const bytes = (s: string | undefined) => (s === undefined ? undefined : Buffer.from(s, 'utf8'));
const max = (a: Buffer, b: Buffer | undefined) => (b && Buffer.compare(b, a) > 0 ? b : a);
const min = (a: Buffer, b: Buffer | undefined) => (b && Buffer.compare(b, a) < 0 ? b : a);

/**
 * Lists one page of a container by walking the name index from the marker. With a delimiter,
 * each common prefix is emitted once and the cursor then seeks past every name under it, so a
 * page costs O(page size x log n) however many names one prefix holds.
 */
export function listObjects(ctx: EngineContext, ref: ContainerRef, params: ListParams = {}): ListPage {
  checkListParams(params);
  const c = requireContainer(ctx, ref);
  let prefixStr = params.prefix ?? '';
  let delimiterStr = params.delimiter || undefined;
  let skipExact: Buffer | undefined;
  if (params.path !== undefined) {
    prefixStr = params.path === '' || params.path.endsWith('/') ? params.path : `${params.path}/`;
    delimiterStr = '/';
    if (prefixStr) skipExact = Buffer.from(prefixStr, 'utf8');
  }
  const prefix = Buffer.from(prefixStr, 'utf8');
  const delimiter = bytes(delimiterStr);
  // Markers longer than any name are cut to bounds that fit a key and select the same names.
  const bound = (s: string | undefined, after: boolean) => (s === undefined ? undefined : (after ? afterBound : beforeBound)(Buffer.from(s, 'utf8')));
  const marker = bound(params.marker, !params.reverse);
  const endMarker = bound(params.endMarker, !!params.reverse);
  const limit = Math.min(params.limit ?? MAX_LIST_LIMIT, MAX_LIST_LIMIT);
  const now = Date.now();
  const base = cidBytes(c.cid);
  const key = (name: Buffer) => Buffer.concat([base, name]);
  const prefixEnd = Buffer.concat([prefix, AFTER_ALL]);

  const entries: ListEntry[] = [];
  if (limit === 0 || !prefixCanMatch(prefix)) return { entries, truncated: false };
  let truncated = false;
  // Forward: names in [low, high), ascending. Reverse: names in [low, high), descending.
  // The markers are exclusive on their side; each emitted common prefix moves a bound past it.
  let low = max(prefix, params.reverse ? endMarker : marker);
  let high = min(prefixEnd, params.reverse ? marker : endMarker);
  // Forward, only the first name read can be the marker (the walk starts at it); reverse walks end at the end marker.
  let excluded = params.reverse ? endMarker : marker;

  // Names are read in place from the keys (after the container id): a subarray per entry cost
  // more than the comparisons themselves.
  const nameStart = CID_BYTES;
  const sameName = (k: Buffer, other: Buffer) => k.length - nameStart === other.length && k.compare(other, 0, other.length, nameStart) === 0;

  /** Handles one key; returns the common prefix when one was met, 'stop' when the page is full. */
  const visit = (k: Buffer, rec: ListedRecord): Buffer | 'stop' | undefined => {
    // Expired objects are skipped one by one (the sweeper removes them soon), so a common
    // prefix appears only once a live name under it is met.
    if (!isLive(rec, now)) return undefined;
    if (delimiter) {
      const at = k.indexOf(delimiter, nameStart + prefix.length);
      if (at >= 0) {
        const cp = k.subarray(nameStart, at + delimiter.length);
        if (!(marker && cp.equals(marker))) {
          if (entries.length >= limit) return 'stop';
          entries.push({ kind: 'prefix', prefix: cp.toString('utf8') });
        }
        return cp;
      }
    }
    if (skipExact && sameName(k, skipExact)) return undefined;
    if (entries.length >= limit) return 'stop';
    const n = k.toString('utf8', nameStart);
    entries.push({ kind: 'object', name: n, object: listed(c, n, rec) });
    return undefined;
  };

  walk: while (Buffer.compare(low, high) < 0) {
    const range = params.reverse ? { start: key(high), end: base, reverse: true } : { start: key(low), end: key(high) };
    // Only the head of each record is decoded (see object-codec.ts).
    for (const { key: k, value } of ctx.store.listedObjects.getRange(range)) {
      if (params.reverse && k.compare(high, 0, high.length, nameStart) >= 0) continue;
      if (params.reverse && k.compare(low, 0, low.length, nameStart) < 0) break walk;
      if (excluded) {
        if (sameName(k, excluded)) {
          if (params.reverse) break walk;
          excluded = undefined;
          continue;
        }
        if (!params.reverse) excluded = undefined;
      }
      const met = visit(k, value);
      if (met === 'stop') {
        truncated = true;
        break walk;
      }
      if (met) {
        if (params.reverse) high = met;
        else low = Buffer.concat([met, AFTER_ALL]);
        continue walk;
      }
    }
    break;
  }
  const last = entries.at(-1);
  const nextMarker = truncated && last ? (last.kind === 'object' ? last.name : last.prefix) : undefined;
  return { entries, truncated, ...(nextMarker !== undefined ? { nextMarker } : {}) };
}

