import { isCofferError } from '../../../../src-shared/errors.js';
import { rangeMeansWholeEmpty, resolveRange, segmentReader, type ContainerInfo, type ObjectInfo, type ObjectRead, type PutOptions, type SymlinkTarget } from '../../../engine/index.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { httpDate, xTimestamp } from '../../common/dates.js';
import { abortedBy, type HeaderValues } from '../../common/exchange.js';
import { readOptionsFor, readPlain } from '../../common/plain-read.js';
import { NativeError, nativeErrorOf } from '../errors.js';
import { metaResponseHeaders, standardResponseHeaders } from '../metadata.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';
import { manifestHeaders } from './dlo.js';
import { holdFirstWrite } from './slo.js';
import { sendRanges } from './multi-range.js';
import { atLocation, followLinks, linkHeaders, postedToLink } from './symlink.js';
import { checkVersionId, deleteVersioned, readFailureHeaders, versioned, versionHeaders, withHeaders } from './versions.js';
import { textToHeader } from '../../common/header-text.js';

export const refOf = (c: ContainerInfo) => ({ tenant: c.tenant, container: c.name });

/**
 * GET/HEAD headers of 2.6 and §6.3, in one object filled in place: built from spreads, V8 copied
 * each part through its slow path on every read.
 */
export function objectHeaders(o: ObjectInfo): HeaderValues {
  const h: HeaderValues = {
    'Content-Type': o.contentType ? textToHeader(o.contentType) : 'application/octet-stream',
    // Large-object ETags are quoted on the native API (§2.2); plain ones are not.
    Etag: o.manifest ? `"${o.etag}"` : o.etag,
    'Last-Modified': httpDate(o.lastModified),
    'X-Timestamp': xTimestamp(o.mtimeMicros),
    'Accept-Ranges': 'bytes',
  };
  if (o.manifest) Object.assign(h, manifestHeaders(o));
  if (o.deleteAt !== undefined) h['X-Delete-At'] = o.deleteAt;
  // Only a symlink read as itself (`?symlink=get`) is answered with its own headers.
  if (o.link) Object.assign(h, linkHeaders(o.link));
  standardResponseHeaders(o.headers, h);
  metaResponseHeaders('Object', o.meta, h);
  return h;
}

