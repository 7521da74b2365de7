import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import type { ContainerInfo, ContainerRef, DloTarget, ObjectInfo, SloSegment } from '../types.js';
import { deleteMany, type DeleteCheck, type DeleteReport, type DeleteTarget } from './bulk-delete.js';
import { commitVersion, payloadOf, type WriteConditions } from './commit.js';
import { containerInfo, findContainer } from './containers.js';
import { MAX_NESTING } from './large-object-read.js';
import { checkDeleteAt, requireValidName, versionFields, type ObjectFields, type PutOptions } from './put-object.js';
import { findVersion, headObject, toInfo } from './read-object.js';
import { discardReceived, receiveBody, type Body } from './receive-body.js';
import { manifestDocument, manifestEtag, segmentSpan, sloEtag } from './slo-document.js';

export { manifestDocument } from './slo-document.js';

/** Swift's SLO limits (also published in /info). Segments may be 1 byte; only the last may be empty. */
export const SLO_LIMITS = { maxSegments: 1000, maxManifestBytes: 8 * 1024 * 1024, minSegmentSize: 1 } as const;

/** A segment as a client lists it: which object, and optionally the ETag and size it must have. */
export interface SloSegmentSpec {
  container: string;
  name: string;
  etag?: string | null;
  size?: number | null;
  /** Only these bytes of the segment, as the client wrote the range (`M-N`, `M-` or `-N`; parsed, not yet checked against its size). */
  range?: SegmentRange;
}

/** A segment's byte range before the segment's size is known: `first-last`, `first-` (last null) or `-suffix` (first null). */
export interface SegmentRange {
  first: number | null;
  last: number | null;
}

export type SegmentProblem = 'not-found' | 'forbidden' | 'etag-mismatch' | 'size-mismatch' | 'too-small' | 'unsatisfiable-range';

export interface SegmentProblemEntry {
  /** `/container/object`, as the client named it. */
  path: string;
  problem: SegmentProblem;
}

export interface SloPutOptions extends ObjectFields, WriteConditions {
  /** The SLO ETag the client expects (BadDigest otherwise). */
  expectedEtag?: string;
  /** Whether the caller may read segments in this container ('forbidden' otherwise). */
  canRead?: (container: ContainerInfo) => boolean;
}

/** The per-segment problems an SLO PUT was refused for, if `err` is that refusal. */
export function sloProblems(err: unknown): SegmentProblemEntry[] | undefined {
  if (!isCofferError(err, 'InvalidArgument')) return undefined;
  const problems = err.details.sloProblems;
  return Array.isArray(problems) ? (problems as SegmentProblemEntry[]) : undefined;
}

/**
 * A segment's range against its size, as Swift stores it: `first-last`; undefined when it spans
 * the whole segment (Swift drops such a range), null when no byte of it exists.
 */
function normalRange(r: SegmentRange, size: number): string | null | undefined {
  let first: number;
  let last: number;
  if (r.first === null) {
    if (r.last === 0 || r.last === null) return null;
    first = Math.max(0, size - r.last);
    last = size - 1;
  } else {
    if (r.first >= size) return null;
    first = r.first;
    last = r.last === null ? size - 1 : Math.min(r.last, size - 1);
  }
  return first === 0 && last === size - 1 ? undefined : `${first}-${last}`;
}

