import type { IncomingHttpHeaders } from 'node:http';
import type { ObjectDetails, StandardHeaderValues } from '../../../src-shared/model/storage.js';
import { header } from './http.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Header values are bytes; Node writes a string's chars as latin1 bytes. Swift stores metadata
 * values as the bytes received (§7.2), so text goes out as its UTF-8 bytes and comes back the same
 * way; bytes that are not UTF-8 (written by another client) are kept as they are.
 */
export function textToHeader(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

export function headerToText(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  try {
    return strictUtf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

const STANDARD: [keyof StandardHeaderValues, string][] = [
  ['contentEncoding', 'Content-Encoding'],
  ['contentDisposition', 'Content-Disposition'],
  ['contentLanguage', 'Content-Language'],
  ['cacheControl', 'Cache-Control'],
  ['expires', 'Expires'],
];

/** Request headers for an object's content type, user metadata and standard headers. */
export function objectWriteHeaders(contentType: string | undefined, meta: Record<string, string> = {}, std: StandardHeaderValues = {}): Record<string, string> {
  const out: Record<string, string> = {};
  if (contentType) out['Content-Type'] = contentType;
  for (const [k, v] of Object.entries(meta)) out[`X-Object-Meta-${k}`] = textToHeader(v);
  for (const [field, name] of STANDARD) {
    const v = std[field];
    if (v !== undefined && v !== '') out[name] = textToHeader(v);
  }
  return out;
}

/** Standard headers the object still has though `wanted` leaves them out, as empty values that clear them. */
export function staleStandardHeaders(has: StandardHeaderValues, wanted: StandardHeaderValues = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, name] of STANDARD) if (has[field] !== undefined && !wanted[field]) out[name] = '';
  return out;
}

/** ETags are unquoted for plain objects and quoted for large objects (§2.2); the model keeps them bare. */
export function bareEtag(v: string | undefined): string {
  return (v ?? '').replace(/^W\//, '').replace(/"/g, '');
}

export function isoDate(httpDate: string | undefined): string {
  const ms = httpDate ? Date.parse(httpDate) : NaN;
  return Number.isNaN(ms) ? new Date(0).toISOString() : new Date(ms).toISOString();
}

/** Whether the object is an SLO manifest (its delete must take the segments along). */
export function isStaticLargeObject(h: IncomingHttpHeaders): boolean {
  return /^true$/i.test(header(h, 'x-static-large-object') ?? '');
}

/** ObjectDetails from GET/HEAD headers. `size` is the whole object's (a 206 carries it in Content-Range). */
export function detailsFromHeaders(container: string, name: string, h: IncomingHttpHeaders, size?: number): ObjectDetails {
  const meta: Record<string, string> = {};
  const headers: StandardHeaderValues = {};
  for (const [k, v] of Object.entries(h)) {
    if (k.startsWith('x-object-meta-') && typeof v === 'string') meta[k.slice('x-object-meta-'.length)] = headerToText(v);
  }
  for (const [field, name] of STANDARD) {
    const v = header(h, name);
    // Empty is how a header is cleared where a POST cannot drop it (Ceph RGW): there is none.
    if (v !== undefined && v !== '') headers[field] = headerToText(v);
  }
  // RGW mirrors the SLO flag into user metadata; it is not the user's.
  delete meta['static-large-object'];
  const range = /\/(\d+)\s*$/.exec(header(h, 'content-range') ?? '');
  // Swift's object versioning names the version; 'null' is the null version (the model's null).
  const version = header(h, 'x-object-version-id');
  return {
    container,
    name,
    size: size ?? (range ? Number(range[1]) : Number(header(h, 'content-length') ?? 0)),
    etag: bareEtag(header(h, 'etag')),
    lastModified: isoDate(header(h, 'last-modified')),
    contentType: header(h, 'content-type') ?? 'application/octet-stream',
    meta,
    headers,
    versionId: version && version !== 'null' ? version : null,
    storageClass: header(h, 'x-object-storage-class') ?? null,
    // Swift has no per-object ACL; whether the container is public is the container's business.
    publicRead: null,
    ...(isStaticLargeObject(h) || header(h, 'x-object-manifest') !== undefined ? { compositeEtag: true as const } : {}),
  };
}

/** Percent-encodes one path segment (UTF-8); dot segments are encoded so no proxy resolves them. */
export function encodeSegment(s: string): string {
  if (s === '.' || s === '..') return s.replace(/\./g, '%2E');
  return encodeURIComponent(s);
}

/** An object name as a URL path: each `/`-separated part encoded, the slashes kept. */
export function encodeObjectPath(name: string): string {
  return name.split('/').map(encodeSegment).join('/');
}
