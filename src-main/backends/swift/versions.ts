// Swift's object versioning (2.24+, `object_versioning` in /info): X-Versions-Enabled on the
// container, `?versions` listings with version ids and delete markers, `?version-id=` on object
// requests. The legacy X-Versions-Location (an archive container of plain objects, the only
// kind Ceph RGW's Swift API has) is not mapped: it has no version ids to list or restore by.
import { CofferError } from '../../../src-shared/errors.js';
import type { FolderEntry, FolderPage, VersionEntry, VersioningStatus } from '../../../src-shared/model/storage.js';
import type { ListFolderOptions } from '../object-backend.js';
import { decodeVersionMarker, encodeVersionMarker, type VersionMarker } from '../version-marker.js';
import type { SwiftClient } from './client.js';
import { bareEtag, encodeObjectPath, encodeSegment } from './headers.js';
import { header } from './http.js';
import { listingDate } from './listing.js';

export const SWIFT_NO_VERSIONS =
  "This Swift server does not offer object versioning (no object_versioning in its /info: Swift 2.24+ has it with allow_object_versioning; Ceph RGW's Swift API has only X-Versions-Location, an archive container Coffer does not show as versions)";

/** Swift lists a delete marker as an empty object of this type. */
const DELETE_MARKER_TYPE = 'application/x-deleted;swift_versions_deleted=1';
/** Rows per request: as the plain listings (RGW and Swift both serve 1,000 at most by default). */
const REQUEST_LIMIT = 1000;

interface VersionRow {
  name?: string;
  subdir?: string;
  version_id?: string;
  is_latest?: boolean;
  bytes?: number;
  hash?: string;
  content_type?: string;
  last_modified?: string;
}

export async function containerVersioning(client: SwiftClient, container: string): Promise<VersioningStatus> {
  const { headers } = await client.call({ method: 'HEAD', container, what: `Container ${container}` });
  const v = header(headers, 'x-versions-enabled');
  if (v === undefined) return 'unversioned';
  return /^true$/i.test(v) ? 'enabled' : 'suspended';
}

export async function setContainerVersioning(client: SwiftClient, container: string, on: boolean): Promise<VersioningStatus> {
  if (!on && (await containerVersioning(client, container)) === 'unversioned') return 'unversioned';
  await client.call({ method: 'POST', container, headers: { 'X-Versions-Enabled': on ? 'true' : 'false' }, idempotent: true, what: `Versioning of ${container}` });
  return containerVersioning(client, container);
}

function entryOf(row: VersionRow): FolderEntry | undefined {
  if (row.subdir !== undefined) return { kind: 'folder', prefix: row.subdir };
  if (row.name === undefined) return undefined;
  const deleteMarker = (row.content_type ?? '').replace(/\s+/g, '') === DELETE_MARKER_TYPE;
  const common = {
    size: deleteMarker ? 0 : (row.bytes ?? 0),
    etag: deleteMarker ? '' : bareEtag(row.hash),
    lastModified: listingDate(row.last_modified) ?? new Date(0).toISOString(),
    contentType: deleteMarker ? null : (row.content_type ?? null),
  };
  const isLatest = row.is_latest === true;
  const versionId = row.version_id ?? 'null';
  if (isLatest && !deleteMarker) return { kind: 'object', name: row.name, ...common, versionId };
  return { kind: 'version', name: row.name, versionId, isLatest, deleteMarker, ...common };
}

/** One `?versions` request: its entries, and where the next one starts (undefined at the end). */
async function versionsPage(client: SwiftClient, container: string, opts: ListFolderOptions, marker: VersionMarker | undefined, limit: number) {
  const { data } = await client.json<VersionRow[]>({
    method: 'GET',
    container,
    query: {
      versions: '',
      format: 'json',
      limit,
      prefix: opts.prefix || undefined,
      delimiter: (opts.delimiter ?? '/') || undefined,
      marker: marker?.key,
      version_marker: marker?.versionId,
    },
    ...(opts.signal ? { signal: opts.signal } : {}),
    what: `Versions of ${container}`,
  });
  const rows = data ?? [];
  const last = rows.at(-1);
  const next: VersionMarker | undefined =
    rows.length < limit || !last ? undefined : last.subdir !== undefined ? { key: last.subdir } : { key: last.name ?? '', ...(last.version_id ? { versionId: last.version_id } : {}) };
  return { entries: rows.map(entryOf).filter((e): e is FolderEntry => e !== undefined), next };
}

