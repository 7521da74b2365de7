import { CofferError } from '../../../src-shared/errors.js';
import type { IndexStore, StoredUsage } from '../index/store.js';
import { roundUp4k, type ContainerRecord, type Manifest, type Quota, type Usage } from '../types.js';

/** Change in usage caused by one write. Counters move in the same transaction as the write. */
export interface UsageDelta {
  objects: number;
  bytes: number;
  bytesActual: number;
}

export const ZERO_USAGE: Usage = { objects: 0, bytes: 0, bytesActual: 0 };

/**
 * What one version adds to the counters: a plain size, or the bytes it is counted for apart from
 * the bytes it stores (an SLO manifest stores no file, and is counted for its document's bytes).
 */
export type CountedSize = number | { counted: number; stored: number };

/**
 * The counted size of a version: an SLO manifest counts the bytes of its manifest document in the
 * bytes used, as Swift's container counts the manifest it stores (listings show the whole
 * object's size; its segments are counted where they live), while the stored bytes
 * (bytes-used-actual) stay what is on disk: none of its own.
 */
export function countedSize(rec: { size: number; manifest?: Manifest | undefined }): CountedSize {
  return rec.manifest?.kind === 'slo' ? { counted: rec.manifest.documentBytes ?? 0, stored: rec.size } : rec.size;
}

export function deltaOf(sizesAdded: CountedSize[], sizesRemoved: CountedSize[] = []): UsageDelta {
  const counted = (n: CountedSize) => (typeof n === 'number' ? n : n.counted);
  const stored = (n: CountedSize) => roundUp4k(typeof n === 'number' ? n : n.stored);
  const sum = (xs: CountedSize[], f: (n: CountedSize) => number) => xs.reduce((t: number, n) => t + f(n), 0);
  return {
    objects: sizesAdded.length - sizesRemoved.length,
    bytes: sum(sizesAdded, counted) - sum(sizesRemoved, counted),
    bytesActual: sum(sizesAdded, stored) - sum(sizesRemoved, stored),
  };
}

export const accountUsageKey = (account: string) => `a${account}`;
export const containerUsageKey = (cid: number) => `c${cid}`;

export function readUsage(store: IndexStore, key: string): StoredUsage {
  // A container without a record yet has no objects, current ones included; a record written
  // before `current` was kept stays without it (its readers fall back to `objects`).
  return store.getUsage(key) ?? (key.startsWith('c') ? { ...ZERO_USAGE, current: 0 } : { ...ZERO_USAGE });
}

/**
 * Moves a container's count of current objects (the objects table's entries) by `by`, in the
 * write that adds or removes the entry. Containers counted before it was kept are left alone.
 */
export function addCurrentObjects(store: IndexStore, container: ContainerRecord, by: number): void {
  if (by === 0) return;
  const key = containerUsageKey(container.cid);
  const u = readUsage(store, key);
  if (u.current === undefined) return;
  store.setUsage(key, { ...u, current: u.current + by });
}

/** The current objects a container's usage record says it has (every object, for records from before they were counted apart). */
export function currentObjects(u: StoredUsage): number {
  return u.current ?? u.objects;
}

/** A quota being set: whole numbers (-1 = unlimited), within what a number holds exactly. */
export function requireValidQuota(q: Partial<Quota> | undefined): void {
  for (const v of [q?.maxBytes, q?.maxObjects]) {
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= -1)) throw new CofferError('InvalidArgument', `Invalid quota ${v}: a whole number, or -1 for none`);
  }
}

const unlimited = (q: Quota) => q.maxBytes < 0 && q.maxObjects < 0;

export type QuotaBytes = 'rounded' | 'exact';

function exceeds(quota: Quota, usage: Usage, delta: UsageDelta, counting: QuotaBytes): boolean {
  const [used, added] = counting === 'exact' ? [usage.bytes, delta.bytes] : [usage.bytesActual, delta.bytesActual];
  const growsBytes = added > 0;
  const growsCount = delta.objects > 0;
  if (growsBytes && quota.maxBytes >= 0 && used + added > quota.maxBytes) return true;
  if (growsCount && quota.maxObjects >= 0 && usage.objects + delta.objects > quota.maxObjects) return true;
  return false;
}

/**
 * Throws QuotaExceeded when the write would take the container or its account past a quota.
 * Must run inside the write transaction so concurrent writers are checked one after another.
 * Bytes are counted as RGW does (each object rounded up to 4 KiB: S3 and the app), or as Swift's
 * container_quotas does with 'exact' (the native API: a 10-byte quota takes a 9-byte object); a
 * write that does not grow usage is always allowed.
 */
export function checkQuota(store: IndexStore, container: ContainerRecord, delta: UsageDelta, counting: QuotaBytes = 'rounded'): void {
  if (delta.objects <= 0 && delta.bytesActual <= 0 && delta.bytes <= 0) return;
  if (!unlimited(container.quota) && exceeds(container.quota, readUsage(store, containerUsageKey(container.cid)), delta, counting)) {
    throw new CofferError('QuotaExceeded', 'Upload exceeds the container quota', { scope: 'container' });
  }
  const account = store.getShared(store.accounts, container.owner);
  if (account && !unlimited(account.quota) && exceeds(account.quota, readUsage(store, accountUsageKey(container.owner)), delta, counting)) {
    throw new CofferError('QuotaExceeded', 'Upload exceeds the account quota', { scope: 'account' });
  }
}

export function applyUsage(store: IndexStore, container: ContainerRecord, delta: UsageDelta): void {
  if (delta.objects === 0 && delta.bytes === 0 && delta.bytesActual === 0) return;
  for (const key of [containerUsageKey(container.cid), accountUsageKey(container.owner)]) {
    const u = readUsage(store, key);
    // Built field by field: `{ ...u, objects, ... }` missed V8's inline caches on every write.
    const next: StoredUsage = { objects: u.objects + delta.objects, bytes: u.bytes + delta.bytes, bytesActual: u.bytesActual + delta.bytesActual };
    if (u.containers !== undefined) next.containers = u.containers;
    if (u.current !== undefined) next.current = u.current;
    store.setUsage(key, next);
  }
}

export function addContainerCount(store: IndexStore, account: string, by: number): void {
  const key = accountUsageKey(account);
  const u = readUsage(store, key);
  store.setUsage(key, { ...u, containers: (u.containers ?? 0) + by });
}
