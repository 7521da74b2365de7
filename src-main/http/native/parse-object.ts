import { CofferError } from '../../../src-shared/errors.js';
import { SLO_LIMITS } from '../../engine/index.js';
import { headerOf, type RequestHeaders } from '../common/headers.js';
import type { ParamReader } from '../common/param-reader.js';
import { parseRange, parseRanges } from '../common/range.js';
import { NativeError, plainError } from './errors.js';
import { truthy } from './limits.js';
import type { ListingFormat } from './listing-format.js';
import type { NativeOperation, ObjectFields, ObjectPath, PutParams, TempUrlParams } from './operation.js';
import { copyAccount, parseCopyPath, readDloTarget, readObjectFields } from './params.js';
import type { NativeTarget } from './router.js';

// The parameters of object operations (§6-§10, §12.2), read from a request's head.

export type NativeReader = ParamReader<NativeError | CofferError>;

/** Headers that would let a signed upload point at data the URL does not grant (Swift's list, plus copies). */
const TEMPURL_DISALLOWED = ['x-object-manifest', 'x-symlink-target', 'x-copy-from'];
const TEMPURL_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'];

export function conditions(h: (n: string) => string | undefined) {
  return { ifMatch: h('if-match'), ifNoneMatch: h('if-none-match'), ifModifiedSince: h('if-modified-since'), ifUnmodifiedSince: h('if-unmodified-since') };
}

const NO_FIELDS = { meta: {}, headers: {} };

