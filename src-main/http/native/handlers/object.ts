import { MAX_DELETE_AT, type PutOptions, type RequestFields } from '../../../engine/ops/put-object.js';
import { resolveRange } from '../../../engine/ops/read-object.js';
import type { ContainerInfo, ObjectInfo } from '../../../engine/types.js';
import { segmentReader } from '../../common/access.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { httpDate, xTimestamp } from '../../common/dates.js';
import { abortedBy, type HeaderValues } from '../../common/exchange.js';
import { readOptionsFor, readPlain } from '../../common/plain-read.js';
import { parseRange } from '../../common/range.js';
import { truthy } from '../limits.js';
import { headerProblem, metaProblem, metaResponseHeaders, readMetaHeaders, readStandardHeaders, standardResponseHeaders } from '../metadata.js';
import { baseHeaders, fail, reply, type NativeCall } from '../respond.js';
import { manifestHeaders, readDloTarget } from './dlo.js';

export const refOf = (c: ContainerInfo) => ({ tenant: c.tenant, container: c.name });

/**
 * GET/HEAD headers of 2.6 and §6.3, in one object filled in place: built from spreads, V8 copied
 * each part through its slow path on every read.
 */
export function objectHeaders(o: ObjectInfo): HeaderValues {
  const h: HeaderValues = {
    'Content-Type': o.contentType || 'application/octet-stream',
    // Large-object ETags are quoted on the native API (§2.2); plain ones are not.
    Etag: o.manifest ? `"${o.etag}"` : o.etag,
    'Last-Modified': httpDate(o.lastModified),
    'X-Timestamp': xTimestamp(o.mtimeMicros),
    'Accept-Ranges': 'bytes',
  };
  if (o.manifest) Object.assign(h, manifestHeaders(o));
  if (o.deleteAt !== undefined) h['X-Delete-At'] = o.deleteAt;
  standardResponseHeaders(o.headers, h);
  metaResponseHeaders('Object', o.meta, h);
  return h;
}

export function conditionalHeaders(call: NativeCall) {
  const h = (n: string) => call.x.header(n);
  return { ifMatch: h('if-match'), ifNoneMatch: h('if-none-match'), ifModifiedSince: h('if-modified-since'), ifUnmodifiedSince: h('if-unmodified-since') };
}

export interface GetOptions {
  /** A manifest's own bytes (`?multipart-manifest=get` on a DLO) instead of the assembled object. */
  raw?: boolean;
  /** Last say over the headers of a 200/206 (TempURL sets Content-Disposition, hides metadata). */
  adjust?: (headers: HeaderValues) => HeaderValues;
}

/** GET/HEAD object (N6) with conditionals and a single byte range. */
export async function getObject(call: NativeCall, c: ContainerInfo, name: string, opts: GetOptions = {}): Promise<void> {
  const { x, ctx } = call;
  const range = parseRange(x.header('range'));
  // A plain GET reads first and judges the conditionals on what it read (one lookup, not two);
  // large objects and unsatisfiable ranges take the general path below, which answers as before.
  const early = x.method === 'GET' && !opts.raw ? await readPlain(ctx.engine, refOf(c), name, readOptionsFor(call.who, range)) : undefined;
  const info = early?.info ?? ctx.engine.headObject(refOf(c), name, undefined, segmentReader(call.who));
  const verdict = evaluateConditions(conditionalHeaders(call), { etag: info.etag, lastModified: info.lastModified }, true);
  if (verdict !== 'ok') early?.body.destroy();
  if (verdict === 304) return reply(x, 304, { Etag: objectHeaders(info).Etag, 'Last-Modified': httpDate(info.lastModified) });
  if (verdict === 412) return fail(x, 412, 'PreconditionFailed');
  const headersOf = (o: ObjectInfo) => (opts.adjust ? opts.adjust(objectHeaders(o)) : objectHeaders(o));
  // HEAD needs the headers only: no blob is opened and no large-object segment is listed.
  if (x.method === 'HEAD' && !opts.raw) {
    const headers = headersOf(info);
    const part = range ? resolveRange(range, info.size) : undefined;
    if (part) headers['Content-Range'] = `bytes ${part.start}-${part.end}/${info.size}`;
    return x.sendHead(part ? 206 : 200, headers, baseHeaders(x), part ? part.end - part.start + 1 : info.size);
  }
  const read = early ?? (opts.raw ? await ctx.engine.getManifestBytes(refOf(c), name, range) : await ctx.engine.getObject(refOf(c), name, readOptionsFor(call.who, range)));
  const headers = headersOf(read.info);
  if (read.range) {
    const { start, end } = read.range;
    headers['Content-Range'] = `bytes ${start}-${end}/${read.info.size}`;
    return x.stream(206, headers, read.body, baseHeaders(x), end - start + 1);
  }
  await x.stream(200, headers, read.body, baseHeaders(x), read.info.size);
}