/** Header values as the strings an error answer carries. */
export function headerStrings(h: HeaderValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

/** A 412 naming the object refused (Swift's: its ETag, Last-Modified, X-Timestamp and metadata; the error's own type, no Accept-Ranges). */
export function preconditionFailed(objectHeaders: HeaderValues): NativeError {
  const { 'Content-Type': _type, 'Accept-Ranges': _ranges, ...rest } = objectHeaders;
  // swob answers a failed condition with an empty body (Content-Length: 0), not its 412 page.
  return new NativeError(412, '', headerStrings(rest));
}

/** A 416 naming the object read, as Swift's object server sends it: the object's headers and `Content-Range: bytes *\/size`. */
export function rangeNotSatisfiable(objectHeaders: HeaderValues, size: number): NativeError {
  const { 'Content-Type': _type, 'Accept-Ranges': _ranges, ...rest } = objectHeaders;
  return new NativeError(416, null, { ...headerStrings(rest), 'Content-Range': `bytes */${size}` });
}

export interface GetOptions {
  /** A manifest's own bytes (`?multipart-manifest=get` on a DLO) instead of the assembled object. */
  raw?: boolean;
  /** Read through a symlink: the path it led to (Swift's Content-Location). */
  location?: string;
}

/**
 * GET/HEAD object (N6) with conditionals and a single byte range; in a versioned container the
 * answer (a 404 too) names the version, as Swift's object versioning does.
 */
export async function getObject(call: NativeCall<NativeOpOf<'GetObject' | 'HeadObject' | 'GetManifest'>>, c: ContainerInfo, opts: GetOptions = {}): Promise<void> {
  const versionId = checkVersionId(c, call.op.name === 'GetManifest' ? undefined : call.op.versionId);
  if (!versioned(c) && versionId === undefined) return readObject(call, c, opts, undefined);
  try {
    await readObject(call, c, opts, versionId);
  } catch (err) {
    throw withHeaders(err, readFailureHeaders(err, versionId));
  }
}

async function readObject(call: NativeCall<NativeOpOf<'GetObject' | 'HeadObject' | 'GetManifest'>>, c: ContainerInfo, opts: GetOptions, versionId: string | undefined): Promise<void> {
  const { x, ctx, op } = call;
  const name = op.path.object;
  const range = op.range;
  const head = op.name === 'HeadObject' || (op.name === 'GetManifest' && op.head);
  // A plain GET reads first and judges the conditionals on what it read (one lookup, not two);
  // large objects and unsatisfiable ranges take the general path below, which answers as before.
  const multi = op.name === 'GetObject' && op.ranges && !opts.raw ? op.ranges : undefined;
  const early = !head && !opts.raw && !multi ? await readPlain(ctx.engine, refOf(c), name, readOptionsFor(call.who, range, versionId, ctx.engine.accountAcl)) : undefined;
  const info = early?.info ?? ctx.engine.headObject(refOf(c), name, versionId, segmentReader(call.who, call.ctx.engine.accountAcl));
  if (info.link && !op.symlinkGet) {
    early?.body.destroy();
    return readThroughLink(call, info.link, opts);
  }
  // `bytes=-5` of an empty object is the object itself, 200 (Swift's swob): read on without the
  // ranges. Nothing was read early: no range of an empty object reads.
  if (rangeMeansWholeEmpty(multi ?? range, info.size)) return readObject({ ...call, op: { ...op, range: undefined, ...('ranges' in op ? { ranges: undefined } : {}) } }, c, opts, versionId);
  const verdict = evaluateConditions(op.conditions, { etag: info.etag, lastModified: info.lastModified }, true);
  if (verdict !== 'ok') early?.body.destroy();
  const adjust = call.adjust;
  const named = versioned(c) || versionId !== undefined;
  const headersOf = (o: ObjectInfo) => {
    const h = adjust ? adjust(objectHeaders(o)) : objectHeaders(o);
    if (opts.location) h['Content-Location'] = opts.location;
    return named ? Object.assign(h, versionHeaders(o, versionId === undefined ? x.rawPath : undefined)) : h;
  };
  // As Swift's: 304, 412 and 416 describe the object (ETag, Last-Modified, Accept-Ranges, its
  // type and metadata), so a client can tell which version it was refused.
  if (verdict === 304) return reply(x, 304, headersOf(info));
  if (verdict === 412) throw preconditionFailed(headersOf(info));
  try {
    if (multi) await sendRanges(call as NativeCall<NativeOpOf<'GetObject'>>, c, info, headersOf(info), multi, versionId);
    else await send(call, c, info, headersOf, opts, early, versionId);
  } catch (err) {
    if (!isCofferError(err, 'InvalidRange')) throw err;
    throw new NativeError(416, null, { ...headerStrings(headersOf(info)), 'Content-Range': `bytes */${info.size}` });
  }
}

/** GET/HEAD of a symlink: the object its links lead to, read as the caller may read it, named by Content-Location. */
async function readThroughLink(call: NativeCall<NativeOpOf<'GetObject' | 'HeadObject' | 'GetManifest'>>, link: SymlinkTarget, opts: GetOptions): Promise<void> {
  const { op } = call;
  const end = followLinks(call, op.path.account, link);
  const next = { ...call, op: { ...op, path: { account: end.account, container: end.container.name, object: end.object }, versionId: undefined } };
  try {
    await readObject(next, end.container, { ...opts, location: end.location }, undefined);
  } catch (err) {
    throw atLocation(err, end.location);
  }
}

/** The object's answer once its conditionals hold: headers only for HEAD, else its bytes or the range asked for. */
async function send(
  call: NativeCall<NativeOpOf<'GetObject' | 'HeadObject' | 'GetManifest'>>,
  c: ContainerInfo,
  info: ObjectInfo,
  headersOf: (o: ObjectInfo) => HeaderValues,
  opts: GetOptions,
  early: ObjectRead | undefined,
  versionId: string | undefined,
): Promise<void> {
  const { x, ctx, op } = call;
  const name = op.path.object;
  const range = op.range;
  const head = op.name === 'HeadObject' || (op.name === 'GetManifest' && op.head);
  // HEAD needs the headers only: no blob is opened and no large-object segment is listed.
  if (head && !opts.raw) {
    const headers = headersOf(info);
    const part = range ? resolveRange(range, info.size) : undefined;
    if (part) headers['Content-Range'] = `bytes ${part.start}-${part.end}/${info.size}`;
    return x.sendHead(part ? 206 : 200, headers, baseHeaders(x), part ? part.end - part.start + 1 : info.size);
  }
  const opened = early ?? (opts.raw ? await ctx.engine.getManifestBytes(refOf(c), name, range) : await ctx.engine.getObject(refOf(c), name, readOptionsFor(call.who, range, versionId, ctx.engine.accountAcl)));
  const read = opened.info.manifest && !opts.raw ? await holdFirstWrite(opened) : opened;
  const headers = headersOf(read.info);
  // A manifest read as itself (a DLO's `?multipart-manifest=get`) is a plain object: its own ETag, unquoted.
  if (opts.raw) headers.Etag = read.info.etag;
  if (read.range) {
    const { start, end } = read.range;
    headers['Content-Range'] = `bytes ${start}-${end}/${read.info.size}`;
    return x.stream(206, headers, read, baseHeaders(x), end - start + 1);
  }
  await x.stream(200, headers, read, baseHeaders(x), read.info.size);
}

/** PUT object (N5): streams the body into the engine; 201 with the unquoted ETag. */
export async function putObject(call: NativeCall<NativeOpOf<'PutObject'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, op } = call;
  const { fields, dlo } = op;
  // Every option named, undefined where not given: conditional spreads here cost V8 a slow,
  // uncached object copy on every upload.
  const opts: PutOptions = {
    meta: fields.meta,
    headers: fields.headers,
    contentType: fields.contentType,
    deleteAt: fields.deleteAt,
    size: op.size,
    expectedMd5: op.etag,
    ifNoneMatch: op.ifNoneMatch,
    signal: abortedBy(x.req),
    quotaBytes: 'exact' as const,
  };
  const name = op.path.object;
  // Swift timestamps a write as it arrives; its 422 (body not matching the ETag) says that time
  // as Last-Modified, rounded up to the second as it rounds every Last-Modified.
  const arrived = Date.now();
  // Legacy versioned writes: the version about to be replaced goes to the archive first, as Swift.
  if (c.archive) await ctx.engine.archiveCurrent(refOf(c), name);
  const info = await (dlo ? ctx.engine.putDynamicLargeObject(refOf(c), name, x.req, dlo, opts) : ctx.engine.putObject(refOf(c), name, x.req, opts)).catch((err: unknown) => {
    throw isCofferError(err, 'BadDigest') ? nativeErrorOf(err, { 'Last-Modified': httpDate(Math.ceil(arrived / 1000) * 1000) }) : err;
  });
  const version = c.versioning === 'enabled' ? { 'X-Object-Version-Id': info.versionId ?? 'null' } : undefined;
  reply(x, 201, { Etag: info.etag, 'Last-Modified': httpDate(info.lastModified), ...version });
}

