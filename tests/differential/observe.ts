// An answer reduced to what clients read, with what must differ between servers normalised away:
// request ids, tokens, dates and timestamps (kept as their format, which clients parse), hosts
// and ports, account and user names, the run's name prefix, upload and version ids. What is left
// is compared field by field: status, the S3 error code, the headers clients read, and the body
// as a flat map of paths (XML elements and attributes, JSON keys) to values.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { XMLParser } from 'fast-xml-parser';
import type { Api, CompareOptions, Observation } from './types.js';

/** Headers clients read, by API; names ending in `-` are prefixes (user metadata). */
const HEADERS: Record<Api, string[]> = {
  native: [
    'content-type', 'etag', 'accept-ranges', 'last-modified', 'x-timestamp', 'x-trans-id', 'x-openstack-request-id',
    'content-range', 'content-disposition', 'content-encoding', 'content-language', 'cache-control', 'expires', 'location', 'allow',
    'www-authenticate', 'x-auth-token', 'x-storage-token', 'x-storage-url', 'x-auth-token-expires',
    'x-delete-at', 'x-object-manifest', 'x-static-large-object', 'x-manifest-etag', 'x-symlink-target', 'x-symlink-target-account',
    'x-copied-from', 'x-copied-from-account', 'x-copied-from-last-modified',
    'x-container-object-count', 'x-container-bytes-used', 'x-container-read', 'x-container-write', 'x-storage-policy',
    'x-versions-location', 'x-history-location', 'x-versions-enabled', 'x-object-version-id', 'x-object-current-version-id',
    'x-account-container-count', 'x-account-object-count', 'x-account-bytes-used', 'x-account-access-control',
    'x-object-meta-', 'x-container-meta-', 'x-account-meta-', 'access-control-',
  ],
  s3: [
    'content-type', 'etag', 'accept-ranges', 'last-modified', 'x-amz-request-id', 'x-amz-id-2',
    'content-range', 'content-disposition', 'content-encoding', 'content-language', 'cache-control', 'expires', 'location',
    'x-amz-version-id', 'x-amz-delete-marker', 'x-amz-copy-source-version-id', 'x-amz-mp-parts-count', 'x-amz-bucket-region',
    'x-amz-storage-class', 'x-amz-server-side-encryption', 'x-amz-website-redirect-location', 'x-amz-tagging-count',
    'x-amz-expiration', 'x-amz-checksum-crc32', 'x-amz-checksum-crc32c', 'x-amz-checksum-sha1', 'x-amz-checksum-sha256',
    'x-amz-meta-', 'access-control-', 'x-amz-object-lock-',
  ],
};

/** Headers whose value is never the same twice: only their presence (and format) is compared. */
const OPAQUE_HEADERS = new Set(['x-trans-id', 'x-openstack-request-id', 'x-amz-request-id', 'x-amz-id-2', 'x-auth-token', 'x-storage-token']);
/** Counters of a whole account: Swift's lag (the container updater pushes them), and other tests share the account. */
const ACCOUNT_COUNTERS = /^x-account-(container-count|object-count|bytes-used)$/;
/** XML elements and JSON keys whose values are ids or tokens. */
const OPAQUE_FIELDS = new Set(['RequestId', 'HostId', 'UploadId', 'NextUploadIdMarker', 'UploadIdMarker', 'NextContinuationToken', 'ContinuationToken']);
/** Version ids (each server makes its own): compared as 'null' or an id. Swift's header and listing key too. */
const VERSION_FIELDS = new Set([
  'VersionId', 'NextVersionIdMarker', 'VersionIdMarker', 'DeleteMarkerVersionId', 'x-amz-version-id', 'x-amz-copy-source-version-id',
  'x-object-version-id', 'x-object-current-version-id', 'version_id',
]);

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?\b/g;
const EPOCH = /^\d{10}(\.\d+)?$/;
const MD5 = /^[0-9a-f]{32}$/;
const ARCHIVED_VERSION_TIME = /\/\d{10}\.\d{5}(?=$|\n)/gm;

/** Per-target replacements of what must differ (host, account and user names, the run's prefix), longest first. */
export interface Normaliser {
  replacements: [string, string][];
}

export function makeNormaliser(pairs: [string, string][]): Normaliser {
  return { replacements: [...pairs].filter(([from]) => from.length > 0).sort((a, b) => b[0].length - a[0].length) };
}

/** A date or timestamp becomes its format: digits as `n` (`<date nnnn-nn-nnTnn:nn:nn.nnnZ>`). */
function shape(kind: string, v: string): string {
  return `<${kind} ${v.replace(/\d/g, 'n')}>`;
}

/** Normalises a free value: identities, hosts and the run prefix, dates as their format. */
export function normaliseText(n: Normaliser, v: string): string {
  let out = v;
  for (const [from, to] of n.replacements) out = out.split(from).join(to);
  if (HTTP_DATE.test(out)) return '<http-date>';
  // Legacy versioned writes name archived versions `<len><name>/<timestamp>`: the time is each server's own.
  return out.replace(ISO_DATE, (d) => shape('date', d)).replace(ARCHIVED_VERSION_TIME, (t) => `/${shape('timestamp', t.slice(1))}`);
}

