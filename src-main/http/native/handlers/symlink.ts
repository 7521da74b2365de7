import { isCofferError } from '../../../../src-shared/errors.js';
import { segmentReader, type ContainerInfo, type ObjectInfo, type SymlinkTarget } from '../../../engine/index.js';
import { httpDate } from '../../common/dates.js';
import { readSmallBody, type HeaderValues } from '../../common/exchange.js';
import { encodePath } from '../../common/url.js';
import { NativeError, nativeErrorOf, PLAIN, plainError } from '../errors.js';
import type { NativeOpOf } from '../operation.js';
import { reachContainer } from '../reach.js';
import { reply, type NativeCall } from '../respond.js';
import { linkAccount } from '../symlink-params.js';

// Swift's symlink middleware (2.30): links are zero-byte objects the engine stores with their
// target; following them, and the access each hop needs, is the native API's, as in Swift.

/** Swift's default symloop_max: at most this many links are followed in a row. */
export const SYMLOOP_MAX = 2;

/** What /info says of symlinks (Swift's register_swift_info keys). */
export const SYMLINK_INFO = { symloop_max: SYMLOOP_MAX, static_links: true };

/** The target as a header carries it (Swift keeps it URL-quoted): `container/object`. */
const quotedTarget = (link: SymlinkTarget) => `${encodePath(link.container)}/${encodePath(link.object)}`;

/** The target's path, as Swift's Content-Location and Location name it. */
function targetPath(link: SymlinkTarget, ownAccount: string): string {
  const account = link.account === undefined ? `AUTH_${ownAccount}` : link.account;
  return `/v1/${encodePath(account)}/${quotedTarget(link)}`;
}

/** A symlink's own headers on `?symlink=get` (Swift turns its sysmeta back into these). */
export function linkHeaders(link: SymlinkTarget): HeaderValues {
  const h: HeaderValues = { 'X-Symlink-Target': quotedTarget(link) };
  if (link.account !== undefined) h['X-Symlink-Target-Account'] = encodePath(link.account);
  if (link.etag !== undefined) h['X-Symlink-Target-Etag'] = link.etag;
  if (link.bytes !== undefined) h['X-Symlink-Target-Bytes'] = link.bytes;
  return h;
}

/** Too many links in a row: answered as is, without the Content-Location other failures of a followed link carry. */
class LinkLoop extends NativeError {}

/** The refusal with the path of the object it was about (Swift's Content-Location), unless it names one already. */
export function atLocation(err: unknown, location: string): unknown {
  if (err instanceof LinkLoop) return err;
  if (err instanceof NativeError) return err.headers['Content-Location'] ? err : new NativeError(err.status, err.body, { ...err.headers, 'Content-Location': location });
  if (!isCofferError(err)) return err;
  return nativeErrorOf(err, { 'Content-Location': location });
}

/** Where a chain of links ends: the object's container (reached as the caller may reach it), name and the path it was found at. */
export interface LinkEnd {
  account: string;
  container: ContainerInfo;
  object: string;
  info: ObjectInfo;
  location: string;
}

/**
 * Follows `link` (found on an object of `account`) to the first object that is not a link, each
 * hop read as the caller (a link gives no access its target does not), as Swift's subrequests do:
 * 404 where a target is missing, 409 past SYMLOOP_MAX links or where a static link's ETag no
 * longer matches.
 */
