import { isCofferError, type CofferError } from '../../../src-shared/errors.js';
import { headerOf, type RequestHeaders } from '../common/headers.js';
import { ParamReader } from '../common/param-reader.js';
import { parseRange, parseRanges } from '../common/range.js';
import { NativeError, plainError } from './errors.js';
import { truthy } from './limits.js';
import { headerProblem, readMetaHeaders } from './metadata.js';
import type { ListingParams, NativeOperation, ObjectPath } from './operation.js';
import { conditions, copyOperation, postObject, putManifest, putParams, tempUrlOperation, type NativeReader } from './parse-object.js';
import { readAccountAcl } from './account-acl.js';
import { listingType, type ListingType } from './listing-format.js';
import { bestMatch } from './accept.js';
import { listingMediaType, readContainerSettings, readLimit } from './params.js';
import { extractArchiveOperation, formPostOperation, reportOf } from './parse-upload.js';
import { parseNativePath, type NativeTarget } from './router.js';
import { putSymlink } from './symlink-params.js';

/** What parsing needs of a request: nothing but its head. */
export interface NativeRequest {
  method: string;
  rawPath: string;
  /** Decoded query parameters; undefined when the query string itself is malformed. */
  query: Map<string, string> | undefined;
  headers: RequestHeaders;
}

/** The native API's own refusals: what a parameter that does not parse is answered with. */
const refusal = (err: unknown): err is NativeError | CofferError => err instanceof NativeError || isCofferError(err);

const RESERVED_SLO_HEADER =
  'X-Static-Large-Object is a reserved header. To create a static large object add query param multipart-manifest=put.';

/**
 * A native request's operation and every parameter it carries (§1-§13); pure, no engine and no
 * body. A path or query string that cannot be decoded throws (412 / 400), before anything else.
 */

/** What containers and objects serve (a 405's Allow, a preflight's): Swift's, and COPY on objects. */
const CONTAINER_METHODS = 'DELETE, GET, HEAD, OPTIONS, POST, PUT';
const OBJECT_METHODS = 'COPY, DELETE, GET, HEAD, OPTIONS, POST, PUT';
export function parseNative(req: NativeRequest): NativeOperation {
  // As Swift's proxy (swob's message_length): one transfer coding, chunked, or none.
  const te = headerOf(req.headers, 'transfer-encoding');
  if (te !== undefined && te.split(',').length > 1) throw plainError(501, 'Unsupported Transfer-Coding header value specified in Transfer-Encoding header');
  const target = parseNativePath(req.rawPath);
  if (target.kind === 'invalid') throw new NativeError(target.status, target.body);
  const query = req.query;
  if (!query) throw new NativeError(400, 'Invalid query string');
  const r: NativeReader = new ParamReader(refusal);
  const op = operation(req, target, query, r);
  if (r.invalid) op.invalid = r.invalid;
  // As Swift's proxy: an empty Origin is no cross-origin request.
  const origin = headerOf(req.headers, 'origin');
  if (origin) op.origin = origin;
  return op;
}

