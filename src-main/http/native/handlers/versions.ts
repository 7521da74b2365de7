import { isCofferError } from '../../../../src-shared/errors.js';
import type { ContainerInfo, ObjectInfo, VersionEntry } from '../../../engine/index.js';
import { isoMillis } from '../../common/dates.js';
import type { HeaderValues } from '../../common/exchange.js';
import { NativeError, nativeErrorOf, plainError } from '../errors.js';
import { LISTING_LIMIT } from '../limits.js';
import { CONTENT_TYPES, listedContentType, symlinkFields } from '../listing-format.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';
import { containerHeaders } from './container.js';

// Swift's object versioning (X-Versions-Enabled, `?versions`, `?version-id=`) over the engine's
// versions, the same ones S3 versioning keeps: a version written through one API is listed,
// read and deleted by the same id through the other.

/** How Swift's version listings mark a delete marker. */
export const DELETE_MARKER_TYPE = 'application/x-deleted;swift_versions_deleted=1';
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
/** The engine's version ids (ops/versioning.ts newVersionId): 32 URL-safe characters. */
const VERSION_ID = /^[A-Za-z0-9_-]{32}$/;

const refOf = (c: ContainerInfo) => ({ tenant: c.tenant, container: c.name });

/** Once a container has been versioned (enabled or suspended), Swift names the version of every read. */
export const versioned = (c: ContainerInfo): boolean => c.versioning !== 'unversioned';

/**
 * The `version-id` a request names, checked in Swift's order: only a versioned container has
 * versions to name (but 'null', the unversioned object, may always be named), then its form.
 */
export function checkVersionId(c: ContainerInfo, id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  if (!versioned(c) && id !== 'null') throw new NativeError(400, 'version-aware operations require that the container is versioned');
  if (id !== 'null' && !VERSION_ID.test(id)) throw new NativeError(400, 'Invalid version parameter');
  return id;
}

/** Headers a read of a versioned object carries: its id, and where the current one lives by id. */
export function versionHeaders(o: ObjectInfo, currentAt: string | undefined): HeaderValues {
  const h: HeaderValues = { 'X-Object-Version-Id': o.versionId ?? 'null' };
  if (currentAt !== undefined && o.versionId !== null) h['Content-Location'] = `${currentAt}?version-id=${encodeURIComponent(o.versionId)}`;
  return h;
}

/** The same refusal with more headers (a 404 still says which version it was about). */
export function withHeaders(err: unknown, headers: HeaderValues): unknown {
  const extra = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
  if (err instanceof NativeError) return new NativeError(err.status, err.body, { ...err.headers, ...extra });
  if (!isCofferError(err)) return err;
  return nativeErrorOf(err, extra);
}

/** What a failed read of a versioned object answers with, as Swift: the marker it hit, or 'null'. */
export function readFailureHeaders(err: unknown, versionId: string | undefined): HeaderValues {
  if (versionId === undefined) return isCofferError(err, 'NoSuchKey') ? { 'X-Object-Version-Id': 'null' } : {};
  return isCofferError(err, 'DeleteMarker') ? { 'X-Object-Version-Id': versionId, 'Content-Type': DELETE_MARKER_TYPE } : {};
}

/** The id of the current version after a change, 'null' when there is none (as Swift reports it). */
function currentVersionId(call: NativeCall, c: ContainerInfo, name: string): string {
  try {
    return call.ctx.engine.headObject(refOf(c), name).versionId ?? 'null';
  } catch {
    return 'null';
  }
}

/**
 * DELETE in a versioned container. Without an id: a delete marker (enabled: named in the answer),
 * 404 when there was nothing to hide, as Swift. With one: exactly that version, and the answer
 * names it and the current version left.
 */