export async function* listContainerVersions(client: SwiftClient, container: string, opts: ListFolderOptions): AsyncIterable<FolderPage> {
  let marker = decodeVersionMarker(opts.marker);
  for (;;) {
    if (opts.signal?.aborted) throw new CofferError('Aborted', 'The listing was cancelled');
    const page = await versionsPage(client, container, opts, marker, Math.min(opts.pageSize ?? REQUEST_LIMIT, REQUEST_LIMIT));
    yield { entries: page.entries, nextMarker: page.next ? encodeVersionMarker(page.next) : null };
    if (!page.next) return;
    marker = page.next;
  }
}

/** A versions-listing entry as the model's version (the current one is an `object` entry there). */
export function versionOf(e: Exclude<FolderEntry, { kind: 'folder' }>): VersionEntry {
  if (e.kind === 'version') return { versionId: e.versionId, isLatest: e.isLatest, deleteMarker: e.deleteMarker, size: e.size, etag: e.etag, lastModified: e.lastModified };
  return { versionId: e.versionId ?? 'null', isLatest: true, deleteMarker: false, size: e.size, etag: e.etag, lastModified: e.lastModified };
}

/** Every version and delete marker of one object, newest first. */
export async function objectVersions(client: SwiftClient, container: string, name: string): Promise<VersionEntry[]> {
  const out: VersionEntry[] = [];
  // The prefix also matches longer names, which sort after this one: stop at the first of them.
  for await (const page of listContainerVersions(client, container, { prefix: name, delimiter: '' })) {
    for (const e of page.entries) {
      if (e.kind === 'folder' || e.name !== name) return out;
      out.push(versionOf(e));
    }
  }
  return out;
}

/** Copies a version onto the object's own name (COPY with `?version-id=`): it becomes the newest version. */
export async function restoreSwiftVersion(client: SwiftClient, container: string, name: string, versionId: string): Promise<void> {
  await client.call({
    method: 'COPY',
    container,
    object: name,
    query: { 'version-id': versionId },
    headers: { Destination: `${encodeSegment(container)}/${encodeObjectPath(name)}` },
    idempotent: true,
    what: `Restoring a version of ${container}/${name}`,
  });
}

/**
 * Swift does not bring the previous version back when a delete marker is deleted (the object
 * stays gone), so undelete copies the newest version back; the marker stays in the history.
 */
export async function undeleteSwift(client: SwiftClient, container: string, name: string): Promise<void> {
  const versions = await objectVersions(client, container, name);
  const newest = versions.find((v) => !v.deleteMarker);
  if (!newest) throw new CofferError('NoSuchKey', `${name} has no version to bring back`);
  if (newest.isLatest) return;
  await restoreSwiftVersion(client, container, name, newest.versionId);
}

/** The PUT headers of a new container's options (quota middleware, read ACL, versioning). */
export function containerOptionHeaders(o: { public?: boolean; versioning?: boolean; quota?: { maxBytes: number | null; maxObjects: number | null } }): Record<string, string> {
  const h: Record<string, string> = {};
  if (o.quota?.maxBytes != null) h['X-Container-Meta-Quota-Bytes'] = String(o.quota.maxBytes);
  if (o.quota?.maxObjects != null) h['X-Container-Meta-Quota-Count'] = String(o.quota.maxObjects);
  if (o.public) h['X-Container-Read'] = '.r:*,.rlistings';
  if (o.versioning) h['X-Versions-Enabled'] = 'true';
  return h;
}
