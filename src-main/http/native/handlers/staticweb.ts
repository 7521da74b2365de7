import { isCofferError } from '../../../../src-shared/errors.js';
import { Engine, segmentReader, type ContainerInfo, type ObjectInfo } from '../../../engine/index.js';
import { decodeStrict, encodePath } from '../../common/url.js';
import { NATIVE_ERRORS, NativeError } from '../errors.js';
import { truthy } from '../limits.js';
import type { NativeOpOf, WebRequest } from '../operation.js';
import { reachContainer } from '../reach.js';
import { baseHeaders, type NativeCall, type NativeContext } from '../respond.js';
import type { Exchange } from '../../common/exchange.js';
import type { NativeOperation } from '../operation.js';
import { getObject, objectHeaders } from './object.js';
import { disabledListingPage, listingPage, type WebSettings } from './staticweb-pages.js';

// Swift's staticweb middleware (2.30): a container with X-Container-Meta-Web-Index or -Web-Listings
// served as a web site to anonymous readers (or anyone asking with X-Web-Mode: true). Every read it
// makes is the caller's own, with the access that read needs, as Swift's subrequests are.

type WebCall = NativeCall<NativeOpOf<'ListContainer' | 'HeadContainer' | 'GetObject' | 'HeadObject'>> & { op: { web: WebRequest } };

const MOVED = '<html><h1>Moved Permanently</h1><p>The resource has moved permanently.</p></html>';

/** The container's web settings (its `web-*` metadata, trimmed, as Swift reads them). */
export function webSettings(c: ContainerInfo): WebSettings {
  const meta: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.meta)) meta[k.toLowerCase()] = v.trim();
  return {
    index: meta['web-index'] ?? '',
    error: meta['web-error'] ?? '',
    listings: meta['web-listings'] ?? '',
    label: meta['web-listings-label'] ?? '',
    css: meta['web-listings-css'] ?? '',
    dirType: meta['web-directory-type'] || 'application/directory',
  };
}

const isWeb = (call: NativeCall): call is WebCall => 'web' in call.op && call.op.web !== undefined;

/**
 * A container path read as a web site: the redirect to `…/`, the index page, or the HTML listing.
 * False when the container is no web site (the ordinary answer follows).
 */
export async function webContainer(call: NativeCall<NativeOpOf<'ListContainer' | 'HeadContainer'>>, c: ContainerInfo): Promise<boolean> {
  if (!isWeb(call)) return false;
  const w = webSettings(c);
  if (!w.index && !w.listings) {
    // Asked for a web site where there is none.
    if (call.op.web.mode) throw new NativeError(404);
    return false;
  }
  if (!call.op.web.slash) throw redirectWithSlash(call);
  if (w.index) {
    const index = readable(call, c, w.index);
    if (index) {
      await serve(call, c, w.index);
      return true;
    }
  }
  await listing(call, c, w, '');
  return true;
}

/**
 * An object path read as a web site, when the object is missing or a directory marker: the
 * directory's index page (after a redirect to `…/`), its listing, or a 404 (with the container's
 * error page). False when the object is there to be read as usual.
 */
export async function webObject(call: NativeCall<NativeOpOf<'GetObject' | 'HeadObject'>>, c: ContainerInfo): Promise<boolean> {
  if (!isWeb(call)) return false;
  const w = webSettings(c);
  if (!w.index && !w.listings) return false;
  const name = call.op.path.object;
  const found = readable(call, c, name);
  if (found && !(found.contentType === w.dirType && found.size <= 1)) return false;
  const slash = name.endsWith('/');
  if (w.index) {
    const indexName = `${slash ? name : `${name}/`}${w.index}`;
    if (readable(call, c, indexName)) {
      if (!slash) throw redirectWithSlash(call);
      await serve(call, c, indexName);
      return true;
    }
  }
  if (!slash) {
    // A "directory" without its slash: redirected only when something is listed under it.
    if (!listable(call, c) || !hasEntries(call, c, `${name}/`)) await errorPage(call, c, w, 404, new NativeError(404));
    else throw redirectWithSlash(call);
    return true;
  }
  await listing(call, c, w, name);
  return true;
}

/** The object `name` as the caller may read it, or undefined (missing, or not theirs to read). */
function readable(call: NativeCall, c: ContainerInfo, name: string): ObjectInfo | undefined {
  try {
    reachContainer(call, call.account, c.name, 'read-object', name);
    return call.ctx.engine.headObject({ tenant: c.tenant, container: c.name }, name, undefined, segmentReader(call.who, call.ctx.engine.accountAcl));
  } catch (err) {
    if (isCofferError(err)) return undefined;
    throw err;
  }
}

function listable(call: NativeCall, c: ContainerInfo): boolean {
  try {
    reachContainer(call, call.account, c.name, 'list');
    return true;
  } catch (err) {
    if (isCofferError(err)) return false;
    throw err;
  }
}

