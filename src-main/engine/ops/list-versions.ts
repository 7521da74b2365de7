import type { EngineContext } from '../context.js';
import { cidBytes, nameBytesOf } from '../index/keys.js';
import type { ContainerRef, ObjectInfo } from '../types.js';
import { checkListParams, MAX_LIST_LIMIT } from './list-objects.js';
import { requireContainer } from './containers.js';
import { afterBound, prefixCanMatch } from './name-limits.js';
import { toInfo } from './read-object.js';
import { olderVersions } from './versioning.js';

export interface VersionListParams {
  prefix?: string;
  delimiter?: string;
  /** Continue after this name... */
  keyMarker?: string;
  /** ...and, within it, after this version ('null' for the null version). */
  versionIdMarker?: string;
  limit?: number;
}

export type VersionEntry = { kind: 'version'; name: string; version: ObjectInfo } | { kind: 'prefix'; prefix: string };

export interface VersionPage {
  entries: VersionEntry[];
  truncated: boolean;
  nextKeyMarker?: string;
  nextVersionIdMarker?: string;
}

const AFTER_ALL = Buffer.of(0xff);

/**
 * Lists every version and delete marker, by name then newest first (S3 ListObjectVersions).
 * Names come from two tables (current versions and older ones); each step seeks the next
 * name in both, so a page costs O(page size x log n) as object listings do.
 */
export function listVersions(ctx: EngineContext, ref: ContainerRef, p: VersionListParams = {}): VersionPage {
  checkListParams({ ...(p.delimiter !== undefined ? { delimiter: p.delimiter } : {}), ...(p.limit !== undefined ? { limit: p.limit } : {}) });
  const c = requireContainer(ctx, ref);
  const base = cidBytes(c.cid);
  const prefix = Buffer.from(p.prefix ?? '', 'utf8');
  const delimiter = p.delimiter ? Buffer.from(p.delimiter, 'utf8') : undefined;
  const limit = Math.min(p.limit ?? 1000, MAX_LIST_LIMIT);
  if (!prefixCanMatch(prefix)) return { entries: [], truncated: false };
  const end = Buffer.concat([base, prefix, AFTER_ALL]);
  const firstName = (db: typeof ctx.store.objects, from: Buffer): Buffer | undefined => {
    for (const k of db.getKeys({ start: Buffer.concat([base, from]), end, limit: 1 })) return nameBytesOf(k);
    return undefined;
  };
  const nextName = (from: Buffer): Buffer | undefined => {
    const a = firstName(ctx.store.objects, from);
    const b = firstName(ctx.store.versions, from);
    if (!a || !b) return a ?? b;
    return Buffer.compare(a, b) <= 0 ? a : b;
  };
  const versionsOf = (name: Buffer): ObjectInfo[] => {
    const n = name.toString('utf8');
    const current = ctx.store.objects.get(Buffer.concat([base, name]));
    const older = olderVersions(ctx, c.cid, name).map((v) => v.record);
    const all = current ? [current, ...older] : older;
    return all.map((rec, i) => toInfo(c, n, rec, i === 0));
  };

  const entries: VersionEntry[] = [];
  let truncated = false;
  const givenMarker = p.keyMarker !== undefined ? Buffer.from(p.keyMarker, 'utf8') : undefined;
  // A key marker longer than any name is cut to one that fits a key and selects the same names;
  // no such name has versions, so its version-id marker means nothing.
  const keyMarker = givenMarker && afterBound(givenMarker);
  let from = keyMarker && Buffer.compare(keyMarker, prefix) > 0 ? keyMarker : prefix;
  let skipVersionsThrough = p.versionIdMarker !== undefined && keyMarker && keyMarker === givenMarker ? p.versionIdMarker : undefined;
  let skipName = keyMarker && skipVersionsThrough === undefined ? keyMarker : undefined;
  let lastVersionId: string | null | undefined;

  walk: for (let name = nextName(from); name; name = nextName(from)) {
    from = Buffer.concat([name, Buffer.of(1)]);
    const at = delimiter ? name.indexOf(delimiter, prefix.length) : -1;
    if (delimiter && at >= 0) {
      const cp = name.subarray(0, at + delimiter.length);
      from = Buffer.concat([cp, AFTER_ALL]);
      if (keyMarker && Buffer.compare(cp, keyMarker) <= 0 && keyMarker.subarray(0, cp.length).equals(cp)) continue;
      if (entries.length >= limit) {
        truncated = true;
        break;
      }
      entries.push({ kind: 'prefix', prefix: cp.toString('utf8') });
      lastVersionId = undefined;
      continue;
    }
    if (skipName && name.equals(skipName)) continue;
    let versions = versionsOf(name);
    if (skipVersionsThrough !== undefined && keyMarker && name.equals(keyMarker)) {
      const wanted = skipVersionsThrough === 'null' ? null : skipVersionsThrough;
      const i = versions.findIndex((v) => v.versionId === wanted);
      versions = versions.slice(i + 1);
    }
    skipVersionsThrough = undefined;
    skipName = undefined;
    for (const v of versions) {
      if (entries.length >= limit) {
        truncated = true;
        break walk;
      }
      entries.push({ kind: 'version', name: v.name, version: v });
      lastVersionId = v.versionId;
    }
  }
  const last = entries.at(-1);
  if (!truncated || !last) return { entries, truncated };
  return last.kind === 'prefix'
    ? { entries, truncated, nextKeyMarker: last.prefix }
    : { entries, truncated, nextKeyMarker: last.name, nextVersionIdMarker: lastVersionId ?? 'null' };
}

