import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { requireRemovable } from '../object-lock.js';
import { objectKey, versionKey } from '../index/keys.js';
import type { ContainerRef, ObjectRecord } from '../types.js';
import { requireContainer } from './containers.js';
import { requireFindableName } from './name-limits.js';
import { isLive } from './read-object.js';
import { releaseBlobs } from './release.js';
import { addCurrentObjects, applyUsage, deltaOf } from './usage.js';
import { newVersionId, olderVersions, promoteNewest, Removals, retireCurrent, setExpiry } from './versioning.js';

export interface DeleteResult {
  /** The version removed, or the delete marker created. */
  versionId: string | null;
  deleteMarker: boolean;
  /** With `missingOk`: there was no such object (or version) to delete. */
  missing?: true;
  /**
   * A delete without a version id in a versioned container: whether a live current version was
   * there to hide (Swift answers 404 to a delete of nothing, even where it writes a marker).
   */
  hidCurrent?: boolean;
}

export interface DeleteOptions {
  versionId?: string | null;
  /**
   * Deleting what is not there succeeds (S3, and the app's backends), rather than NoSuchKey or
   * NoSuchVersion (Swift answers 404): the one place that rule is decided.
   */
  missingOk?: boolean;
  /**
   * S3's x-amz-bypass-governance-retention, from a caller allowed to bypass: a version under a
   * governance-mode retention may then be removed (never one under compliance or a legal hold).
   */
  bypassGovernance?: boolean;
}

/**
 * Deletes an object. Without a version id: removes it (unversioned) or writes a delete marker
 * (versioning enabled or suspended). With one ('null' for the null version): removes exactly
 * that version or marker, and the newest remaining version becomes current again.
 */
export async function deleteObject(ctx: EngineContext, ref: ContainerRef, name: string, opts: DeleteOptions = {}): Promise<DeleteResult> {
  try {
    return await deleteExisting(ctx, ref, name, opts);
  } catch (err) {
    if (opts.missingOk && (isCofferError(err, 'NoSuchKey') || isCofferError(err, 'NoSuchVersion'))) return { versionId: null, deleteMarker: false, missing: true };
    throw err;
  }
}

async function deleteExisting(ctx: EngineContext, ref: ContainerRef, name: string, opts: DeleteOptions): Promise<DeleteResult> {
  const { result, released, container } = await ctx.store.write(() => {
    const c = requireContainer(ctx, ref);
    // Before a versioned container writes a delete marker for it: no such name can be stored.
    requireFindableName(name);
    const key = objectKey(c.cid, name);
    const removals = new Removals(ctx);
    let result: DeleteResult;
    if (opts.versionId === undefined) {
      const current = ctx.store.objects.get(key);
      if (c.versioning === 'unversioned') {
        if (!current || !isLive(current, Date.now())) throw new CofferError('NoSuchKey', 'The specified key does not exist.');
        retireCurrent(ctx, c, name, removals);
        result = { versionId: null, deleteMarker: false };
      } else {
        const hidCurrent = !!current && isLive(current, Date.now());
        retireCurrent(ctx, c, name, removals);
        const marker: ObjectRecord = {
          versionId: c.versioning === 'enabled' ? newVersionId() : null,
          seq: ctx.store.nextCounter('seq'),
          mtime: ctx.nowMicros(),
          size: 0,
          etag: '',
          contentType: '',
          headers: {},
          meta: {},
          data: { none: true },
          deleteMarker: true,
        };
        ctx.store.versions.putSync(versionKey(c.cid, name, marker.seq), marker);
        result = { versionId: marker.versionId, deleteMarker: true, hidCurrent };
      }
    } else {
      result = removeVersion(ctx, c, name, opts.versionId === 'null' ? null : opts.versionId, removals, opts.bypassGovernance === true);
    }
    applyUsage(ctx.store, c, deltaOf([], removals.sizes));
    return { result, released: removals.blobs, container: c };
  });
  await releaseBlobs(ctx, released);
  ctx.changed(container.tenant, container.name, [name]);
  return result;
}

function removeVersion(
  ctx: EngineContext,
  c: ReturnType<typeof requireContainer>,
  name: string,
  versionId: string | null,
  removals: Removals,
  bypass: boolean,
): DeleteResult {
  const key = objectKey(c.cid, name);
  const current = ctx.store.objects.get(key);
  if (current && current.versionId === versionId) {
    requireRemovable(current, Date.now(), bypass);
    removals.drop(current);
    ctx.store.objects.removeSync(key);
    addCurrentObjects(ctx.store, c, -1);
    setExpiry(ctx, key, current, undefined);
  } else {
    const found = olderVersions(ctx, c.cid, name).find((v) => v.record.versionId === versionId);
    if (!found) throw new CofferError('NoSuchVersion', 'The specified version does not exist.');
    requireRemovable(found.record, Date.now(), bypass);
    removals.drop(found.record);
    ctx.store.versions.removeSync(found.key);
    if (found.record.deleteMarker) {
      promoteNewest(ctx, c, name);
      return { versionId, deleteMarker: true };
    }
  }
  promoteNewest(ctx, c, name);
  return { versionId, deleteMarker: false };
}
