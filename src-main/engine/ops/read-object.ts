import { Readable } from 'node:stream';
import type { FileHandle } from 'node:fs/promises';
import { CofferError } from '../../../src-shared/errors.js';
import { returnBlobBuffer, takeBlobBuffer } from '../blobs/buffers.js';
import type { EngineContext } from '../context.js';
import { objectKey } from '../index/keys.js';
import type { ContainerRecord, ContainerRef, Manifest, ManifestSummary, ObjectInfo, ObjectRecord } from '../types.js';
import { largeObjectInfo, readLargeObject, type SegmentReadCheck } from './large-object-read.js';
import { requireContainer } from './containers.js';
import { requireFindableName } from './name-limits.js';
import { olderVersions } from './versioning.js';

/** An object past its X-Delete-At behaves as deleted even before the expirer removes it. */
export function isLive(rec: Pick<ObjectRecord, 'deleteMarker' | 'deleteAt'>, nowMs: number): boolean {
  return !rec.deleteMarker && (rec.deleteAt === undefined || rec.deleteAt * 1000 > nowMs);
}

export function toInfo(c: ContainerRecord, name: string, rec: ObjectRecord, isLatest: boolean): ObjectInfo {
  // Optional fields are added afterwards rather than spread in: this runs once per listed entry.
  const info: ObjectInfo = {
    container: c.name,
    name,
    size: rec.manifest?.kind === 'slo' ? rec.manifest.size : rec.size,
    etag: rec.etag,
    lastModified: Math.floor(rec.mtime / 1000),
    mtimeMicros: rec.mtime,
    contentType: rec.contentType,
    headers: rec.headers,
    meta: rec.meta,
    versionId: rec.versionId,
    isLatest,
    deleteMarker: !!rec.deleteMarker,
    publicRead: !!rec.publicRead,
    checksums: rec.checksums ?? {},
    checksumType: rec.checksumType ?? 'FULL_OBJECT',
  };
  if (rec.deleteAt !== undefined) info.deleteAt = rec.deleteAt;
  if (rec.grants) info.grants = rec.grants;
  if (rec.parts) {
    info.partsCount = rec.parts;
    if ('segments' in rec.data) info.partSizes = rec.data.segments.map((seg) => seg.size);
    if (rec.partChecksums) info.partChecksums = rec.partChecksums;
  }
  if (rec.manifest) {
    info.manifest = summarize(rec.manifest);
    if (rec.manifest.kind === 'slo' && rec.manifest.documentEtag !== undefined) info.manifestEtag = rec.manifest.documentEtag;
  }
  if (rec.tags) info.tags = rec.tags;
  if (rec.retention) info.retention = rec.retention;
  if (rec.legalHold !== undefined) info.legalHold = rec.legalHold;
  if (rec.link) info.link = rec.link;
  return info;
}

function summarize(m: Manifest): ManifestSummary {
  return m.kind === 'slo' ? { kind: 'slo', segments: m.segments.length } : m;
}

export interface Found {
  container: ContainerRecord;
  record: ObjectRecord;
  isLatest: boolean;
}

/**
 * The version a read addresses: the current one, or the one with `versionId` ('null' or null
 * for the null version). Throws NoSuchKey (with `deleteMarker` in details when the latest
 * version is a marker), NoSuchVersion, or DeleteMarker when a marker is addressed by id.
 */
export function findVersion(ctx: EngineContext, ref: ContainerRef, name: string, versionId?: string | null): Found {
  const container = requireContainer(ctx, ref);
  requireFindableName(name);
  const current = ctx.store.objects.get(objectKey(container.cid, name));
  if (versionId === undefined) {
    if (current && isLive(current, Date.now())) return { container, record: current, isLatest: true };
    const [newest] = current ? [] : olderVersions(ctx, container.cid, name);
    const details = newest?.record.deleteMarker ? { deleteMarker: true, versionId: newest.record.versionId } : {};
    throw new CofferError('NoSuchKey', 'The specified key does not exist.', details);
  }
  const wanted = versionId === 'null' ? null : versionId;
  if (current?.versionId === wanted) return { container, record: current, isLatest: true };
  const older = olderVersions(ctx, container.cid, name);
  const i = older.findIndex((v) => v.record.versionId === wanted);
  if (i < 0) throw new CofferError('NoSuchVersion', 'The specified version does not exist.');
  const record = older[i]!.record;
  const isLatest = !current && i === 0;
  if (record.deleteMarker) {
    throw new CofferError('DeleteMarker', 'The specified version is a delete marker.', {
      versionId: record.versionId,
      lastModified: Math.floor(record.mtime / 1000),
    });
  }
  return { container, record, isLatest };
}

/**
 * What HEAD shows of a found version. A DLO's size and ETag depend on its segments as they are
 * now (listed as the reader: `canRead` as in ReadOptions).
 */
export function infoOf(ctx: EngineContext, f: Found, name: string, canRead?: SegmentReadCheck): ObjectInfo {
  if (f.record.manifest?.kind === 'dlo') return largeObjectInfo(ctx, f, name, canRead);
  return toInfo(f.container, name, f.record, f.isLatest);
}

export function headObject(ctx: EngineContext, ref: ContainerRef, name: string, versionId?: string | null, canRead?: SegmentReadCheck): ObjectInfo {
  return infoOf(ctx, findVersion(ctx, ref, name, versionId), name, canRead);
}

export type RangeRequest = { start: number; end?: number } | { suffix: number };

export interface ByteRange {
  start: number;
  /** inclusive */
  end: number;
}

