// Engine values -> the JSON-safe model the app shows (src-shared/model/storage.ts).
import { objectIsPublic, publicAccess, type AccountInfo, type ContainerInfo, type ListEntry, type ObjectInfo } from '../engine/index.js';
import { commonHeaders } from '../../src-shared/standard-headers.js';
import type {
  AccountSummary,
  ContainerSummary,
  FolderEntry,
  ObjectDetails,
  VersionEntry,
} from '../../src-shared/model/storage.js';

const iso = (ms: number) => new Date(ms).toISOString();
/** The engine's -1 means unlimited; the model says null. */
const limit = (n: number) => (n < 0 ? null : n);

export function accountSummary(a: AccountInfo): AccountSummary {
  return {
    id: a.id,
    displayName: a.displayName || null,
    usage: { objects: a.usage.objects, bytes: a.usage.bytes, containers: a.usage.containers, quotaBytes: a.usage.bytesActual },
    quota: { maxBytes: limit(a.quota.maxBytes), maxObjects: limit(a.quota.maxObjects) },
  };
}

export function containerSummary(c: ContainerInfo): ContainerSummary {
  const open = publicAccess(c);
  const quota = { maxBytes: limit(c.quota.maxBytes), maxObjects: limit(c.quota.maxObjects) };
  return {
    name: c.name,
    objects: c.usage.objects,
    bytes: c.usage.bytes,
    quotaBytes: c.usage.bytesActual,
    created: iso(c.created),
    // Public if anyone may list it or read its objects, as the server decides for anonymous
    // requests: the S3 public-read flag, a native `.r:*` read ACL, or a public bucket policy.
    public: open.list || open.read,
    quota: quota.maxBytes === null && quota.maxObjects === null ? null : quota,
  };
}

export function objectDetails(o: ObjectInfo, c: ContainerInfo): ObjectDetails {
  const details: ObjectDetails = {
    container: o.container,
    name: o.name,
    size: o.size,
    etag: o.etag,
    lastModified: iso(o.lastModified),
    contentType: o.contentType,
    meta: { ...o.meta },
    // The model's (robotsTag is native-only and stays in the engine).
    headers: commonHeaders(o.headers),
    versionId: o.versionId,
    storageClass: 'STANDARD',
    // Readable without credentials through either API, as the server decides it: its own flag,
    // the container's `.r:*` read ACL or a bucket policy granting s3:GetObject to everyone.
    publicRead: objectIsPublic(c, o.publicRead),
  };
  if (o.tags?.length) details.tags = o.tags.map((t) => ({ key: t.key, value: t.value }));
  if (o.retention) details.retention = { mode: o.retention.mode, until: iso(o.retention.until) };
  if (o.legalHold !== undefined) details.legalHold = o.legalHold;
  return details;
}

export function folderEntry(e: ListEntry): FolderEntry {
  if (e.kind === 'prefix') return { kind: 'folder', prefix: e.prefix };
  const o = e.object;
  return { kind: 'object', name: e.name, size: o.size, etag: o.etag, lastModified: iso(o.lastModified), contentType: o.contentType };
}

export function versionEntry(o: ObjectInfo): VersionEntry {
  return {
    versionId: o.versionId ?? 'null',
    isLatest: o.isLatest,
    deleteMarker: o.deleteMarker,
    size: o.size,
    etag: o.etag,
    lastModified: iso(o.lastModified),
  };
}

/** Read ACL items that let anyone read objects (`.r:*`) and list them (`.rlistings`). */
const PUBLIC_READ_ITEMS = ['.r:*', '.rlistings'];

/**
 * The read ACL with public read switched on or off. Other grants (named accounts, referrer
 * rules) stay: turning public read off must not revoke what someone else was given.
 */
export function publicReadAcl(read: string | undefined, on: boolean): string | null {
  const kept = (read ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item && !PUBLIC_READ_ITEMS.includes(item));
  const items = on ? [...kept, ...PUBLIC_READ_ITEMS] : kept;
  return items.length > 0 ? items.join(',') : null;
}
