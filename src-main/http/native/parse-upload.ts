import { headerOf, type RequestHeaders } from '../common/headers.js';
import { compressionOf } from './archive.js';
import { decodeStrict } from '../common/url.js';
import { parseContentDisposition } from '../common/multipart.js';
import { bestMatch } from './accept.js';
import { NativeError } from './errors.js';
import { REPORT_CONTENT_TYPES, type ListingFormat } from './listing-format.js';
import type { NativeOperation } from './operation.js';
import type { NativeReader } from './parse-object.js';
import { readObjectFields } from './params.js';
import type { NativeTarget } from './router.js';

// The parameters of Swift's upload middleware, bulk upload (`?extract-archive=`) and form posts,
// read from a request's head.

/** The report types of Swift's bulk middleware, in its order of preference. */
const REPORT_TYPES: readonly [string, ListingFormat][] = [
  ['text/plain', 'plain'],
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
];

const REPORT_OFFERS = REPORT_TYPES.map(([type]) => type);

/**
 * A bulk or SLO report's format and Content-Type as Swift's middleware picks them: Accept read as
 * every native answer reads it (native/accept.ts, swob's best_match: quality, exact types before
 * wildcards) over the offers in Swift's order, the type the one it matched (an XML report asked for
 * as text/xml says text/xml); no header: plain text; nothing acceptable: undefined (bulk reports
 * 406; SLO answers plain text). `format=` is a listing's parameter, not theirs.
 */
export function reportOf(accept: string | undefined): { format: ListingFormat; type: string } | undefined {
  const offer = reportOffer(accept);
  const format = REPORT_TYPES.find(([type]) => type === offer)?.[1];
  if (!format) return undefined;
  return { format, type: format === 'xml' && offer === 'text/xml' ? 'text/xml' : REPORT_CONTENT_TYPES[format] };
}

/**
 * The offered report type swob's best_match picks (undefined: none is acceptable). An Accept
 * header swob cannot read picks none either (its best_match returns None on a ValueError).
 */
function reportOffer(accept: string | undefined): string | undefined {
  if (accept === undefined || accept.trim() === '') return 'text/plain';
  try {
    return bestMatch(accept, REPORT_OFFERS);
  } catch (err) {
    if (err instanceof NativeError) return undefined;
    throw err;
  }
}

/** What Swift's bulk middleware copies from the request onto every file it stores. */
function memberHeaders(headers: RequestHeaders): RequestHeaders {
  const out: RequestHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'x-delete-at' || name === 'x-delete-after' || name.startsWith('x-object-meta-')) out[name] = value;
  }
  return out;
}

/**
 * `PUT …?extract-archive=tar|tar.gz|tar.bz2` on the account, a container or a prefix in one
 * (Swift's bulk middleware, ahead of every other in its pipeline). An unknown archive type is
 * Swift's 400; whatever else is wrong is told in the report.
 */
export function extractArchiveOperation(target: Extract<NativeTarget, { kind: 'account' | 'container' | 'object' }>, value: string, headers: RequestHeaders, r: NativeReader): NativeOperation {
  const h = (n: string) => headerOf(headers, n);
  const compression = compressionOf(value);
  // swob's HTTPBadRequest with a body: an HTML type, as Swift answers it.
  if (!compression) r.fail(new NativeError(400, 'Unsupported archive format', { 'Content-Type': 'text/html; charset=UTF-8' }));
  const path =
    target.kind === 'account' ? { account: target.account }
    : target.kind === 'container' ? { account: target.account, container: target.container }
    : { account: target.account, container: target.container, object: target.object };
  let fields;
  try {
    fields = readObjectFields(memberHeaders(headers));
  } catch (err) {
    if (!(err instanceof NativeError)) throw err;
    fields = err;
  }
  const report = reportOf(h('accept'));
  return {
    name: 'ExtractArchive',
    path,
    compression: compression ?? 'tar',
    format: report?.format,
    reportType: report?.type,
    framed: h('content-length') !== undefined || /chunked/i.test(h('transfer-encoding') ?? ''),
    fields,
  };
}

/**
 * A POST whose Content-Type is exactly `multipart/form-data` with a boundary is a form post
 * (Swift's formpost middleware, ahead of auth in its pipeline), wherever it points; undefined otherwise.
 */
export function formPostOperation(target: Extract<NativeTarget, { kind: 'account' | 'container' | 'object' }>, rawPath: string, contentType: string | undefined): NativeOperation | undefined {
  const [type, attrs] = parseContentDisposition(contentType ?? '');
  if (type !== 'multipart/form-data' || attrs.boundary === undefined) return undefined;
  const path =
    target.kind === 'account' ? { account: target.account }
    : target.kind === 'container' ? { account: target.account, container: target.container }
    : { account: target.account, container: target.container, object: target.object };
  return { name: 'FormPost', path, boundary: attrs.boundary, signedPath: signedPathOf(rawPath) };
}

/** The path a form's signature covers: the request's, decoded, without RGW's `/swift` prefix (Swift's PATH_INFO). */
function signedPathOf(rawPath: string): string {
  const decoded = decodeStrict(rawPath) ?? rawPath;
  return decoded.startsWith('/swift/') ? decoded.slice('/swift'.length) : decoded;
}