function operation(req: NativeRequest, target: Exclude<NativeTarget, { kind: 'invalid' }>, query: Map<string, string>, r: NativeReader): NativeOperation {
  const m = req.method;
  const h = (n: string) => headerOf(req.headers, n);
  const q = (n: string) => query.get(n);
  // Thrown at once, not kept for after the access check: Swift's listing_formats sits before auth
  // in the pipeline, so even an anonymous caller hears 406 or 400 for a listing's Accept first.
  const type = () => listingMediaType(q('format'), h('accept'));
  // SLO reports: an Accept that picks none of the types is ignored (plain text), as Swift's slo does.
  const manifestReport = () => reportOf(h('accept'))?.format ?? 'plain';
  if (target.kind === 'auth') {
    if (m !== 'GET') return { name: 'MethodNotAllowed', allow: 'GET', path: undefined };
    return { name: 'Auth', user: h('x-auth-user') ?? h('x-storage-user'), key: h('x-auth-key') ?? h('x-storage-pass'), host: h('host') };
  }
  // As Swift's proxy: only reads (its OPTIONS is CORS, for containers and objects).
  if (target.kind === 'info') return m === 'GET' || m === 'HEAD' ? { name: 'Info' } : { name: 'MethodNotAllowed', allow: 'GET, HEAD', path: undefined };
  // Swift's bulk middleware comes before its TempURL and auth in the pipeline.
  const extract = query.get('extract-archive');
  if (m === 'PUT' && extract !== undefined) return extractArchiveOperation(target, extract, req.headers, r);
  if (query.has('temp_url_sig') || query.has('temp_url_expires')) return tempUrlOperation(req.method, req.headers, target, query, r);
  const form = m === 'POST' ? formPostOperation(target, req.rawPath, h('content-type')) : undefined;
  if (form) return form;
  if (target.kind === 'account') {
    const path = { account: target.account };
    if ((m === 'POST' || m === 'DELETE') && query.has('bulk-delete')) {
      const framed = h('content-length') !== undefined || /chunked/i.test(h('transfer-encoding') ?? '');
      const report = reportOf(h('accept'));
      return { name: 'BulkDelete', path, contentType: h('content-type'), format: report?.format, reportType: report?.type, framed };
    }
    if (m === 'HEAD') return { name: 'HeadAccount', path, type: type() };
    if (m === 'GET') return { name: 'ListAccount', path, listing: { ...listing(q, type(), r), delimiter: q('delimiter') } };
    if (m === 'POST') {
      const change = r.read(() => accountChange(req.headers), { set: {}, remove: [] });
      return { name: 'PostAccount', path, change, acl: r.read(() => readAccountAcl(h('x-account-access-control')), undefined) };
    }
    return { name: 'MethodNotAllowed', allow: 'GET, HEAD, POST', path };
  }
  if (m === 'OPTIONS') {
    // What Swift's container and object controllers serve (objects: COPY too).
    const requested = h('access-control-request-headers');
    const requestHeaders = requested ? requested.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean) : [];
    const path = target.kind === 'object' ? { account: target.account, container: target.container, object: target.object } : { account: target.account, container: target.container };
    const allow = target.kind === 'object' ? OBJECT_METHODS : CONTAINER_METHODS;
    return { name: 'Preflight', path, allow, origin: h('origin'), requestMethod: h('access-control-request-method'), requestHeaders };
  }
  // Swift's staticweb looks at reads by anonymous callers, or by anyone asking with X-Web-Mode.
  const webMode = truthy(h('x-web-mode'));
  const web = (m === 'GET' || m === 'HEAD') && (webMode || (h('x-auth-token') ?? h('x-storage-token')) === undefined)
    ? { web: { mode: webMode, slash: req.rawPath.endsWith('/'), get: { range: parseRange(h('range')), ranges: parseRanges(h('range')), conditions: conditions(h) } } }
    : {};
  if (target.kind === 'container') {
    const path = { account: target.account, container: target.container };
    switch (m) {
      case 'PUT': {
        const policy = h('x-storage-policy');
        if (policy !== undefined && policy.toLowerCase() !== 'default-placement') r.fail(new NativeError(400, 'InvalidLocationConstraint'));
        const settings = r.read(() => readContainerSettings(req.headers), { meta: { set: {}, remove: [] } });
        return { name: 'PutContainer', path, settings, meta: settings.meta };
      }
      case 'HEAD':
        return { name: 'HeadContainer', path, type: type(), ...web };
      case 'GET': {
        if (query.has('versions')) return listVersions(path, q, h, r);
        const base = listing(q, type(), r);
        return { name: 'ListContainer', path, listing: { ...base, delimiter: q('delimiter'), path: q('path'), allowUnordered: given(q('allow_unordered'), truthy) }, ...web };
      }
      case 'POST': {
        const settings = r.read(() => readContainerSettings(req.headers), { meta: { set: {}, remove: [] } });
        return { name: 'PostContainer', path, settings, meta: settings.meta };
      }
      case 'DELETE':
        return { name: 'DeleteContainer', path };
      default:
        return { name: 'MethodNotAllowed', allow: CONTAINER_METHODS, path };
    }
  }
  const path: ObjectPath = { account: target.account, container: target.container, object: target.object };
  const manifest = q('multipart-manifest');
  // Swift reads `version-id` only when it has a value.
  const versionId = q('version-id') || undefined;
  const symlinkGet = q('symlink') === 'get';
  const get = () => ({ range: parseRange(h('range')), conditions: conditions(h), versionId, ...(symlinkGet ? { symlinkGet } : {}) });
  switch (m) {
    case 'COPY':
      return {
        ...copyOperation(path, req.headers, r, 'destination'),
        ...(versionId !== undefined ? { sourceVersionId: versionId } : {}),
        ...(symlinkGet ? { symlinkGet } : {}),
        ...(manifest === 'get' ? { manifest: true } : {}),
      } as NativeOperation;
    case 'GET':
    case 'HEAD':
      if (manifest === 'get') return { name: 'GetManifest', path, raw: q('format') === 'raw', head: m === 'HEAD', ...get() };
      return { name: m === 'GET' ? 'GetObject' : 'HeadObject', path, tempUrl: undefined, ...get(), ranges: parseRanges(h('range')), ...(manifest === undefined && !symlinkGet && versionId === undefined ? web : {}) };
    case 'PUT': {
      if (versionId !== undefined) {
        const length = h('content-length');
        if (length !== undefined && length !== '0') r.fail(plainError(400, 'PUT version-id requests require a zero byte body'));
        return { name: 'RestoreVersion', path, versionId };
      }
      if (h('x-copy-from') !== undefined) {
        return { ...copyOperation(path, req.headers, r, 'x-copy-from'), ...(symlinkGet ? { symlinkGet } : {}), ...(manifest === 'get' ? { manifest: true } : {}) } as NativeOperation;
      }
      if (h('x-symlink-target') !== undefined) return putSymlink(path, req.headers, h, r);
      if (manifest === 'put') return putManifest(path, req.headers, h, manifestReport(), r);
      if (manifest !== undefined) r.fail(new NativeError(400, 'multipart-manifest must be "put" on a PUT'));
      if (h('x-static-large-object') !== undefined) r.fail(new NativeError(400, RESERVED_SLO_HEADER));
      return { name: 'PutObject', path, tempUrl: undefined, ...putParams(req.headers, h, r) };
    }
    case 'POST':
      if (versionId !== undefined) r.fail(new NativeError(400, 'POST to a specific version is not allowed'));
      if (h('x-static-large-object') !== undefined) r.fail(new NativeError(400, RESERVED_SLO_HEADER));
      if (h('x-symlink-target') !== undefined) r.fail(plainError(400, 'A PUT request is required to set a symlink target'));
      return postObject(path, req.headers, h, r, undefined);
    case 'DELETE':
      if (manifest === 'delete') return { name: 'DeleteManifest', path, format: manifestReport() };
      return { name: 'DeleteObject', path, tempUrl: undefined, ifDeleteAt: r.read(() => readIfDeleteAt(h('x-if-delete-at')), undefined), versionId };
    default:
      // RFC 9110 15.5.6: a 405 says what is allowed.
      return { name: 'MethodNotAllowed', allow: OBJECT_METHODS, path };
  }
}

