import { CofferError } from '../../../../src-shared/errors.js';
import { resolveRange, segmentReader, type ContainerInfo, type ObjectInfo, type PutOptions } from '../../../engine/index.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { httpDate, xTimestamp } from '../../common/dates.js';
import { abortedBy, type HeaderValues } from '../../common/exchange.js';
import { readOptionsFor, readPlain } from '../../common/plain-read.js';
import { metaResponseHeaders, standardResponseHeaders } from '../metadata.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';
import { manifestHeaders } from './dlo.js';

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

export interface GetOptions {
  /** A manifest's own bytes (`?multipart-manifest=get` on a DLO) instead of the assembled object. */
  raw?: boolean;
}

/** GET/HEAD object (N6) with conditionals and a single byte range. */
export async function getObject(call: NativeCall<NativeOpOf<'GetObject' | 'HeadObject' | 'GetManifest'>>, c: ContainerInfo, opts: GetOptions = {}): Promise<void> {
  const { x, ctx, op } = call;
  const name = op.path.object;
  const range = op.range;
  const head = op.name === 'HeadObject' || (op.name === 'GetManifest' && op.head);
  // A plain GET reads first and judges the conditionals on what it read (one lookup, not two);
  // large objects and unsatisfiable ranges take the general path below, which answers as before.
  const early = !head && !opts.raw ? await readPlain(ctx.engine, refOf(c), name, readOptionsFor(call.who, range, undefined, ctx.engine.accountAcl)) : undefined;
  const info = early?.info ?? ctx.engine.headObject(refOf(c), name, undefined, segmentReader(call.who, call.ctx.engine.accountAcl));
  const verdict = evaluateConditions(op.conditions, { etag: info.etag, lastModified: info.lastModified }, true);
  if (verdict !== 'ok') early?.body.destroy();
  if (verdict === 304) return reply(x, 304, { Etag: objectHeaders(info).Etag, 'Last-Modified': httpDate(info.lastModified) });
  if (verdict === 412) throw new CofferError('PreconditionFailed');
  const adjust = call.adjust;
  const headersOf = (o: ObjectInfo) => (adjust ? adjust(objectHeaders(o)) : objectHeaders(o));
  // HEAD needs the headers only: no blob is opened and no large-object segment is listed.
  if (head && !opts.raw) {
    const headers = headersOf(info);
    const part = range ? resolveRange(range, info.size) : undefined;
    if (part) headers['Content-Range'] = `bytes ${part.start}-${part.end}/${info.size}`;
    return x.sendHead(part ? 206 : 200, headers, baseHeaders(x), part ? part.end - part.start + 1 : info.size);
  }
  const read = early ?? (opts.raw ? await ctx.engine.getManifestBytes(refOf(c), name, range) : await ctx.engine.getObject(refOf(c), name, readOptionsFor(call.who, range, undefined, ctx.engine.accountAcl)));
  const headers = headersOf(read.info);
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
  };
  const name = op.path.object;
  const info = dlo
    ? await ctx.engine.putDynamicLargeObject(refOf(c), name, x.req, dlo, opts)
    : await ctx.engine.putObject(refOf(c), name, x.req, opts);
  reply(x, 201, { Etag: info.etag, 'Last-Modified': httpDate(info.lastModified) });
}

/** POST object (N10): replaces the whole metadata set; content type and expiry may change too. */
export async function postObject(call: NativeCall<NativeOpOf<'PostObject'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, op } = call;
  const fields = op.fields;
  const keepExpiry = fields.deleteAt === undefined && !op.removeDeleteAt;
  const headers = Object.keys(fields.headers).length ? { headers: fields.headers } : {};
  await ctx.engine.updateObjectMeta(refOf(c), op.path.object, { ...fields, ...headers, keepExpiry });
  reply(x, 202);
}

export async function deleteObject(call: NativeCall<NativeOpOf<'DeleteObject'>>, c: ContainerInfo): Promise<void> {
  await call.ctx.engine.deleteObject(refOf(c), call.op.path.object);
  reply(call.x, 204);
}
