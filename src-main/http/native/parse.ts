import { isCofferError, type CofferError } from '../../../src-shared/errors.js';
import { headerOf, type RequestHeaders } from '../common/headers.js';
import { ParamReader } from '../common/param-reader.js';
import { parseRange } from '../common/range.js';
import { NativeError } from './errors.js';
import { truthy } from './limits.js';
import { headerProblem, readMetaHeaders } from './metadata.js';
import type { ListingParams, NativeOperation, ObjectPath } from './operation.js';
import { conditions, copyOperation, postObject, putManifest, putParams, tempUrlOperation, type NativeReader } from './parse-object.js';
import { readAccountAcl } from './account-acl.js';
import { listingFormat, readContainerSettings, readLimit } from './params.js';
import { parseNativePath, type NativeTarget } from './router.js';

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
export function parseNative(req: NativeRequest): NativeOperation {
  const target = parseNativePath(req.rawPath);
  if (target.kind === 'invalid') throw new NativeError(target.status, target.body);
  const query = req.query;
  if (!query) throw new NativeError(400, 'Invalid query string');
  const r: NativeReader = new ParamReader(refusal);
  const op = operation(req, target, query, r);
  if (r.invalid) op.invalid = r.invalid;
  return op;
}

function operation(req: NativeRequest, target: Exclude<NativeTarget, { kind: 'invalid' }>, query: Map<string, string>, r: NativeReader): NativeOperation {
  const m = req.method;
  const h = (n: string) => headerOf(req.headers, n);
  const q = (n: string) => query.get(n);
  const format = () => listingFormat(q('format'), h('accept'));
  if (target.kind === 'auth') {
    if (m !== 'GET') return { name: 'MethodNotAllowed', allow: 'GET', path: undefined };
    return { name: 'Auth', user: h('x-auth-user') ?? h('x-storage-user'), key: h('x-auth-key') ?? h('x-storage-pass'), host: h('host') };
  }
  // As Swift's proxy: only reads (its OPTIONS is CORS, which Coffer's native API does not serve yet).
  if (target.kind === 'info') return m === 'GET' || m === 'HEAD' ? { name: 'Info' } : { name: 'MethodNotAllowed', allow: 'GET, HEAD', path: undefined };
  if (query.has('temp_url_sig') || query.has('temp_url_expires')) return tempUrlOperation(req.method, req.headers, target, query, r);
  if (target.kind === 'account') {
    const path = { account: target.account };
    if ((m === 'POST' || m === 'DELETE') && query.has('bulk-delete')) {
      const framed = h('content-length') !== undefined || /chunked/i.test(h('transfer-encoding') ?? '');
      return { name: 'BulkDelete', path, contentType: h('content-type'), format: format(), framed };
    }
    if (m === 'HEAD') return { name: 'HeadAccount', path, format: format() };
    if (m === 'GET') return { name: 'ListAccount', path, listing: listing(q, format(), r, (v) => ['true', '1', 'yes', 'on'].includes((v ?? '').toLowerCase())) };
    if (m === 'POST') {
      const change = r.read(() => accountChange(req.headers), { set: {}, remove: [] });
      return { name: 'PostAccount', path, change, acl: r.read(() => readAccountAcl(h('x-account-access-control')), undefined) };
    }
    return { name: 'MethodNotAllowed', allow: 'GET, HEAD, POST', path };
  }
  if (target.kind === 'container') {
    const path = { account: target.account, container: target.container };
    switch (m) {
      case 'PUT': {
        if (h('x-versions-location') !== undefined || h('x-history-location') !== undefined) {
          r.fail(new NativeError(412, 'Legacy versioning (X-Versions-Location) is not enabled; use S3 bucket versioning'));
        }
        const policy = h('x-storage-policy');
        if (policy !== undefined && policy.toLowerCase() !== 'default-placement') r.fail(new NativeError(400, 'InvalidLocationConstraint'));
        const settings = r.read(() => readContainerSettings(req.headers), { meta: { set: {}, remove: [] } });
        return { name: 'PutContainer', path, settings, meta: settings.meta };
      }
      case 'HEAD':
        return { name: 'HeadContainer', path, format: format() };
      case 'GET': {
        const base = listing(q, format(), r, truthy);
        return { name: 'ListContainer', path, listing: { ...base, delimiter: q('delimiter'), path: q('path'), allowUnordered: truthy(q('allow_unordered')) } };
      }
      case 'POST': {
        const settings = r.read(() => readContainerSettings(req.headers), { meta: { set: {}, remove: [] } });
        return { name: 'PostContainer', path, settings, meta: settings.meta };
      }
      case 'DELETE':
        return { name: 'DeleteContainer', path };
      default:
        return { name: 'MethodNotAllowed', allow: 'DELETE, GET, HEAD, POST, PUT', path };
    }
  }
  const path: ObjectPath = { account: target.account, container: target.container, object: target.object };
  const manifest = q('multipart-manifest');
  const get = () => ({ range: parseRange(h('range')), conditions: conditions(h) });
  switch (m) {
    case 'COPY':
      return copyOperation(path, req.headers, r, 'destination');
    case 'GET':
    case 'HEAD':
      if (manifest === 'get') return { name: 'GetManifest', path, raw: q('format') === 'raw', head: m === 'HEAD', ...get() };
      return { name: m === 'GET' ? 'GetObject' : 'HeadObject', path, tempUrl: undefined, ...get() };
    case 'PUT': {
      if (h('x-copy-from') !== undefined) return copyOperation(path, req.headers, r, 'x-copy-from');
      if (manifest === 'put') return putManifest(path, req.headers, h, format(), r);
      if (manifest !== undefined) r.fail(new NativeError(400, 'multipart-manifest must be "put" on a PUT'));
      if (h('x-static-large-object') !== undefined) r.fail(new NativeError(400, RESERVED_SLO_HEADER));
      return { name: 'PutObject', path, tempUrl: undefined, ...putParams(req.headers, h, r) };
    }
    case 'POST':
      if (h('x-static-large-object') !== undefined) r.fail(new NativeError(400, RESERVED_SLO_HEADER));
      return postObject(path, req.headers, h, r, undefined);
    case 'DELETE':
      if (manifest === 'delete') return { name: 'DeleteManifest', path, format: format() };
      return { name: 'DeleteObject', path, tempUrl: undefined };
    default:
      // RFC 9110 15.5.6: a 405 says what is allowed.
      return { name: 'MethodNotAllowed', allow: 'COPY, DELETE, GET, HEAD, POST, PUT', path };
  }
}

function listing(q: (n: string) => string | undefined, format: ListingParams['format'], r: NativeReader, reverse: (v: string | undefined) => boolean): ListingParams {
  return { format, limit: r.read(() => readLimit(q('limit')), undefined), marker: q('marker'), endMarker: q('end_marker'), prefix: q('prefix'), reverse: reverse(q('reverse')) };
}

/** POST account: metadata only; quotas are the administrator's (`coffer quota set`). */
function accountChange(headers: RequestHeaders) {
  const tooLong = headerProblem(headers);
  if (tooLong) throw new NativeError(400, tooLong);
  const change = readMetaHeaders(headers, 'Account');
  if (change.invalidUtf8) throw new NativeError(400, 'Metadata must be valid UTF-8');
  if ('quota-bytes' in change.set || 'quota-count' in change.set) throw new NativeError(403, 'Quotas are set by the administrator (coffer quota set)');
  return change;
}
