import { CofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { objectKey } from '../index/keys.js';
import { lockError, requireRetentionChange, type ObjectRetention } from '../object-lock.js';
import type { ContainerRef, ObjectRecord } from '../types.js';
import { requireContainer } from './containers.js';
import { findVersion } from './read-object.js';
import { olderVersions } from './versioning.js';

/** One version's Object Lock as stored: its id, retention and legal hold (each absent when never set). */
export interface VersionLock {
  versionId: string | null;
  retention?: ObjectRetention;
  legalHold?: boolean;
}

/** The lock of one version (the current one when no id is given), in a container with object lock. */
export function getObjectLock(ctx: EngineContext, ref: ContainerRef, name: string, versionId?: string): VersionLock {
  const found = findVersion(ctx, ref, name, versionId);
  if (!found.container.objectLock) throw lockError('InvalidBucketState', 'Bucket is missing Object Lock Configuration');
  const { record } = found;
  const out: VersionLock = { versionId: record.versionId };
  if (record.retention) out.retention = record.retention;
  if (record.legalHold !== undefined) out.legalHold = record.legalHold;
  return out;
}

/**
 * Changes one version's record in place (its ETag and Last-Modified stay, no new version), as
 * tags change: found again inside the transaction, so a version removed meanwhile is NoSuchVersion.
 */
async function updateVersion(ctx: EngineContext, ref: ContainerRef, name: string, versionId: string | undefined, change: (rec: ObjectRecord) => ObjectRecord): Promise<string | null> {
  const expected = findVersion(ctx, ref, name, versionId).record;
  return ctx.store.write(() => {
    const c = requireContainer(ctx, ref);
    if (!c.objectLock) throw lockError('InvalidBucketState', 'Bucket is missing Object Lock Configuration');
    const key = objectKey(c.cid, name);
    const current = ctx.store.objects.get(key);
    let target: { db: typeof ctx.store.objects; key: Buffer; record: ObjectRecord } | undefined;
    if (current && current.seq === expected.seq) target = { db: ctx.store.objects, key, record: current };
    else {
      const older = olderVersions(ctx, c.cid, name).find((v) => v.record.seq === expected.seq);
      if (older) target = { db: ctx.store.versions, key: older.key, record: older.record };
    }
    if (!target) throw new CofferError('NoSuchVersion', 'The specified version does not exist.');
    const next = change({ ...target.record });
    target.db.putSync(target.key, next);
    return next.versionId;
  });
}

/**
 * Sets (or, with null, removes) a version's retention, by object-lock.ts's rules: `bypass` is a
 * governance bypass the caller asked for and may use. Returns the version's id.
 */
export function setRetention(ctx: EngineContext, ref: ContainerRef, name: string, versionId: string | undefined, retention: ObjectRetention | null, bypass: boolean): Promise<string | null> {
  return updateVersion(ctx, ref, name, versionId, (rec) => {
    requireRetentionChange(rec.retention, retention, Date.now(), bypass);
    if (retention) rec.retention = { mode: retention.mode, until: retention.until };
    else delete rec.retention;
    return rec;
  });
}

/** Places (true) or lifts (false) a version's legal hold; anyone allowed to may, whatever its retention. */
export function setLegalHold(ctx: EngineContext, ref: ContainerRef, name: string, versionId: string | undefined, on: boolean): Promise<string | null> {
  return updateVersion(ctx, ref, name, versionId, (rec) => {
    rec.legalHold = on;
    return rec;
  });
}
