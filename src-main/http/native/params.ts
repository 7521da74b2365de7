import { MAX_DELETE_AT, type ContainerSettings, type RequestFields } from '../../engine/index.js';
import { headerOf, type RequestHeaders } from '../common/headers.js';
import { headerToText } from '../common/header-text.js';
import { decodeHeaderStrict } from '../common/url.js';
import { NativeError, plainError } from './errors.js';
import { LISTING_LIMIT, truthy } from './limits.js';
import { bestMatch } from './accept.js';
import { cleanContainerAcl } from './container-acl.js';
import { LISTING_MEDIA, listingType, type ListingType } from './listing-format.js';
import { headerProblem, metaProblem, readMetaHeaders, readStandardHeaders, type MetaChange } from './metadata.js';

/**
 * The `limit` parameter (§5): undefined when absent or not all digits (Swift's servers take
 * `limit` only when `isdigit()`, so -1, abc and 5000.0 list with the default limit), else a
 * number within the listing limit (412 past it, as Swift).
 */
export function readLimit(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  if (n > LISTING_LIMIT) throw new NativeError(412, `Maximum limit is ${LISTING_LIMIT}`);
  return n;
}

/**
 * An account or container listing's type, as Swift's listing_formats negotiates it: `format=`
 * (any case; json, xml, anything else plain text) wins over Accept; Accept picks by swob's rules,
 * so `text/xml` is answered as text/xml, a header naming none of the types is 406 and one swob
 * cannot read is 400. No Accept, an empty one or a leading `*\/*` take the seed's default, JSON
 * (seed N1/N4, supplement correction 1), where Swift answers plain text.
 */
export function listingMediaType(format: string | undefined, accept: string | undefined): ListingType {
  const f = format?.toLowerCase();
  if (f) return listingType(f === 'json' ? 'application/json' : f === 'xml' ? 'application/xml' : 'text/plain');
  if (accept === undefined || accept.trim() === '') return listingType('application/json', true);
  const media = bestMatch(accept, LISTING_MEDIA, 'application/json');
  if (!media) throw new NativeError(406);
  return listingType(media, true);
}

const INTEGER = /^[+-]?\d+$/;

/**
 * X-Delete-At / X-Delete-After (§9): epoch seconds or undefined. As Swift
 * (constraints.check_delete_headers), an integer of any size is taken and the time capped at
 * 9999999999 (normalize_delete_at_timestamp): X-Delete-After 10^40 expires in 2286, not never.
 */
export function readDeleteAt(headers: RequestHeaders, nowMs = Date.now()): number | undefined {
  const after = headerOf(headers, 'x-delete-after')?.trim();
  const at = headerOf(headers, 'x-delete-at')?.trim();
  const now = Math.floor(nowMs / 1000);
  if (after !== undefined) {
    if (!INTEGER.test(after)) throw plainError(400, 'Non-integer X-Delete-After');
    const t = Math.min(now + Number(after), MAX_DELETE_AT);
    if (t <= now) throw plainError(400, 'X-Delete-After in past');
    return t;
  }
  if (at !== undefined) {
    if (!INTEGER.test(at)) throw plainError(400, 'Non-integer X-Delete-At');
    const t = Math.min(Number(at), MAX_DELETE_AT);
    if (t <= now) throw plainError(400, 'X-Delete-At in past');
    return t;
  }
  return undefined;
}

/**
 * Fields of a new object version from PUT/POST/COPY headers. A PUT keeps metadata with an empty
 * value, as Swift's object server stores every X-Object-Meta-* it is given (`keepEmpty`).
 */
export function readObjectFields(headers: RequestHeaders, keepEmpty = false): RequestFields {
  const tooLong = headerProblem(headers);
  if (tooLong) throw plainError(400, tooLong);
  const meta = readMetaHeaders(headers, 'Object').set;
  if (!keepEmpty) for (const [k, v] of Object.entries(meta)) if (v === '') delete meta[k];
  const problem = metaProblem('Object', meta);
  if (problem) throw plainError(400, problem);
  const deleteAt = readDeleteAt(headers);
  const detect = truthy(headerOf(headers, 'x-detect-content-type'));
  const contentType = detect ? undefined : headerOf(headers, 'content-type');
  // Kept as text (UTF-8 decoded), as metadata is: listings show it, both APIs send it back byte for byte.
  const fields: RequestFields = { meta, headers: readStandardHeaders(headers) };
  if (contentType) fields.contentType = headerToText(contentType);
  if (deleteAt !== undefined) fields.deleteAt = deleteAt;
  return fields;
}

const DLO_FORMAT = 'X-Object-Manifest must be in the format container/prefix';

/** X-Object-Manifest as read: the (URL-decoded) segment container and prefix, and the header as sent, which Swift echoes. */
export interface DloHeader {
  container: string;
  prefix: string;
  header: string;
}

/**
 * `X-Object-Manifest: {container}/{prefix}` (URL-encoded) on a PUT makes the object a DLO (§10.2).
 * Swift's rule: both parts non-empty, no query characters, the prefix not starting with `/`. Swift
 * checks it on PUT only: a POST stores any value (`lenient`), split as Swift's reader splits it.
 */
