import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import type { ContainerInfo, ContainerRef, ObjectInfo, SloSegment } from '../types.js';
import { deleteMany, type DeleteCheck, type DeleteReport, type DeleteTarget } from './bulk-delete.js';
import { commitVersion, payloadOf, type WriteConditions } from './commit.js';
import { containerInfo, findContainer } from './containers.js';
import { combinedEtag, MAX_NESTING } from './large-object-read.js';
import { checkDeleteAt, requireValidName, versionFields, type ObjectFields, type PutOptions } from './put-object.js';
import { findVersion, headObject, toInfo } from './read-object.js';
import { discardReceived, receiveBody, type Body } from './receive-body.js';

/** Swift's SLO limits (also published in /info). Segments may be 1 byte; only the last may be empty. */
export const SLO_LIMITS = { maxSegments: 1000, maxManifestBytes: 8 * 1024 * 1024, minSegmentSize: 1 } as const;

/** A segment as a client lists it: which object, and optionally the ETag and size it must have. */
export interface SloSegmentSpec {
  container: string;
  name: string;
  etag?: string | null;
  size?: number | null;
}

export type SegmentProblem = 'not-found' | 'forbidden' | 'etag-mismatch' | 'size-mismatch' | 'too-small';

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
    if (seg.size < SLO_LIMITS.minSegmentSize && !last) problems.push({ path, problem: 'too-small' });
    if (spec.size != null && spec.size !== seg.size) problems.push({ path, problem: 'size-mismatch' });
    if (spec.etag != null && spec.etag.replace(/"/g, '').toLowerCase() !== seg.etag) problems.push({ path, problem: 'etag-mismatch' });
    segments.push({
      container: spec.container,
      name: spec.name,
      etag: seg.etag,
      size: seg.size,
      contentType: seg.contentType,
      lastModified: seg.lastModified,
      ...(seg.manifest?.kind === 'slo' ? { subSlo: true } : {}),
    });
  }
  if (problems.length > 0) throw new CofferError('InvalidArgument', 'Invalid SLO manifest', { sloProblems: problems });
  return segments;
}

/** Swift's manifest timestamps: microseconds, no zone. */
function manifestTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

/** Python's json.dumps with its defaults (", " and ": " between items, non-ASCII escaped), as Swift writes its documents. */
function pythonJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pythonJson).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${pythonJson(k)}: ${pythonJson(x)}`).join(', ')}}`;
  return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One segment of the stored manifest, its keys in Swift's order (or the PUT form's, sorted, as Swift sorts them). */
function manifestRow(s: SloSegment, raw: boolean): Record<string, unknown> {
  const path = `/${s.container}/${s.name}`;
  if (raw) return { etag: s.etag, path, size_bytes: s.size };
  return {
    name: path,
    hash: s.etag,
    bytes: s.size,
    content_type: s.contentType,
    last_modified: manifestTime(s.lastModified),
    ...(s.subSlo ? { sub_slo: true } : {}),
  };
}

/**
 * An SLO's manifest document as Swift stores it (what `?multipart-manifest=get` returns, and what
 * its container counts in bytes used), or with `raw` the PUT form, ready to be PUT again.
 */
export function manifestDocument(segments: SloSegment[], raw = false): string {
  return pythonJson(segments.map((s) => manifestRow(s, raw)));
}

/**
 * Stores an SLO manifest: every segment must exist in the tenant and match the ETag and size
 * given. The manifest keeps what it found (so reads can tell a replaced segment) and has no
 * bytes of its own; its ETag is the MD5 of the segment ETags, its size their sum.
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
  if (specs.length === 0) throw new CofferError('InvalidArgument', 'Manifest must have at least one segment.');
  if (specs.length > SLO_LIMITS.maxSegments) {
    throw new CofferError('EntityTooLarge', `Number of segments must be <= ${SLO_LIMITS.maxSegments}`);
  }
  if (!findContainer(ctx, ref)) throw new CofferError('NoSuchContainer', `Container ${ref.container} does not exist`);
  const segments = checkSegments(ctx, ref.tenant, specs, opts);
  const etag = combinedEtag(segments.map((s) => s.etag));
  if (opts.expectedEtag !== undefined && opts.expectedEtag.replace(/"/g, '').toLowerCase() !== etag) {
    throw new CofferError('BadDigest', 'The ETag you specified did not match the SLO ETag', { md5: etag });
  }
  const size = segments.reduce((n, s) => n + s.size, 0);
  const documentBytes = Buffer.byteLength(manifestDocument(segments));
  const fields = { ...versionFields(name, opts, etag), manifest: { kind: 'slo' as const, size, segments, documentBytes } };
  const { container, record } = await commitVersion(ctx, ref, name, { size: 0 }, fields, opts);
  return toInfo(container, name, record, true);
}

/** Stores a DLO manifest: an object (usually empty) whose reads join `container`'s objects under `prefix`. */
export async function putDynamicLargeObject(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  body: Body,
  target: { container: string; prefix: string },
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
