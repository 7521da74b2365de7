import { randomBytes } from 'node:crypto';
import type { EngineContext } from '../context.js';
import { expiryKey, objectKey, versionKey, versionsOfName } from '../index/keys.js';
import type { ContainerRecord, ObjectRecord } from '../types.js';
import { releaseData } from './release.js';
import { addCurrentObjects, countedSize, type CountedSize } from './usage.js';

/**
 * Opaque, URL-safe version ids (32 characters); "null" is reserved for the null version. Never
 * starting with '-': the swift CLI (argparse) reads `--version-id -abc…` as a missing argument.
 */
export function newVersionId(): string {
  const id = randomBytes(24).toString('base64url').slice(0, 32);
  return id.startsWith('-') ? `A${id.slice(1)}` : id;
}

export interface StoredVersion {
  key: Buffer;
  record: ObjectRecord;
}

/** Non-current versions and delete markers of one name, newest first. */
export function olderVersions(ctx: EngineContext, cid: number, name: string | Buffer): StoredVersion[] {
  const { start, end } = versionsOfName(cid, name);
  return [...ctx.store.versions.getRange({ start, end })].map(({ key, value }) => ({ key, record: value }));
}

/** Tracks what a write transaction removes, so usage and blob release are computed once. */
export class Removals {
  sizes: CountedSize[] = [];
  blobs: string[] = [];

  constructor(private readonly ctx: EngineContext) {}

  drop(record: ObjectRecord): void {
    if (!record.deleteMarker) this.sizes.push(countedSize(record));
    this.blobs.push(...releaseData(this.ctx, record.data));
  }
}

export function setExpiry(ctx: EngineContext, objKey: Buffer, before: ObjectRecord | undefined, after: ObjectRecord | undefined): void {
  if (before?.deleteAt !== undefined && before.deleteAt !== after?.deleteAt) ctx.store.expiry.removeSync(expiryKey(before.deleteAt, objKey));
  if (after?.deleteAt !== undefined) ctx.store.expiry.putSync(expiryKey(after.deleteAt, objKey), true);
}

/**
 * Makes room for a new latest version of `name` (inside a write transaction): the current
 * version is replaced (unversioned; the null version when suspended) or kept as a non-current
 * version (enabled), and in a suspended container any other null version is removed.
 */
export function retireCurrent(
  ctx: EngineContext,
  c: ContainerRecord,
  name: string,
  removals: Removals,
  /**
   * The current record when the caller already read it in this transaction (saves a read and a
   * decode); `overwritten` when the caller puts a new record under the same key right after.
   */
  known?: { key: Buffer; current: ObjectRecord | undefined; overwritten: boolean },
): ObjectRecord | undefined {
  const key = known?.key ?? objectKey(c.cid, name);
  const current = known ? known.current : ctx.store.objects.get(key);
  if (current) {
    const replace = c.versioning === 'unversioned' || (c.versioning === 'suspended' && current.versionId === null);
    if (replace) removals.drop(current);
    else ctx.store.versions.putSync(versionKey(c.cid, name, current.seq), current);
    if (!known?.overwritten) {
      ctx.store.objects.removeSync(key);
      addCurrentObjects(ctx.store, c, -1);
    }
    setExpiry(ctx, key, current, undefined);
  }
  if (c.versioning === 'suspended') {
    for (const v of olderVersions(ctx, c.cid, name)) {
      if (v.record.versionId === null) {
        removals.drop(v.record);
        ctx.store.versions.removeSync(v.key);
      }
    }
  }
  return current;
}

/** When no current version remains and the newest older one is not a delete marker, it becomes current. */
export function promoteNewest(ctx: EngineContext, c: ContainerRecord, name: string): void {
  const key = objectKey(c.cid, name);
  if (ctx.store.objects.get(key)) return;
  const [newest] = olderVersions(ctx, c.cid, name);
  if (!newest || newest.record.deleteMarker) return;
  ctx.store.versions.removeSync(newest.key);
  ctx.store.objects.putSync(key, newest.record);
  addCurrentObjects(ctx.store, c, 1);
  setExpiry(ctx, key, undefined, newest.record);
}