export function readDloTarget(raw: string | undefined, lenient = false): DloHeader | undefined {
  if (raw === undefined) return undefined;
  const header = raw.trim();
  const value = decodeHeaderStrict(header) ?? (lenient ? header : undefined);
  const slash = value?.indexOf('/') ?? -1;
  const container = value === undefined ? '' : slash < 0 ? value : value.slice(0, slash);
  const prefix = value === undefined || slash < 0 ? '' : value.slice(slash + 1);
  const valid = value !== undefined && slash > 0 && !value.includes('?') && !value.includes('&') && !!prefix && !prefix.startsWith('/');
  if (!valid && !lenient) throw new NativeError(400, DLO_FORMAT);
  return { container, prefix, header };
}

/** `/container/object` or `container/object` (URL-encoded) -> its parts, or undefined when malformed. */
export function parseCopyPath(value: string | undefined): { container: string; name: string } | undefined {
  if (value === undefined) return undefined;
  const decoded = decodeHeaderStrict(value.trim());
  if (decoded === undefined) return undefined;
  const path = decoded.startsWith('/') ? decoded.slice(1) : decoded;
  const slash = path.indexOf('/');
  if (slash <= 0 || slash === path.length - 1) return undefined;
  return { container: path.slice(0, slash), name: path.slice(slash + 1) };
}

/** `Destination-Account` / `X-Copy-From-Account`: the account, without its `AUTH_` prefix. */
export function copyAccount(header: string | undefined, fallback: string): string {
  if (!header) return fallback;
  const v = decodeHeaderStrict(header.trim()) ?? header;
  return v.replace(/^(AUTH_|KEY_)/, '');
}

const QUOTA_KEYS = { 'quota-bytes': 'maxBytes', 'quota-count': 'maxObjects' } as const;

/**
 * Container settings from PUT/POST headers: metadata, ACLs, quotas. The metadata change is
 * checked against the container's own metadata once it is known (`containerMetaProblem`).
 */
export function readContainerSettings(headers: RequestHeaders): ContainerSettings & { meta: MetaChange } {
  const tooLong = headerProblem(headers);
  if (tooLong) throw plainError(400, tooLong);
  const change = readMetaHeaders(headers, 'Container');
  if (change.invalidUtf8) throw plainError(400, 'Metadata must be valid UTF-8');
  const settings: ContainerSettings & { meta: MetaChange } = { meta: change };
  const quota: ContainerSettings['quota'] = {};
  for (const [key, field] of Object.entries(QUOTA_KEYS)) {
    if (change.remove.includes(key)) quota[field] = -1;
    const v = change.set[key];
    if (v === undefined) continue;
    if (!/^\d+$/.test(v)) throw new NativeError(400, key === 'quota-bytes' ? 'Invalid bytes quota.' : 'Invalid count quota.');
    // Swift takes any digits (it keeps the string); past 2^53 a number is no longer exact, and no
    // store comes near that many bytes or objects, so the largest exact one stands for it.
    quota[field] = Math.min(Number(v), Number.MAX_SAFE_INTEGER);
    delete change.set[key];
  }
  change.remove = change.remove.filter((k) => !(k in QUOTA_KEYS));
  if (Object.keys(quota).length) settings.quota = quota;
  // The change alone must fit; merged with the container's metadata it is checked again.
  const alone = containerMetaProblem({}, change);
  if (alone) throw plainError(400, alone);
  const acl: ContainerSettings['acl'] = {};
  for (const kind of ['read', 'write'] as const) {
    const v = headers[`x-container-${kind}`];
    if (typeof v === 'string') acl[kind] = cleanContainerAcl(kind, v) || null;
    if (headers[`x-remove-container-${kind}`] !== undefined) acl[kind] = null;
  }
  settings.acl = acl;
  const archive = readArchive(headers);
  if (archive !== undefined) settings.archive = archive;
  // Object versioning (Swift's X-Versions-Enabled): once set, false suspends it (versions are kept).
  const versions = headerOf(headers, 'x-versions-enabled');
  if (versions !== undefined) settings.versioning = truthy(versions) ? 'enabled' : 'suspended';
  return settings;
}

/**
 * Legacy versioned writes, as Swift's versioned_writes reads them: X-Versions-Location (stack) or
 * X-History-Location (history), not both; an empty value or X-Remove-…-Location removes it.
 */
function readArchive(headers: RequestHeaders): ContainerSettings['archive'] {
  let stack = headerOf(headers, 'x-versions-location');
  let history = headerOf(headers, 'x-history-location');
  if (stack !== undefined && history !== undefined) {
    if (!history) history = undefined;
    else if (stack) throw plainError(400, 'Only one of x-versions-location or x-history-location may be specified');
    else stack = undefined;
  }
  const value = stack ?? history;
  if (value) {
    if (value.includes('/')) throw new NativeError(412, 'Container name cannot contain slashes');
    return { container: value, mode: stack !== undefined ? 'stack' : 'history' };
  }
  if (value === '' || headerOf(headers, 'x-remove-versions-location') || headerOf(headers, 'x-remove-history-location')) return null;
  return undefined;
}

/** Why a container's metadata after `change` breaks the limits (the Swift message), or null. */
export function containerMetaProblem(existing: Record<string, string>, change: MetaChange): string | null {
  const merged = { ...existing };
  for (const k of change.remove) delete merged[k];
  return metaProblem('Container', Object.assign(merged, change.set));
}