export function followLinks(call: NativeCall, account: string, link: SymlinkTarget, followDynamic = true): LinkEnd {
  let hops = 0;
  for (;;) {
    const location = targetPath(link, account);
    const targetAccount = linkAccount(link, account);
    if (hops >= SYMLOOP_MAX) throw new LinkLoop(409, `Too many levels of symbolic links, maximum allowed is ${SYMLOOP_MAX}`, { 'Content-Type': PLAIN });
    hops++;
    // What a static link expects to find next: the object's ETag, or a static link's own target ETag.
    const expected = link.etag;
    let container: ContainerInfo;
    let info: ObjectInfo;
    const reach = call.tempUrlReach;
    // Swift's tempurl authorizes the link's subrequest too: a target outside the key's scope is 401.
    if (reach && (targetAccount !== reach.account || (reach.container !== undefined && link.container !== reach.container))) {
      throw atLocation(new NativeError(401), location);
    }
    try {
      container = reachContainer(call, targetAccount, link.container, 'read-object', link.object);
      info = call.ctx.engine.headObject({ tenant: container.tenant, container: container.name }, link.object, undefined, segmentReader(call.who, call.ctx.engine.accountAcl));
    } catch (err) {
      throw atLocation(err, location);
    }
    if (info.link && (info.link.etag !== undefined || followDynamic)) {
      const found = info.link.etag ?? info.etag;
      if (expected !== undefined && expected !== found) throw plainError(409, 'X-Symlink-Target-Etag headers do not match', { 'Content-Location': location });
      account = targetAccount;
      link = info.link;
      continue;
    }
    if (expected !== undefined && expected !== info.etag) {
      throw plainError(409, `Object Etag '${info.etag}' does not match X-Symlink-Target-Etag header '${expected}'`, { 'Content-Location': location });
    }
    return { account: targetAccount, container, object: link.object, info, location };
  }
}

/**
 * PUT with `X-Symlink-Target`: a zero-byte object that names its target. A static link
 * (`X-Symlink-Target-Etag`) must find its target now, with that ETag: its size and content type
 * are kept with the link (Swift's X-Symlink-Target-Bytes); a dynamic one is `application/symlink`
 * unless a type is given.
 */
export async function putSymlink(call: NativeCall<NativeOpOf<'PutSymlink'>>, c: ContainerInfo): Promise<void> {
  const { x, ctx, op } = call;
  // A chunked body cannot say its length up front: Swift reads one byte to know.
  const body = await readSmallBody(x.req, 0);
  if (body === 'too-large') throw plainError(400, 'Symlink requests require a zero byte body');
  const link: SymlinkTarget = { ...op.link };
  let contentType = op.fields.contentType;
  if (link.etag !== undefined) {
    const end = staticTarget(call, link);
    link.bytes = end.info.size;
    contentType ??= end.info.contentType;
  }
  const info = await ctx.engine.putObject({ tenant: c.tenant, container: c.name }, op.path.object, Buffer.alloc(0), {
    meta: op.fields.meta,
    headers: op.fields.headers,
    contentType: contentType ?? 'application/symlink',
    deleteAt: op.fields.deleteAt,
    size: 0,
    ifNoneMatch: op.ifNoneMatch,
    link,
  });
  const version = c.versioning === 'enabled' ? { 'X-Object-Version-Id': info.versionId ?? 'null' } : undefined;
  reply(x, 201, { Etag: info.etag, 'Last-Modified': httpDate(info.lastModified), ...version });
}

/** A static link's target as Swift checks it at PUT: only static links are followed; a missing one is 409. */
function staticTarget(call: NativeCall, link: SymlinkTarget): LinkEnd {
  const location = targetPath(link, call.account);
  try {
    // A dynamic link is itself the object a static link points at (its ETag: the empty MD5).
    return followLinks(call, call.account, link, false);
  } catch (err) {
    const e = atLocation(err, location);
    if (e instanceof NativeError && e.status === 404) throw plainError(409, 'X-Symlink-Target does not exist', { 'Content-Location': e.headers['Content-Location'] ?? location });
    throw e;
  }
}

/** POST to a symlink: its metadata is changed (as Swift's object server does), then 307 to the target. */
export function postedToLink(link: SymlinkTarget, ownAccount: string): NativeError {
  const headers: Record<string, string> = { Location: targetPath(link, ownAccount) };
  if (link.etag !== undefined) headers['X-Symlink-Target-Etag'] = link.etag;
  return new NativeError(307, 'The requested POST was applied to a symlink. POST directly to the target to apply requested metadata.', headers);
}