function hasEntries(call: NativeCall, c: ContainerInfo, prefix: string): boolean {
  return call.ctx.engine.listObjects({ tenant: c.tenant, container: c.name }, { prefix, delimiter: '/', limit: 1 }).entries.length > 0;
}

/** Serves `name` of the container as a GET (or HEAD) of it would, with the request's range and conditionals. */
async function serve(call: WebCall, c: ContainerInfo, name: string, status?: number): Promise<void> {
  const head = call.x.method === 'HEAD';
  const op = { name: head ? 'HeadObject' : 'GetObject', path: { account: call.op.path.account, container: c.name, object: name }, tempUrl: undefined, ...call.op.web.get } as NativeOpOf<'GetObject'>;
  if (status === undefined) return getObject({ ...call, op }, c);
  // An error page: its bytes and headers, the error's status.
  const x = call.x;
  const read = await call.ctx.engine.getObject({ tenant: c.tenant, container: c.name }, name, { canRead: segmentReader(call.who, call.ctx.engine.accountAcl) });
  await x.stream(status, objectHeaders(read.info), read, baseHeaders(x), read.info.size);
}

/**
 * A failure answered with the container's error page (`<status><Web-Error>`, read as the caller)
 * when there is one, as Swift's staticweb does; else the failure itself.
 */
async function errorPage(call: WebCall, c: ContainerInfo, w: WebSettings, status: number, failure: unknown): Promise<void> {
  const page = w.error ? `${status}${w.error}` : undefined;
  if (page && readable(call, c, page)) return serve(call, c, page, status);
  throw failure;
}

/** The HTML listing of `prefix` (Swift's page, byte for byte), 404 where listings are off or nothing is under it. */
async function listing(call: WebCall, c: ContainerInfo, w: WebSettings, prefix: string): Promise<void> {
  const label = labelOf(call, w);
  if (!truthy(w.listings)) {
    return errorPage(call, c, w, 404, new NativeError(404, disabledListingPage(label, w, prefix), { 'Content-Type': 'text/html; charset=UTF-8' }));
  }
  try {
    reachContainer(call, call.account, c.name, 'list');
  } catch (err) {
    if (!isCofferError(err)) throw err;
    return errorPage(call, c, w, NATIVE_ERRORS[err.code].status, err);
  }
  const page = call.ctx.engine.listObjects({ tenant: c.tenant, container: c.name }, { delimiter: '/', ...(prefix ? { prefix } : {}) });
  if (prefix && page.entries.length === 0) return errorPage(call, c, w, 404, new NativeError(404));
  call.x.send(200, { 'Content-Type': 'text/html; charset=UTF-8' }, listingPage(label, w, prefix, page.entries), baseHeaders(call.x));
}

/** The request's path as Swift's PATH_INFO (decoded, without RGW's `/swift`), or its label's form. */
function labelOf(call: WebCall, w: WebSettings): string {
  const path = requestPath(call);
  if (!w.label) return path;
  return `${w.label}/${path.split('/').slice(4).join('/')}`;
}

function requestPath(call: NativeCall): string {
  const decoded = decodeStrict(call.x.rawPath) ?? call.x.rawPath;
  return decoded.startsWith('/swift/') ? decoded.slice('/swift'.length) : decoded;
}

/** 301 to the same path with a slash, absolute as Swift's swob makes a Location. */
function redirectWithSlash(call: NativeCall): NativeError {
  const host = call.x.header('host') ?? '127.0.0.1';
  const decoded = decodeStrict(call.x.rawPath) ?? call.x.rawPath;
  return new NativeError(301, MOVED, { Location: `http://${host}${encodePath(`${decoded}/`)}`, 'Content-Type': 'text/html; charset=UTF-8' });
}

/**
 * A refused anonymous read of a web site's container path: its error page (`401<Web-Error>`),
 * with the refusal's status, when the page is there for anyone to read; false otherwise.
 */
export async function webRefusal(x: Exchange, ctx: NativeContext, op: NativeOperation, err: unknown): Promise<boolean> {
  if ((op.name !== 'ListContainer' && op.name !== 'HeadContainer') || !op.web || op.web.mode) return false;
  if (!isCofferError(err, 'AuthFailed')) return false;
  let c: ContainerInfo;
  try {
    c = ctx.engine.getContainerForRequest(Engine.ref(op.path.account, op.path.container));
  } catch {
    return false;
  }
  const w = webSettings(c);
  const call = { x, ctx, who: {}, account: op.path.account, owner: false, op, adjust: undefined } as WebCall;
  const page = w.error ? `${NATIVE_ERRORS.AuthFailed.status}${w.error}` : undefined;
  if (!page || !readable(call, c, page)) return false;
  await serve(call, c, page, NATIVE_ERRORS.AuthFailed.status);
  return true;
}
