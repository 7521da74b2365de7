import { CofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { objectKey } from '../index/keys.js';
import type { ContainerRecord, ContainerRef, ObjectRecord } from '../types.js';
import { requireContainer } from './containers.js';
import { findVersion } from './read-object.js';
import { olderVersions } from './versioning.js';

/**
 * Changes one version's record in place (its ETag and Last-Modified stay, no new version), as
 * tags, retention and legal hold change: the version is found again inside the transaction, so
 * one removed meanwhile is NoSuchVersion. `check` sees the container first (a setting it needs).
 * Returns the version's id.
 */
export async function updateVersionInPlace(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  versionId: string | undefined,
  change: (rec: ObjectRecord) => ObjectRecord,
  check?: (c: ContainerRecord) => void,
): Promise<string | null> {
  const expected = findVersion(ctx, ref, name, versionId).record;
  return ctx.store.write(() => {
    const c = requireContainer(ctx, ref);
    check?.(c);
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