function headerValue(n: Normaliser, name: string, value: string, presence: Set<string>): string {
  if (OPAQUE_HEADERS.has(name) || presence.has(name)) return value === '' ? '(empty)' : '<present>';
  if (VERSION_FIELDS.has(name)) return value === 'null' ? 'null' : '<version>';
  if (ACCOUNT_COUNTERS.test(name)) return /^\d+$/.test(value) ? '<n>' : value;
  if (name === 'x-auth-token-expires') return /^\d+$/.test(value) ? '<seconds>' : value;
  if (name === 'x-timestamp' || name === 'x-delete-at') return EPOCH.test(value) ? shape('timestamp', value) : value;
  // An SLO's stored manifest document names each segment's Last-Modified, each server's own: its MD5 is compared as a format.
  if (name === 'x-manifest-etag') return MD5.test(value) ? '<manifest md5>' : value;
  // Media types and their charset are case-insensitive (RFC 9110 8.3): `charset=UTF-8` is `charset=utf-8`.
  // A multipart answer's boundary is random on every server.
  if (name === 'content-type') return normaliseText(n, value.toLowerCase().replace(/\s*;\s*/g, '; ').replace(/boundary=[^;\s]+/, 'boundary=<boundary>'));
  // Swift lists the allowed methods in a different order each time (a set).
  if (name === 'allow') return value.split(',').map((m) => m.trim().toUpperCase()).sort().join(', ');
  // Swift's exposed headers are a set too, in a different order on every run; header names are case-insensitive.
  if (name === 'access-control-expose-headers') return value.split(',').map((h) => h.trim().toLowerCase()).sort().join(', ');
  // The storage policy's name is the deployment's (Swift's here is `gold`, RGW's `default-placement`).
  if (name === 'x-storage-policy') return '<policy>';
  return normaliseText(n, value);
}

function isCompared(api: Api, name: string): boolean {
  return HEADERS[api].some((h) => (h.endsWith('-') ? name.startsWith(h) && name.length > h.length : name === h));
}

const xml = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, parseAttributeValue: false, trimValues: true, processEntities: true });

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

/** Appends a value to a path's list (repeated elements and array items are kept in order). */
function add(out: Map<string, string[]>, path: string, value: string): void {
  const list = out.get(path);
  if (list) list.push(value);
  else out.set(path, [value]);
}

function walkXml(n: Normaliser, nodes: OrderedNode[], path: string, out: Map<string, string[]>): void {
  for (const node of nodes) {
    const tag = Object.keys(node).find((k) => k !== ':@');
    if (!tag || tag.startsWith('?')) continue;
    if (tag === '#text') continue;
    const p = path ? `${path}/${tag}` : tag;
    for (const [attr, v] of Object.entries(node[':@'] ?? {})) {
      // Namespace declarations of the XSI kind are how a Grantee says its type; keep them all.
      add(out, `${p}/${attr}`, normaliseField(n, attr.slice(1), String(v)));
    }
    const children = (node[tag] as OrderedNode[]) ?? [];
    const text = children.filter((c) => '#text' in c).map((c) => String(c['#text'])).join('');
    const elements = children.filter((c) => !('#text' in c));
    if (elements.length) {
      add(out, p, '{}');
      walkXml(n, elements, p, out);
    } else add(out, p, normaliseField(n, tag, text));
  }
}

function normaliseField(n: Normaliser, name: string, value: string): string {
  if (OPAQUE_FIELDS.has(name)) return value === '' ? '' : `<${name === 'UploadId' || name.includes('UploadId') ? 'upload' : 'token'}>`;
  if (VERSION_FIELDS.has(name)) return value === 'null' || value === '' ? value : '<version>';
  return normaliseText(n, value);
}

function walkJson(n: Normaliser, v: unknown, path: string, out: Map<string, string[]>): void {
  if (Array.isArray(v)) {
    add(out, path || '[]', `[${v.length}]`);
    for (const item of v) walkJson(n, item, `${path}[]`, out);
  } else if (v !== null && typeof v === 'object') {
    add(out, path || '{}', '{}');
    // A listed SLO's `hash` is its manifest document's MD5 (see x-manifest-etag): a format too.
    const slo = 'slo_etag' in v;
    for (const [k, child] of Object.entries(v)) {
      if (slo && k === 'hash' && typeof child === 'string' && MD5.test(child)) add(out, path ? `${path}/${k}` : k, '<manifest md5>');
      else walkJson(n, child, path ? `${path}/${k}` : k, out);
    }
  } else add(out, path || 'value', typeof v === 'string' ? normaliseField(n, path.split('/').pop() ?? '', v) : `${typeof v}:${String(v)}`);
}

/** One value, `value ×N` for N equal ones, or a JSON list of the values in order. */
function joined(values: string[]): string {
  if (values.length === 1) return values[0]!;
  if (values.every((v) => v === values[0])) return `${values[0]} ×${values.length}`;
  return JSON.stringify(values);
}