/** PUT object (N5): length, If-None-Match, fields, ETag, DLO manifest, in the order Swift checks them. */
export function putParams(headers: RequestHeaders, h: (n: string) => string | undefined, r: NativeReader): PutParams {
  const length = h('content-length');
  const chunked = /chunked/i.test(h('transfer-encoding') ?? '');
  if (length === undefined && !chunked) r.fail(plainError(411, 'Missing Content-Length header.'));
  const ifNoneMatch = h('if-none-match');
  if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') r.fail(plainError(400, 'If-None-Match only supports *'));
  const fields = r.read(() => readObjectFields(headers, true), NO_FIELDS);
  const etag = h('etag')?.replace(/"/g, '').toLowerCase();
  const dlo = r.read(() => readDloTarget(h('x-object-manifest')), undefined);
  return { size: length !== undefined && !chunked ? Number(length) : undefined, ifNoneMatch: ifNoneMatch ? '*' : undefined, fields, etag: etag || undefined, dlo };
}

/** `PUT ?multipart-manifest=put` (§10.1): the checks made before the manifest is read. */
export function putManifest(path: ObjectPath, headers: RequestHeaders, h: (n: string) => string | undefined, format: ListingFormat, r: NativeReader): NativeOperation {
  const length = h('content-length');
  if (length === undefined && !/chunked/i.test(h('transfer-encoding') ?? '')) r.fail(plainError(411, 'Missing Content-Length header.'));
  if (Number(length) > SLO_LIMITS.maxManifestBytes) r.fail(new NativeError(413, `Manifest File > ${SLO_LIMITS.maxManifestBytes} bytes`));
  const ifNoneMatch = h('if-none-match');
  if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') r.fail(plainError(400, 'If-None-Match only supports *'));
  const fields = r.read(() => readObjectFields(headers), NO_FIELDS);
  return {
    name: 'PutManifest',
    path,
    format,
    contentLength: length === undefined ? undefined : Number(length),
    size: undefined,
    ifNoneMatch: ifNoneMatch ? '*' : undefined,
    fields,
    // The SLO ETag a client expects, as given (quotes and all).
    etag: h('etag') || undefined,
    dlo: undefined,
  };
}

export function postObject(path: ObjectPath, headers: RequestHeaders, h: (n: string) => string | undefined, r: NativeReader, tempUrl: TempUrlParams | undefined): NativeOperation {
  const fields = r.read(() => readObjectFields(headers), NO_FIELDS);
  const dlo = r.read(() => readDloTarget(h('x-object-manifest'), true), undefined) ?? null;
  return { name: 'PostObject', path, tempUrl, fields, removeDeleteAt: h('x-remove-delete-at') !== undefined, dlo };
}

function fieldsOrError(headers: RequestHeaders): ObjectFields | NativeError {
  try {
    return readObjectFields(headers);
  } catch (err) {
    if (err instanceof NativeError) return err;
    throw err;
  }
}

/**
 * Server-side copy (N7 COPY + Destination, N8 PUT + X-Copy-From): both ends, the conditionals on
 * the source in both spellings, the new fields. Swift answers a malformed path with 412.
 */
export function copyOperation(path: ObjectPath, headers: RequestHeaders, r: NativeReader, how: 'destination' | 'x-copy-from'): NativeOperation {
  const h = (n: string) => headerOf(headers, n);
  const other = parseCopyPath(h(how));
  if (!other) {
    r.fail(new NativeError(412, how === 'x-copy-from'
      ? 'X-Copy-From header must be of the form <container name>/<object name>'
      : h('destination') === undefined ? 'Destination header required' : 'Destination header must be of the form <container name>/<object name>'));
  }
  const length = h('content-length');
  if (how === 'x-copy-from' && length !== undefined && length !== '0') r.fail(plainError(400, 'Copy requests require a zero byte body'));
  const end: ObjectPath = {
    account: copyAccount(h(how === 'x-copy-from' ? 'x-copy-from-account' : 'destination-account'), path.account),
    container: other?.container ?? '',
    object: other?.name ?? '',
  };
  const conditions = {
    ifMatch: h('copy-if-match') ?? h('if-match'),
    ifNoneMatch: h('copy-if-none-match') ?? h('if-none-match'),
    ifModifiedSince: h('if-modified-since'),
    ifUnmodifiedSince: h('if-unmodified-since'),
  };
  return {
    name: 'CopyObject',
    path,
    from: how === 'x-copy-from' ? end : path,
    to: how === 'x-copy-from' ? path : end,
    conditions,
    fields: fieldsOrError(headers),
    fresh: truthy(h('x-fresh-metadata')),
    range: parseRange(h('range')),
  };
}

/**
 * A TempURL request (§12.2): only the plain object operations, and Swift drops every other query
 * parameter. Anything else is refused as an invalid TempURL.
 */
export function tempUrlOperation(m: string, headers: RequestHeaders, target: Exclude<NativeTarget, { kind: 'invalid' }>, query: Map<string, string>, r: NativeReader): NativeOperation {
  if (target.kind !== 'object' || !TEMPURL_METHODS.includes(m)) return { name: 'TempUrlInvalid' };
  const h = (n: string) => headerOf(headers, n);
  const tempUrl: TempUrlParams = {
    sig: query.get('temp_url_sig') ?? '',
    expires: query.get('temp_url_expires') ?? '',
    prefix: query.get('temp_url_prefix'),
    filename: query.get('filename'),
    inline: query.has('inline'),
  };
  const path = { account: target.account, container: target.container, object: target.object };
  if (m !== 'GET' && m !== 'HEAD') {
    const bad = TEMPURL_DISALLOWED.find((name) => h(name) !== undefined);
    if (bad) r.fail(new NativeError(400, `The header '${bad.replace(/(^|-)([a-z])/g, (x) => x.toUpperCase())}' is not allowed in this tempurl`));
  }
  switch (m) {
    case 'GET':
    case 'HEAD':
      return { name: m === 'GET' ? 'GetObject' : 'HeadObject', path, tempUrl, range: parseRange(h('range')), ranges: parseRanges(h('range')), conditions: conditions(h) };
    case 'PUT':
      return { name: 'PutObject', path, tempUrl, ...putParams(headers, h, r) };
    case 'POST':
      return postObject(path, headers, h, r, tempUrl);
    default:
      return { name: 'DeleteObject', path, tempUrl };
  }
}