/**
 * Whether ranges asked of an object of `size` bytes mean its whole, empty self: a suffix of
 * non-zero length (`bytes=-5`) is satisfiable (RFC 9110 14.1.1: the last N bytes, or all of
 * fewer), yet no Content-Range can name a byte of an empty object. Swift's swob (and Apache and
 * nginx) then answer 200 with the object, also when such a suffix is among several ranges; the
 * native API does. `bytes=0-…` and `bytes=-0` stay unsatisfiable (416).
 */
export function rangeMeansWholeEmpty(ranges: RangeRequest | readonly RangeRequest[] | undefined, size: number): boolean {
  if (size !== 0 || ranges === undefined) return false;
  return (Array.isArray(ranges) ? ranges : [ranges]).some((r: RangeRequest) => 'suffix' in r && r.suffix > 0);
}

/** Resolves a requested range against the size; throws InvalidRange when unsatisfiable. */
export function resolveRange(req: RangeRequest, size: number): ByteRange {
  const unsatisfiable = () => new CofferError('InvalidRange', 'The requested range is not satisfiable', { size });
  if (size === 0) throw unsatisfiable();
  if ('suffix' in req) {
    if (req.suffix <= 0) throw unsatisfiable();
    return { start: Math.max(0, size - req.suffix), end: size - 1 };
  }
  if (req.start >= size) throw unsatisfiable();
  return { start: req.start, end: Math.min(req.end ?? size - 1, size - 1) };
}

export interface ObjectRead {
  info: ObjectInfo;
  range?: ByteRange;
  body: Readable;
  /**
   * The bytes `body` streams when they are already in memory (an inline object, or a range of
   * one): a server can send them in one write and drop `body`. Absent for a body read from files.
   */
  bytes?: Buffer;
}

interface OpenSegment {
  fh: FileHandle;
  start: number;
  end: number;
}

/** Each segment's range, read into lent buffers (blobs/buffers.ts): a chunk is a slice of one. */
async function* readSegments(open: OpenSegment[]): AsyncGenerator<Buffer> {
  for (const s of open) {
    for (let at = s.start; at <= s.end; ) {
      const buf = takeBlobBuffer();
      const { bytesRead } = await s.fh.read(buf, 0, Math.min(buf.length, s.end - at + 1), at);
      if (bytesRead === 0) {
        returnBlobBuffer(buf);
        throw new CofferError('InternalError', `A stored blob ended ${s.end - at + 1} bytes early`);
      }
      at += bytesRead;
      yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
    }
  }
}

function closeAll(open: OpenSegment[]): Promise<unknown> {
  return Promise.all(open.map((s) => s.fh.close().catch(() => undefined)));
}

/** Opens every blob the range touches before returning, so a concurrent replace or delete cannot cut the read short. */
async function openSegments(ctx: EngineContext, rec: ObjectRecord, range: ByteRange): Promise<OpenSegment[]> {
  if (!('segments' in rec.data)) return [];
  const opened: OpenSegment[] = [];
  let offset = 0;
  try {
    for (const seg of rec.data.segments) {
      const segStart = offset;
      offset += seg.size;
      if (offset <= range.start || segStart > range.end) continue;
      const fh = await ctx.blobs.openRead(seg.blob);
      opened.push({ fh, start: Math.max(0, range.start - segStart), end: Math.min(seg.size - 1, range.end - segStart) });
    }
    return opened;
  } catch (err) {
    await closeAll(opened);
    throw err;
  }
}

/**
 * The stored bytes of one version (a range of them): a stream, and the bytes themselves when
 * they are in memory (inline). Throws ENOENT when a blob was released since the record was
 * read: the caller looks the version up again.
 */
export async function openStored(ctx: EngineContext, rec: ObjectRecord, range: ByteRange | undefined): Promise<{ body: Readable; bytes?: Buffer }> {
  const inline = 'inline' in rec.data ? ctx.store.getInline(rec.data) : undefined;
  if (inline) {
    const bytes = range ? inline.subarray(range.start, range.end + 1) : inline;
    return { body: Readable.from([bytes]), bytes };
  }
  const open = await openSegments(ctx, rec, range ?? { start: 0, end: rec.size - 1 });
  // Two chunks read ahead (Readable.from's default is 16: 8 MiB waiting per GET).
  const body = Readable.from(readSegments(open), { highWaterMark: 2 });
  // On 'close', not in the generator's finally: a stream destroyed before its first read (HEAD,
  // a client gone early) never runs the generator, and its file handles would stay open.
  body.once('close', () => void closeAll(open));
  return { body };
}

export interface ReadOptions {
  versionId?: string | null;
  range?: RangeRequest;
  /** A manifest's own stored bytes instead of the assembled large object. */
  raw?: boolean;
  /**
   * Whether the reader may read objects in this container: a large object's segments elsewhere
   * are read as its reader (as Swift reads them with the reader's credentials), so a manifest
   * cannot hand out segments its reader could not read directly. Unset: the owner reading.
   */
  canRead?: SegmentReadCheck;
}

/** Reads an object (or a byte range of it) as a stream of its bytes; manifests are assembled from their segments. */
export async function getObject(ctx: EngineContext, ref: ContainerRef, name: string, opts: ReadOptions = {}): Promise<ObjectRead> {
  for (let attempt = 0; ; attempt++) {
    const found = findVersion(ctx, ref, name, opts.versionId);
    const rec = found.record;
    if (rec.manifest && !opts.raw) return readLargeObject(ctx, found, name, opts.range, opts.canRead);
    const range = opts.range ? resolveRange(opts.range, rec.size) : undefined;
    const info = { ...toInfo(found.container, name, rec, found.isLatest), size: rec.size };
    try {
      const stored = await openStored(ctx, rec, range);
      const read: ObjectRead = { info, body: stored.body };
      if (range) read.range = range;
      if (stored.bytes) read.bytes = stored.bytes;
      return read;
    } catch (err) {
      // The version was replaced between the lookup and the open: look it up again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw err;
    }
  }
}
