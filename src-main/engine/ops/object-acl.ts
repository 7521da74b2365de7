import { CofferError } from '../../../src-shared/errors.js';
import { grantsPublicRead, withPublicRead, type Grant } from '../acl.js';
import type { EngineContext } from '../context.js';
import { objectKey } from '../index/keys.js';
import type { ContainerRef, ObjectInfo, ObjectRecord } from '../types.js';
import { findVersion, toInfo } from './read-object.js';
import { olderVersions } from './versioning.js';

/** A new ACL for one version: explicit grants, or the public switch applied to the ACL it has. */
export type AclChange = { grants: Grant[] } | { publicRead: boolean };

function changed(rec: ObjectRecord, change: AclChange): ObjectRecord {
  const grants = 'grants' in change ? change.grants : rec.grants && withPublicRead(rec.grants, change.publicRead);
  const publicRead = grants ? grantsPublicRead(grants) : 'publicRead' in change && change.publicRead;
  const next: ObjectRecord = { ...rec };
  if (grants) next.grants = grants;
  if (publicRead) next.publicRead = true;
  else delete next.publicRead;
  return next;
}

/**
 * Sets the ACL of one version of an object (the current one when `versionId` is undefined), in
 * place: the ACL is a sub-resource, so the version's Last-Modified, ETag and id stay (AWS).
 */
export async function setObjectAcl(ctx: EngineContext, ref: ContainerRef, name: string, versionId: string | undefined, change: AclChange): Promise<ObjectInfo> {
  const { container, record, isLatest } = await ctx.store.write(() => {
    const found = findVersion(ctx, ref, name, versionId);
    const c = found.container;
    const key = objectKey(c.cid, name);
    const current = ctx.store.objects.get(key);
    if (current && current.seq === found.record.seq) {
      const next = changed(current, change);
      ctx.store.objects.putSync(key, next);
      return { container: c, record: next, isLatest: true };
    }
    const stored = olderVersions(ctx, c.cid, name).find((v) => v.record.seq === found.record.seq);
    if (!stored) throw new CofferError('PreconditionFailed', 'The object changed during the update');
    const next = changed(stored.record, change);
    ctx.store.versions.putSync(stored.key, next);
    return { container: c, record: next, isLatest: found.isLatest };
  });
  ctx.changed(container.tenant, container.name, [name]);
  return toInfo(container, name, record, isLatest);
}