const INTEGER = /^[+-]?\d+$/;

/**
 * X-Delete-At / X-Delete-After (§9): epoch seconds, undefined, or an error message. As Swift
 * (constraints.check_delete_headers), an integer of any size is taken and the time capped at
 * 9999999999 (normalize_delete_at_timestamp): X-Delete-After 10^40 expires in 2286, not never.
 */
export function readDeleteAt(call: NativeCall): number | undefined | { error: string } {
  const after = call.x.header('x-delete-after')?.trim();
  const at = call.x.header('x-delete-at')?.trim();
  const now = Math.floor(Date.now() / 1000);
  if (after !== undefined) {
    if (!INTEGER.test(after)) return { error: 'Non-integer X-Delete-After' };
    const t = Math.min(now + Number(after), MAX_DELETE_AT);
    return t <= now ? { error: 'X-Delete-After in past' } : t;
  }
  if (at !== undefined) {
    if (!INTEGER.test(at)) return { error: 'Non-integer X-Delete-At' };
    const t = Math.min(Number(at), MAX_DELETE_AT);
    return t <= now ? { error: 'X-Delete-At in past' } : t;
  }
  return undefined;
}

/** Fields of a new object version from PUT/COPY headers, or an error message. */
export function readObjectFields(call: NativeCall) {
  const tooLong = headerProblem(call.x.req.headers);
  if (tooLong) return { error: tooLong };
  const meta = readMetaHeaders(call.x.req.headers, 'Object').set;
  for (const [k, v] of Object.entries(meta)) if (v === '') delete meta[k];
  const problem = metaProblem('Object', meta);
  if (problem) return { error: problem };
  const deleteAt = readDeleteAt(call);
  if (typeof deleteAt === 'object') return { error: deleteAt.error };
  const detect = truthy(call.x.header('x-detect-content-type'));
  const contentType = detect ? undefined : call.x.header('content-type');
  const fields: RequestFields = { meta, headers: readStandardHeaders(call.x.req.headers) };
  if (contentType) fields.contentType = contentType;
  if (deleteAt !== undefined) fields.deleteAt = deleteAt;
  return fields;
}

/** PUT object (N5): streams the body into the engine; 201 with the unquoted ETag. */
export async function putObject(call: NativeCall, c: ContainerInfo, name: string): Promise<void> {
  const { x, ctx } = call;
  const length = x.header('content-length');
  const chunked = /chunked/i.test(x.header('transfer-encoding') ?? '');
  if (length === undefined && !chunked) return fail(x, 411, 'Missing Content-Length header.');
  const ifNoneMatch = x.header('if-none-match');
  if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') return fail(x, 400, 'If-None-Match only supports *');
  const fields = readObjectFields(call);
  if ('error' in fields) return fail(x, 400, fields.error);
  const etag = x.header('etag')?.replace(/"/g, '').toLowerCase();
  const dlo = readDloTarget(x);
  if (typeof dlo === 'string') return fail(x, 400, dlo);
  // Every option named, undefined where not given: conditional spreads here cost V8 a slow,
  // uncached object copy on every upload.
  const opts: PutOptions = {
    meta: fields.meta,
    headers: fields.headers,
    contentType: fields.contentType,
    deleteAt: fields.deleteAt,
    size: length !== undefined && !chunked ? Number(length) : undefined,
    expectedMd5: etag || undefined,
    ifNoneMatch: ifNoneMatch ? '*' : undefined,
    signal: abortedBy(x.req),
  };
  const info = dlo
    ? await ctx.engine.putDynamicLargeObject(refOf(c), name, x.req, dlo, opts)
    : await ctx.engine.putObject(refOf(c), name, x.req, opts);
  reply(x, 201, { Etag: info.etag, 'Last-Modified': httpDate(info.lastModified) });
}

/** POST object (N10): replaces the whole metadata set; content type and expiry may change too. */
export async function postObject(call: NativeCall, c: ContainerInfo, name: string): Promise<void> {
  const { x, ctx } = call;
  const fields = readObjectFields(call);
  if ('error' in fields) return fail(x, 400, fields.error);
  const remove = x.header('x-remove-delete-at') !== undefined;
  const keepExpiry = fields.deleteAt === undefined && !remove;
  const headers = Object.keys(fields.headers).length ? { headers: fields.headers } : {};
  await ctx.engine.updateObjectMeta(refOf(c), name, { ...fields, ...headers, keepExpiry });
  reply(x, 202);
}

export async function deleteObject(call: NativeCall, c: ContainerInfo, name: string): Promise<void> {
  await call.ctx.engine.deleteObject(refOf(c), name);
  reply(call.x, 204);
}