/** Turns a path → values map into the compared fields: one value per path, repeated values joined. */
function flatten(out: Map<string, string[]>, shapeOnly: boolean, fields: Map<string, string>): void {
  for (const [path, values] of out) {
    fields.set(`body:${path}`, shapeOnly ? '<present>' : joined(values));
  }
}

function printable(buf: Buffer): string | undefined {
  if (buf.length > 4096) return undefined;
  const s = buf.toString('utf8');
  if (Buffer.from(s, 'utf8').compare(buf) !== 0 || /[\0-\x08\x0b-\x1f]/.test(s)) return undefined;
  return s;
}

/** The visible text of Swift's HTML error pages: `<html><h1>Not Found</h1><p>The resource …</p></html>`. */
function htmlText(s: string): string {
  return s
    .replace(/<\/(h1|p|title|div)>/gi, ' / ')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .replace(/( \/)+\s*$/, '')
    .trim();
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The observation of one answer. */
export function observe(api: Api, method: string, res: RawAnswer, n: Normaliser, opts: CompareOptions = {}): Observation {
  const fields = new Map<string, string>();
  const presence = new Set((opts.presence ?? []).map((h) => h.toLowerCase()));
  const ignoreList = (opts.ignore ?? []).map((h) => h.toLowerCase());
  const ignored = (name: string) => ignoreList.some((h) => (h.endsWith('-') ? name.startsWith(h) : name === h));
  for (const [name, raw] of Object.entries(res.headers)) {
    if (raw === undefined || ignored(name) || !isCompared(api, name)) continue;
    // Ranges are a property of what a GET or HEAD reads; whether a PUT's answer mentions them is nothing a client reads.
    if (name === 'accept-ranges' && method !== 'GET' && method !== 'HEAD') continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    fields.set(`header:${name}`, headerValue(n, name, value, presence));
  }
  const type = String(res.headers['content-type'] ?? '').toLowerCase();
  const mode = opts.body ?? 'exact';
  const kind = bodyKind(method, res, type);
  // (`mode` and `kind` first: whether the length is compared depends on them.)
  // The length is compared where the body is compared byte for byte (or a HEAD says it);
  // structured bodies are compared by their fields, whose spacing may differ.
  // (A HEAD's error says how long a body it does not send would be: nobody reads that.)
  const lengthRead = (kind === 'data' && mode === 'exact') || kind === 'empty' || (kind === 'none' && res.status < 300);
  if (lengthRead && res.headers['content-length'] !== undefined && !ignored('content-length')) {
    fields.set('header:content-length', res.headers['content-length']);
  }
  if (kind !== 'none') fields.set('body', kind);
  if (mode === 'none' || kind === 'none' || kind === 'empty') return { status: res.status, fields };
  const text = res.body.toString('utf8');
  if (kind === 'xml') {
    const tree = new Map<string, string[]>();
    try {
      walkXml(n, xml.parse(text) as OrderedNode[], '', tree);
    } catch {
      fields.set('body', 'text');
      fields.set('body:text', normaliseText(n, text.trim()));
      return { status: res.status, fields };
    }
    // An S3 error is its code: messages are free text and the other elements vary by server.
    const code = tree.get('Error/Code');
    if (code) {
      fields.set('code', code[0]!);
      return { status: res.status, fields };
    }
    flatten(tree, mode === 'shape', fields);
  } else if (kind === 'json') {
    const tree = new Map<string, string[]>();
    try {
      walkJson(n, JSON.parse(text), '', tree);
    } catch {
      fields.set('body', 'text');
      fields.set('body:text', normaliseText(n, text.trim()));
      return { status: res.status, fields };
    }
    flatten(tree, mode === 'shape', fields);
  } else if (kind === 'html') {
    fields.set('body:text', normaliseText(n, htmlText(text)));
  } else if (kind === 'text') {
    fields.set('body:text', mode === 'shape' ? '<present>' : normaliseText(n, text.trim()));
  } else {
    // A multipart/byteranges body is compared with its (random) boundary replaced.
    const boundary = /boundary=([^;\s]+)/i.exec(type)?.[1];
    const body = boundary ? Buffer.from(res.body.toString('latin1').split(boundary).join('<boundary>'), 'latin1') : res.body;
    const p = printable(body);
    if (mode === 'shape') fields.set('body:data', '<present>');
    else fields.set('body:data', p !== undefined ? normaliseText(n, p) : `${body.length} bytes, md5 ${createHash('md5').update(body).digest('hex')}`);
  }
  return { status: res.status, fields };
}

type BodyKind = 'none' | 'empty' | 'xml' | 'json' | 'html' | 'text' | 'data';

function bodyKind(method: string, res: RawAnswer, type: string): BodyKind {
  if (method === 'HEAD') return 'none';
  if (res.body.length === 0) return 'empty';
  if (/[/+]json\b/.test(type)) return 'json';
  if (/[/+]xml\b/.test(type)) return 'xml';
  if (type.startsWith('text/html')) return 'html';
  // An error with a body that is not a document: its text (Coffer's and RGW's native errors).
  if (res.status >= 300) return res.body.toString('utf8').trimStart().startsWith('<?xml') ? 'xml' : 'text';
  return 'data';
}
