// The local backend's versions: a folder listed with its versions and delete markers, the
// container's versioning switch, and undelete.
import { CofferError } from '../../src-shared/errors.js';
import type { ContainerOptions, FolderEntry, FolderPage, VersioningStatus } from '../../src-shared/model/storage.js';
import type { ContainerRef, ContainerSettings, Engine, ObjectInfo } from '../engine/index.js';
import { folderEntry, publicReadAcl } from './local-mapping.js';
import { DEFAULT_PAGE_SIZE, listLocalVersions } from './local-objects.js';
import type { ListFolderOptions } from './object-backend.js';
import { throwIfAborted } from './transfer.js';
import { decodeVersionMarker, encodeVersionMarker } from './version-marker.js';

/** What createContainer asks the engine for. Object lock turns versioning on for good (the engine's rule). */
export function localContainerSettings(options: ContainerOptions): ContainerSettings {
  const settings: ContainerSettings = {};
  if (options.versioning) settings.versioning = 'enabled';
  if (options.objectLock) settings.objectLock = {};
  // Both ways a client reads a public container: the S3 flag and the native `.r:*` read ACL.
  if (options.public) Object.assign(settings, { publicRead: true, acl: { read: publicReadAcl(undefined, true) } });
  if (options.quota) settings.quota = { maxBytes: options.quota.maxBytes ?? -1, maxObjects: options.quota.maxObjects ?? -1 };
  return settings;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A current version lists as the object itself; anything older, or a delete marker, as a version. */
function versionFolderEntry(o: ObjectInfo): FolderEntry {
  if (o.isLatest && !o.deleteMarker) return { ...(folderEntry({ kind: 'object', name: o.name, object: o }) as Extract<FolderEntry, { kind: 'object' }>), versionId: o.versionId ?? 'null' };
  return {
    kind: 'version',
    name: o.name,
    versionId: o.versionId ?? 'null',
    isLatest: o.isLatest,
    deleteMarker: o.deleteMarker,
    size: o.deleteMarker ? 0 : o.size,
    etag: o.etag,
    lastModified: iso(o.lastModified),
    contentType: o.deleteMarker ? null : o.contentType,
  };
}

export async function* listLocalFolderVersions(engine: Engine, ref: ContainerRef, opts: ListFolderOptions): AsyncIterable<FolderPage> {
  const delimiter = opts.delimiter ?? '/';
  let marker = decodeVersionMarker(opts.marker);
  for (;;) {
    throwIfAborted(opts.signal, 'The listing');
    const page = engine.listVersions(ref, {
      ...(opts.prefix ? { prefix: opts.prefix } : {}),
      ...(delimiter ? { delimiter } : {}),
      ...(marker ? { keyMarker: marker.key, ...(marker.versionId !== undefined ? { versionIdMarker: marker.versionId } : {}) } : {}),
      limit: opts.pageSize ?? DEFAULT_PAGE_SIZE,
    });
    const entries = page.entries.map((e) => (e.kind === 'prefix' ? ({ kind: 'folder', prefix: e.prefix } as const) : versionFolderEntry(e.version)));
    const next = page.truncated && page.nextKeyMarker !== undefined ? { key: page.nextKeyMarker, ...(page.nextVersionIdMarker !== undefined ? { versionId: page.nextVersionIdMarker } : {}) } : undefined;
    yield { entries, nextMarker: next ? encodeVersionMarker(next) : null };
    if (!next) return;
    marker = next;
  }
}

export function localVersioning(engine: Engine, ref: ContainerRef): VersioningStatus {
  return engine.getContainer(ref).versioning;
}

export async function setLocalVersioning(engine: Engine, ref: ContainerRef, on: boolean): Promise<VersioningStatus> {
  const now = engine.getContainer(ref).versioning;
  // Never versioned: there is nothing to suspend, and the engine cannot go back to that state.
  if (!on && now === 'unversioned') return now;
  return (await engine.updateContainer(ref, { versioning: on ? 'enabled' : 'suspended' })).versioning;
}

/** Removes the delete markers above the newest version, which becomes current again (S3's undelete). */
export async function undeleteLocal(engine: Engine, ref: ContainerRef, name: string): Promise<ObjectInfo> {
  const versions = listLocalVersions(engine, ref, name);
  if (!versions.some((v) => !v.deleteMarker)) throw new CofferError('NoSuchKey', `${name} has no version to bring back`);
  for (const v of versions) {
    if (!v.deleteMarker) break;
    await engine.deleteObject(ref, name, { versionId: v.versionId });
  }
  return engine.headObject(ref, name);
}
