import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import type { ContainerInfo, ContainerRecord, ObjectInfo, ObjectRecord } from '../types.js';
import { containerInfoForRequest, findContainer } from './containers.js';
import { listObjects } from './list-objects.js';
import { segmentSpan } from './slo-document.js';
import { findVersion, openStored, resolveRange, toInfo, type ByteRange, type Found, type ObjectRead, type RangeRequest } from './read-object.js';

export type SegmentReadCheck = (container: ContainerInfo) => boolean;

/** Swift's limit on SLOs nested in SLOs; also stops a manifest that (indirectly) names itself. */
export const MAX_NESTING = 10;

/** One object a large object is made of, with the size and ETag it must still have. */
interface Piece {
  container: string;
  name: string;
  etag: string;
  /** The segment's whole size, which it must still have. */
  size: number;
  /** The bytes of it the large object reads (an SLO segment's `range`; else all of it). */
  offset: number;
  length: number;
  /** Read a DLO piece as its own bytes: DLO segments are listed, and listings show a DLO's own size. */
  rawDlo: boolean;
}

interface Assembly {
  size: number;
  etag: string;
  pieces: Piece[];
}

/** Swift's large-object ETag: the MD5 of the segments' ETags (hex strings) one after the other. */
export function combinedEtag(etags: string[]): string {
  const h = createHash('md5');
  for (const e of etags) h.update(e);
  return h.digest('hex');
}

/** The objects of `container` under `prefix`, in name order: the segments of a DLO, as they are now. */
function dloPieces(ctx: EngineContext, tenant: string, container: string, prefix: string): Piece[] {
  const ref = { tenant, container };
  if (!findContainer(ctx, ref)) return [];
  const pieces: Piece[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = listObjects(ctx, ref, { prefix, ...(marker !== undefined ? { marker } : {}) });
    for (const e of page.entries) {
      if (e.kind === 'object') pieces.push({ container, name: e.name, etag: e.object.etag, size: e.object.size, offset: 0, length: e.object.size, rawDlo: true });
    }
    if (!page.truncated || page.nextMarker === undefined) return pieces;
    marker = page.nextMarker;
  }
}

function assemble(ctx: EngineContext, c: ContainerRecord, rec: ObjectRecord): Assembly {
  const m = rec.manifest;
  if (m?.kind === 'slo') {
    const pieces = m.segments.map((s) => ({ container: s.container, name: s.name, etag: s.etag, size: s.size, ...segmentSpan(s), rawDlo: false }));
    return { size: m.size, etag: rec.etag, pieces };
  }
  if (m?.kind === 'dlo') {
    const pieces = dloPieces(ctx, c.tenant, m.container, m.prefix);
    return { size: pieces.reduce((n, p) => n + p.size, 0), etag: combinedEtag(pieces.map((p) => p.etag)), pieces };
  }
  throw new CofferError('InternalError', 'Not a large object');
}

/** What HEAD shows for a manifest: its own metadata with the assembled size and ETag. */
export function largeObjectInfo(ctx: EngineContext, found: Found, name: string, canRead?: SegmentReadCheck): ObjectInfo {
  const m = found.record.manifest;
  // A DLO's figures come from listing its segment container, as its reader.
  if (m?.kind === 'dlo') new SegmentAccess(ctx, found.container, canRead).require(m.container);
  const a = assemble(ctx, found.container, found.record);
  return { ...toInfo(found.container, name, found.record, found.isLatest), size: a.size, etag: a.etag };
}

interface Slice {
  piece: Piece;
  /** Inclusive byte range within the piece's segment (its offset included). */
  start: number;
  end: number;
}

function slicesOf(pieces: Piece[], range: ByteRange): Slice[] {
  const out: Slice[] = [];
  let offset = 0;
  for (const piece of pieces) {
    const first = offset;
    offset += piece.length;
    if (piece.length === 0 || offset <= range.start || first > range.end) continue;
    const start = Math.max(0, range.start - first);
    const end = Math.min(piece.length - 1, range.end - first);
    out.push({ piece, start: piece.offset + start, end: piece.offset + end });
  }
  return out;
}

/** The reader's permission to read segments, asked once per container of one read. */
class SegmentAccess {
  private readonly verdicts = new Map<string, boolean>();
  private readonly tenant: string;