export async function deleteVersioned(call: NativeCall<NativeOpOf<'DeleteObject'>>, c: ContainerInfo, versionId: string | undefined): Promise<void> {
  const { x, ctx, op } = call;
  const name = op.path.object;
  if (versionId === undefined) {
    const r = await ctx.engine.deleteObject(refOf(c), name);
    const headers: HeaderValues = c.versioning === 'enabled' ? { 'X-Object-Version-Id': r.versionId ?? 'null' } : {};
    if (!r.hidCurrent) throw withHeaders(new NativeError(404), headers);
    return reply(x, 204, headers);
  }
  try {
    await ctx.engine.deleteObject(refOf(c), name, { versionId });
  } catch (err) {
    throw withHeaders(err, { 'X-Object-Version-Id': versionId, 'X-Object-Current-Version-Id': currentVersionId(call, c, name) });
  }
  reply(x, 204, { 'X-Object-Version-Id': versionId, 'X-Object-Current-Version-Id': currentVersionId(call, c, name) });
}

/** `PUT ?version-id=`: a copy of that version becomes the current one (its content, type and metadata). */
export async function restoreVersion(call: NativeCall<NativeOpOf<'RestoreVersion'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, op } = call;
  const versionId = checkVersionId(c, op.versionId)!;
  const at = { ref: refOf(c), name: op.path.object };
  try {
    const { object } = await ctx.engine.copyObject(at, at, { metadata: 'copy', sourceVersionId: versionId });
    reply(x, 201, { Etag: object.etag, 'X-Object-Version-Id': object.versionId ?? 'null' });
  } catch (err) {
    if (isCofferError(err, 'NoSuchVersion') || isCofferError(err, 'DeleteMarker')) throw plainError(404, 'The specified version does not exist');
    throw err;
  }
}

type VersionRow =
  | { subdir: string }
  | { name: string; bytes: number; hash: string; content_type: string; last_modified: string; is_latest: boolean; version_id: string };

/** One version as Swift lists it; a link and an SLO with the fields the plain listing gives them (symlink_path…, slo_etag). */
function versionRow(e: VersionEntry, account: string): VersionRow {
  if (e.kind === 'prefix') return { subdir: e.prefix };
  const v = e.version;
  const row = {
    name: e.name,
    bytes: v.deleteMarker ? 0 : v.size,
    hash: v.deleteMarker ? EMPTY_MD5 : (v.manifestEtag ?? v.etag),
    content_type: v.deleteMarker ? DELETE_MARKER_TYPE : v.contentType ? listedContentType(v.contentType) : 'application/octet-stream',
    last_modified: isoMillis(v.lastModified),
    is_latest: v.isLatest,
    version_id: v.versionId ?? 'null',
  };
  if (v.manifestEtag !== undefined) Object.assign(row, { slo_etag: `"${v.etag}"` });
  if (v.link) Object.assign(row, symlinkFields(v.link, account));
  return row;
}

/** `GET ?versions`: every version and delete marker by name, newest first, as JSON (Swift's only format for it). */
export function listVersions(call: NativeCall<NativeOpOf<'ListVersions'>>, c: ContainerInfo): void {
  const { x, ctx } = call;
  const p = call.op.listing;
  if (p.versionMarker !== undefined && p.versionMarker !== 'null' && !VERSION_ID.test(p.versionMarker)) throw new NativeError(400, 'invalid version_marker param');
  const page = ctx.engine.listVersions(refOf(c), {
    ...(p.prefix !== undefined ? { prefix: p.prefix } : {}),
    ...(p.delimiter ? { delimiter: p.delimiter } : {}),
    ...(p.marker ? { keyMarker: p.marker } : {}),
    ...(p.marker && p.versionMarker !== undefined ? { versionIdMarker: p.versionMarker } : {}),
    limit: p.limit ?? LISTING_LIMIT,
  });
  const headers = { ...containerHeaders(c, call.who.account === c.owner), ...baseHeaders(x, CONTENT_TYPES.json), 'Accept-Ranges': 'bytes' };
  x.send(200, headers, JSON.stringify(page.entries.map((e) => versionRow(e, call.op.path.account))));
}
