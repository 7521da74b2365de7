import type { EngineContext } from '../context.js';
import { lockError, requireRetentionChange, type ObjectRetention } from '../object-lock.js';
import type { ContainerRecord, ContainerRef } from '../types.js';
import { findVersion } from './read-object.js';
import { updateVersionInPlace } from './version-in-place.js';

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

const requireLock = (c: ContainerRecord) => {
  if (!c.objectLock) throw lockError('InvalidBucketState', 'Bucket is missing Object Lock Configuration');
};

/**
 * Sets (or, with null, removes) a version's retention, by object-lock.ts's rules: `bypass` is a
 * governance bypass the caller asked for and may use. Returns the version's id.
 */
export function setRetention(ctx: EngineContext, ref: ContainerRef, name: string, versionId: string | undefined, retention: ObjectRetention | null, bypass: boolean): Promise<string | null> {
  return updateVersionInPlace(
    ctx,
    ref,
    name,
    versionId,
    (rec) => {
      requireRetentionChange(rec.retention, retention, Date.now(), bypass);
      if (retention) rec.retention = { mode: retention.mode, until: retention.until };
      else delete rec.retention;
      return rec;
    },
    requireLock,
  );
}

/** Places (true) or lifts (false) a version's legal hold; anyone allowed to may, whatever its retention. */
export function setLegalHold(ctx: EngineContext, ref: ContainerRef, name: string, versionId: string | undefined, on: boolean): Promise<string | null> {
  return updateVersionInPlace(
    ctx,
    ref,
    name,
    versionId,
    (rec) => {
      rec.legalHold = on;
      return rec;
    },
    requireLock,
  );
}