/** POST object (N10): replaces the whole metadata set; content type and expiry may change too. */
export async function postObject(call: NativeCall<NativeOpOf<'PostObject'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, op } = call;
  const fields = op.fields;
  const keepExpiry = fields.deleteAt === undefined && !op.removeDeleteAt;
  const headers = Object.keys(fields.headers).length ? { headers: fields.headers } : {};
  const updated = await ctx.engine.updateObjectMeta(refOf(c), op.path.object, { ...fields, ...headers, keepExpiry, dlo: op.dlo });
  if (updated.link) throw postedToLink(updated.link, op.path.account);
  // Seed N10: "202, empty body" (Swift sends its Accepted page; deviation seed.post-empty-body).
  reply(x, 202, {}, '');
}

export async function deleteObject(call: NativeCall<NativeOpOf<'DeleteObject'>>, c: ContainerInfo): Promise<void> {
  const versionId = checkVersionId(c, call.op.versionId);
  const expected = call.op.ifDeleteAt;
  if (expected !== undefined) {
    // Swift's object server: the object's X-Delete-At (0 when it has none) must be the one named;
    // a missing object is its 404 (headObject throws it).
    const current = call.ctx.engine.headObject(refOf(c), call.op.path.object, versionId).deleteAt ?? 0;
    if (current !== expected) throw new NativeError(412, 'X-If-Delete-At and X-Delete-At do not match');
  }
  // 'null' names the unversioned object: removed as a plain delete, as Swift passes it through.
  if (versionId === 'null') await call.ctx.engine.deleteObject(refOf(c), call.op.path.object, { versionId });
  else if (versioned(c)) return deleteVersioned(call, c, versionId);
  // Legacy versioned writes: history archives the object first; stack may put the previous version back instead.
  else if (!c.archive || !(await call.ctx.engine.archiveDelete(refOf(c), call.op.path.object))) await call.ctx.engine.deleteObject(refOf(c), call.op.path.object);
  reply(call.x, 204);
}