function checkSegments(ctx: EngineContext, tenant: string, specs: SloSegmentSpec[], opts: SloPutOptions): SloSegment[] {
  const problems: SegmentProblemEntry[] = [];
  const readable = new Map<string, boolean>();
  const segments: SloSegment[] = [];
  for (const [i, spec] of specs.entries()) {
    const path = `/${spec.container}/${spec.name}`;
    const ref = { tenant, container: spec.container };
    const rec = findContainer(ctx, ref);
    if (rec && opts.canRead && !readable.has(spec.container)) readable.set(spec.container, opts.canRead(containerInfo(ctx, rec)));
    if (rec && readable.get(spec.container) === false) {
      problems.push({ path, problem: 'forbidden' });
      continue;
    }
    let seg: ObjectInfo;
    try {
      seg = headObject(ctx, ref, spec.name);
    } catch (err) {
      if (!isCofferError(err, 'NoSuchKey') && !isCofferError(err, 'NoSuchContainer')) throw err;
      problems.push({ path, problem: 'not-found' });
      continue;
    }
    const last = i === specs.length - 1;
    const range = spec.range ? normalRange(spec.range, seg.size) : undefined;
    if (range === null) problems.push({ path, problem: 'unsatisfiable-range' });
    const length = range ? segmentSpan({ size: seg.size, range }).length : seg.size;
    if (length < SLO_LIMITS.minSegmentSize && !last) problems.push({ path, problem: 'too-small' });
    if (spec.size != null && spec.size !== seg.size) problems.push({ path, problem: 'size-mismatch' });
    if (spec.etag != null && spec.etag.replace(/"/g, '').toLowerCase() !== seg.etag) problems.push({ path, problem: 'etag-mismatch' });
    segments.push({
      container: spec.container,
      name: spec.name,
      etag: seg.etag,
      size: seg.size,
      contentType: seg.contentType,
      lastModified: seg.lastModified,
      ...(range ? { range } : {}),
      ...(seg.manifest?.kind === 'slo' ? { subSlo: true } : {}),
    });
  }
  if (problems.length > 0) throw new CofferError('InvalidArgument', 'Invalid SLO manifest', { sloProblems: problems });
  return segments;
}

/**
 * Stores an SLO manifest: every segment must exist in the tenant and match the ETag and size
 * given. The manifest keeps what it found (so reads can tell a replaced segment) and has no
 * bytes of its own; its ETag is the MD5 of the segment ETags (a ranged one with its range), its
 * size the sum of what each segment contributes. An empty list is an empty object, as in Swift.
 */
export async function putStaticLargeObject(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  specs: SloSegmentSpec[],
  opts: SloPutOptions = {},
): Promise<ObjectInfo> {
  requireValidName(name);
  checkDeleteAt(opts.deleteAt);
  if (specs.length > SLO_LIMITS.maxSegments) {
    throw new CofferError('EntityTooLarge', `Number of segments must be <= ${SLO_LIMITS.maxSegments}`);
  }
  if (!findContainer(ctx, ref)) throw new CofferError('NoSuchContainer', `Container ${ref.container} does not exist`);
  const segments = checkSegments(ctx, ref.tenant, specs, opts);
  const etag = sloEtag(segments);
  if (opts.expectedEtag !== undefined && opts.expectedEtag.replace(/"/g, '').toLowerCase() !== etag) {
    throw new CofferError('BadDigest', 'The ETag you specified did not match the SLO ETag', { md5: etag });
  }
  const size = segments.reduce((n, s) => n + segmentSpan(s).length, 0);
  const documentBytes = Buffer.byteLength(manifestDocument(segments));
  const manifest = { kind: 'slo' as const, size, segments, documentBytes, documentEtag: manifestEtag(segments) };
  const fields = { ...versionFields(name, opts, etag), manifest };
  const { container, record } = await commitVersion(ctx, ref, name, { size: 0 }, fields, opts);
  return toInfo(container, name, record, true);
}

/** Stores a DLO manifest: an object (usually empty) whose reads join `container`'s objects under `prefix`. */
export async function putDynamicLargeObject(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  body: Body,
  target: Omit<DloTarget, 'kind'>,
  opts: PutOptions = {},
): Promise<ObjectInfo> {
  requireValidName(name);
  checkDeleteAt(opts.deleteAt);
  if (!target.container) throw new CofferError('InvalidArgument', 'X-Object-Manifest must be in the format container/prefix');
  if (!findContainer(ctx, ref)) throw new CofferError('NoSuchContainer', `Container ${ref.container} does not exist`);
  const received = await receiveBody(ctx, body, opts);
  try {
    const fields = { ...versionFields(name, opts, received.md5), manifest: { kind: 'dlo' as const, ...target } };
    const { container, record } = await commitVersion(ctx, ref, name, payloadOf(received), fields, opts);
    return toInfo(container, name, record, true);
  } catch (err) {
    await discardReceived(ctx, received);
    throw err;
  }
}

/** An SLO's stored segment list (`?multipart-manifest=get`), or undefined when the object is no SLO. */
export function getStaticManifest(ctx: EngineContext, ref: ContainerRef, name: string): { info: ObjectInfo; segments: SloSegment[] } | undefined {
  const f = findVersion(ctx, ref, name);
  const m = f.record.manifest;
  if (m?.kind !== 'slo') return undefined;
  return { info: toInfo(f.container, name, f.record, f.isLatest), segments: m.segments };
}

/** Segments to delete for an SLO, nested SLOs expanded (their segments first, then them). */
function segmentTargets(ctx: EngineContext, tenant: string, segments: SloSegment[], depth: number): DeleteTarget[] {
  const out: DeleteTarget[] = [];
  for (const s of segments) {
    if (s.subSlo && depth < MAX_NESTING) {
      const sub = tryManifest(ctx, { tenant, container: s.container }, s.name);
      if (sub) out.push(...segmentTargets(ctx, tenant, sub, depth + 1));
    }
    out.push({ container: s.container, name: s.name });
  }
  return out;
}

function tryManifest(ctx: EngineContext, ref: ContainerRef, name: string): SloSegment[] | undefined {
  try {
    return getStaticManifest(ctx, ref, name)?.segments;
  } catch {
    return undefined;
  }
}

/**
 * `DELETE ?multipart-manifest=delete`: the segments, then the manifest, reported like a bulk
 * delete. An object that is no SLO is left alone and reported as an error (as Swift does).
 */
export async function deleteStaticLargeObject(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  canDelete?: DeleteCheck,
): Promise<DeleteReport> {
  let segments: SloSegment[] | undefined;
  try {
    segments = getStaticManifest(ctx, ref, name)?.segments;
  } catch (err) {
    if (isCofferError(err, 'NoSuchKey') || isCofferError(err, 'NoSuchContainer')) return { deleted: 0, notFound: 1, errors: [] };
    throw err;
  }
  if (!segments) {
    return { deleted: 0, notFound: 0, errors: [{ path: `/${ref.container}/${name}`, code: 'InvalidArgument', message: 'Not an SLO manifest' }] };
  }
  const targets = [...segmentTargets(ctx, ref.tenant, segments, 1), { container: ref.container, name }];
  return deleteMany(ctx, ref.tenant, targets, canDelete);
}