  constructor(
    private readonly ctx: EngineContext,
    manifestContainer: ContainerRecord,
    private readonly canRead: SegmentReadCheck | undefined,
  ) {
    this.tenant = manifestContainer.tenant;
    // The reader got to the manifest, so its own container is readable.
    this.verdicts.set(manifestContainer.name, true);
  }

  require(container: string): void {
    if (!this.canRead) return;
    let ok = this.verdicts.get(container);
    if (ok === undefined) {
      const rec = findContainer(this.ctx, { tenant: this.tenant, container });
      // A missing container is the segment's problem (BrokenLargeObject when opened), not access.
      ok = !rec || this.canRead(containerInfoForRequest(this.ctx, rec));
      this.verdicts.set(container, ok);
    }
    if (!ok) throw new CofferError('AccessDenied', `The large object has segments in container ${container}, which these credentials cannot read`);
  }
}

function segmentError(p: Piece, why: string): CofferError {
  // Not a server fault and not worth a retry: the object cannot be served as stored until rewritten.
  return new CofferError('BrokenLargeObject', `Segment /${p.container}/${p.name} of the large object ${why}`, { segment: p });
}

/**
 * Opens one slice of a piece, checking the piece still is what the manifest (or the listing)
 * promised; a replaced or deleted segment must not be served as part of the object.
 */
async function openSlice(ctx: EngineContext, tenant: string, s: Slice, depth: number, canRead: SegmentReadCheck | undefined): Promise<Readable> {
  const p = s.piece;
  for (let attempt = 0; ; attempt++) {
    let found: Found;
    try {
      found = findVersion(ctx, { tenant, container: p.container }, p.name);
    } catch (err) {
      if (isCofferError(err, 'NoSuchKey') || isCofferError(err, 'NoSuchContainer')) throw segmentError(p, 'is missing');
      throw err;
    }
    const rec = found.record;
    if (rec.manifest && !(p.rawDlo && rec.manifest.kind === 'dlo')) {
      const sub = await readLargeObject(ctx, found, p.name, { start: s.start, end: s.end }, canRead, depth + 1);
      if (sub.info.etag !== p.etag || sub.info.size !== p.size) {
        sub.body.destroy();
        throw segmentError(p, 'changed');
      }
      return sub.body;
    }
    if (rec.etag !== p.etag || rec.size !== p.size) throw segmentError(p, 'changed');
    try {
      return (await openStored(ctx, rec, { start: s.start, end: s.end })).body;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw err;
    }
  }
}

/**
 * Streams a manifest's segments in order (a range of the whole, across segment boundaries).
 * The first segment is opened before returning, so a broken object fails with an error status
 * rather than a cut connection; later segments open as the stream reaches them, as Swift does,
 * so a large object never holds a thousand files open.
 */
export async function readLargeObject(ctx: EngineContext, found: Found, name: string, req?: RangeRequest, canRead?: SegmentReadCheck, depth = 0): Promise<ObjectRead> {
  // Swift reads ten levels of manifests (the outermost included) and refuses an eleventh.
  if (depth >= MAX_NESTING) throw new CofferError('BrokenLargeObject', 'Max recursion depth exceeded');
  const access = new SegmentAccess(ctx, found.container, canRead);
  const m = found.record.manifest;
  // A DLO lists its segment container: the reader must be allowed to.
  if (m?.kind === 'dlo') access.require(m.container);
  const a = assemble(ctx, found.container, found.record);
  const info = { ...toInfo(found.container, name, found.record, found.isLatest), size: a.size, etag: a.etag };
  const range = req ? resolveRange(req, a.size) : undefined;
  const slices = slicesOf(a.pieces, range ?? { start: 0, end: a.size - 1 });
  const tenant = found.container.tenant;
  // Every segment container is checked before the first byte goes out, not midway through.
  for (const s of slices) access.require(s.piece.container);
  let current = slices.length > 0 ? await openSlice(ctx, tenant, slices[0]!, depth, canRead) : undefined;
  async function* pieces(): AsyncGenerator<Buffer> {
    for (let i = 0; i < slices.length; i++) {
      if (i > 0) current = await openSlice(ctx, tenant, slices[i]!, depth, canRead);
      yield* current!;
    }
  }
  const body = Readable.from(pieces());
  // Destroyed early (HEAD, client gone): release whichever segment is open.
  body.once('close', () => current?.destroy());
  return { info, ...(range ? { range } : {}), body };
}
