import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { objectKey } from '../index/keys.js';
import type { ContainerRecord, ContainerRef } from '../types.js';
import { requireContainer } from './containers.js';
import { copyObject } from './copy-object.js';
import { deleteObject } from './delete-object.js';
import { listObjects } from './list-objects.js';
import { putObject } from './put-object.js';
import { isLive } from './read-object.js';

// Swift's legacy versioned writes (X-Versions-Location, X-History-Location): earlier versions
// are plain objects of an archive container, named `<name's byte length, 3 hex digits><name>/<timestamp>`
// so that one name's versions sort together and by age. Unlike the engine's own versions they
// have no ids; they are what Swift clients of the legacy API list and read.

/** Swift's marker for "deleted here" in a history archive. */
export const ARCHIVE_DELETE_MARKER = 'application/x-deleted;swift_versions_deleted=1';

/** The archive names of `name`'s versions start with this. */
export function archivePrefix(name: string): string {
  return `${Buffer.byteLength(name, 'utf8').toString(16).padStart(3, '0')}${name}/`;
}

/** A time as Swift's internal timestamp (`0000001795663631.06254` form, 16 characters). */
function swiftTimestamp(micros: number): string {
  return (micros / 1e6).toFixed(5).padStart(16, '0');
}

function archiveOf(c: ContainerRecord): ContainerRef | undefined {
  if (!c.archive) return undefined;
  let name = c.archive.container;
  try {
    name = decodeURIComponent(name);
  } catch {
    // Kept as sent: Swift unquotes leniently.
  }
  return { tenant: c.tenant, container: name };
}

/** An archive write that fails as Swift's does: any refusal of the archive container is a 412. */
async function intoArchive<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isCofferError(err, 'NoSuchContainer')) throw new CofferError('PreconditionFailed', 'The archive container does not exist');
    throw err;
  }
}

/** Before `name` is overwritten (or, in history mode, deleted): its current version is copied into the archive. */
export async function archiveCurrent(ctx: EngineContext, ref: ContainerRef, name: string): Promise<void> {
  const c = requireContainer(ctx, ref);
  const archive = archiveOf(c);
  if (!archive) return;
  const current = ctx.store.objects.get(objectKey(c.cid, name));
  if (!current || !isLive(current, Date.now())) return;
  const to = { ref: archive, name: `${archivePrefix(name)}${swiftTimestamp(current.mtime)}` };
  await intoArchive(() => copyObject(ctx, { ref, name }, to, { metadata: 'copy' }));
}

/**
 * A delete under a legacy archive, before the object itself is deleted. History: the object
 * is archived and a delete marker written after it. Stack: the newest archived version is
 * moved back in its place (true: the delete is done; Swift's marker handling included).
 */
export async function archiveDelete(ctx: EngineContext, ref: ContainerRef, name: string): Promise<boolean> {
  const c = requireContainer(ctx, ref);
  const archive = archiveOf(c);
  if (!archive || !c.archive) return false;
  if (c.archive.mode === 'history') {
    await archiveCurrent(ctx, ref, name);
    await intoArchive(() => putObject(ctx, archive, `${archivePrefix(name)}${swiftTimestamp(ctx.nowMicros())}`, '', { contentType: ARCHIVE_DELETE_MARKER }));
    return false;
  }
  let listed;
  try {
    listed = listObjects(ctx, archive, { prefix: archivePrefix(name), reverse: true, limit: 1000 }).entries;
  } catch (err) {
    if (isCofferError(err, 'NoSuchContainer')) return false;
    throw err;
  }
  const versions = listed.flatMap((e) => (e.kind === 'object' ? [e] : []));
  const [newest, ...older] = versions;
  if (!newest) return false;
  if (newest.object.contentType === ARCHIVE_DELETE_MARKER) {
    // A marker on top: only when the object is gone does the version under it come back.
    const current = ctx.store.objects.get(objectKey(c.cid, name));
    if (current && isLive(current, Date.now())) return false;
    const next = older[0];
    if (next && next.object.contentType !== ARCHIVE_DELETE_MARKER) await restore(ctx, archive, next.name, ref, name);
    await deleteObject(ctx, archive, newest.name);
    return true;
  }
  await restore(ctx, archive, newest.name, ref, name);
  return true;
}

async function restore(ctx: EngineContext, archive: ContainerRef, archived: string, ref: ContainerRef, name: string): Promise<void> {
  await copyObject(ctx, { ref: archive, name: archived }, { ref, name }, { metadata: 'copy' });
  await deleteObject(ctx, archive, archived, { missingOk: true });
}