/** A parameter's value read by `read`, or undefined when it is not given (the combination rules of 4.1.2 look at what is given). */
const given = <T>(v: string | undefined, read: (v: string) => T): T | undefined => (v === undefined ? undefined : read(v));

function listing(q: (n: string) => string | undefined, type: ListingType, r: NativeReader): ListingParams {
  return { type, limit: r.read(() => readLimit(q('limit')), undefined), marker: q('marker'), endMarker: q('end_marker'), prefix: q('prefix'), reverse: truthy(q('reverse')) };
}

/** `X-If-Delete-At` on a DELETE: the X-Delete-At the object must have (0: none), as Swift's object server compares them. */
function readIfDeleteAt(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) throw new NativeError(400, 'Bad X-If-Delete-At header value');
  return Number(raw.trim());
}

/**
 * `GET ?versions` (Swift's object_versioning): JSON only, so another `format=`, or an Accept
 * that swob matches to no application/json, is 406 (one swob cannot read, 400, as any listing);
 * `version_marker` needs `marker`, and a delimiter may not use the characters of version ids.
 */
function listVersions(path: { account: string; container: string }, q: (n: string) => string | undefined, h: (n: string) => string | undefined, r: NativeReader): NativeOperation {
  const format = q('format')?.toLowerCase();
  const accept = h('accept');
  if (format) {
    if (format !== 'json') r.fail(new NativeError(406));
  } else if (accept?.trim()) {
    r.read(() => {
      if (!bestMatch(accept, ['application/json'])) throw new NativeError(406);
    }, undefined);
  }
  const versionMarker = q('version_marker');
  if (versionMarker !== undefined && q('marker') === undefined) r.fail(new NativeError(400, 'version_marker param requires marker'));
  const delimiter = q('delimiter');
  if (delimiter && /[0-9.]/.test(delimiter)) r.fail(new NativeError(400, 'invalid delimiter param'));
  const base = listing(q, listingType('application/json'), r);
  return { name: 'ListVersions', path, listing: { ...base, delimiter: delimiter || undefined, versionMarker } };
}

/** POST account: metadata only; quotas are the administrator's (`coffer quota set`). */
function accountChange(headers: RequestHeaders) {
  const tooLong = headerProblem(headers);
  if (tooLong) throw plainError(400, tooLong);
  const change = readMetaHeaders(headers, 'Account');
  if (change.invalidUtf8) throw plainError(400, 'Metadata must be valid UTF-8');
  if ('quota-bytes' in change.set || 'quota-count' in change.set) // Swift's account_quotas lets only a reseller admin set them: its 403 page (Coffer: `coffer quota set`).
    throw new NativeError(403);
  return change;
}
