// One object's bytes for the app's own page: downloads and previews in the browser build
// (/_coffer/download) and previews in the desktop app (its coffer-object: scheme). Whole, or one
// byte range of it, so a video seeks and a text preview reads its first 256 KiB without the
// rest of the object leaving the store.
import type { Readable } from 'node:stream';
import mime from 'mime';
import parseRanges from 'range-parser';

export interface ObjectTarget {
  account: string;
  container: string;
  name: string;
}

/** What a reply says about the stored object. */
export interface ObjectFacts {
  size: number;
  contentType: string;
  etag: string;
  /** ISO 8601 */
  lastModified: string;
}

/** What an object reply needs of the app: the stored object's facts, and its bytes or one inclusive range of them. */
export interface ObjectReader {
  head(target: ObjectTarget): Promise<ObjectFacts>;
  read(target: ObjectTarget, range?: { start: number; end: number }): Promise<{ facts: ObjectFacts; body: Readable }>;
}

export interface ObjectRequest {
  /** The request's Range header. */
  range?: string | undefined;
  /** Its If-Range header: the range is served only while the object is still the one it names. */
  ifRange?: string | undefined;
  /** Shown in the page (a preview) rather than saved (a download). */
  inline: boolean;
}

export interface ObjectReply {
  status: number;
  headers: Record<string, string | number>;
  /** The bytes, or a JSON error body. */
  body: Readable | string;
}

/**
 * Whatever an object holds (HTML, an SVG with scripts), shown inline it runs nothing and reaches
 * nothing: a sandboxed document of its own origin, no scripts, no requests. Inline styles and
 * data: images only, so an SVG or a PDF still draws. The caller adds frame-ancestors.
 */
export const INLINE_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Types that say nothing about the bytes; a preview goes by the name's extension instead. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/binary']);

/** The type an object is served as: its own, or for a preview, what its name says when its own is generic. */
export function servedType(contentType: string, name: string, inline: boolean): string {
  if (!inline || !GENERIC_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase())) return contentType || 'application/octet-stream';
  return mime.getType(name) ?? 'application/octet-stream';
}

/** `Content-Disposition` with the object's last name segment, RFC 6266 style for any characters. */
export function disposition(name: string, inline: boolean): string {
  const leaf = name.replace(/\/+$/, '').split('/').pop() || 'download';
  const ascii = leaf.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(leaf)}`;
}

function factHeaders(target: ObjectTarget, facts: ObjectFacts, inline: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': servedType(facts.contentType, target.name, inline),
    'Content-Disposition': disposition(target.name, inline),
    'Accept-Ranges': 'bytes',
  };
  if (facts.etag) headers.ETag = `"${facts.etag}"`;
  const modified = Date.parse(facts.lastModified);
  if (Number.isFinite(modified)) headers['Last-Modified'] = new Date(modified).toUTCString();
  return headers;
}

/** If-Range names the object by its strong ETag or its Last-Modified date (RFC 9110 13.1.5). */
function stillTheSame(ifRange: string, facts: ObjectFacts): boolean {
  const value = ifRange.trim();
  if (value.startsWith('W/')) return false;
  if (value.startsWith('"')) return facts.etag !== '' && value === `"${facts.etag}"`;
  const named = Date.parse(value);
  const modified = Date.parse(facts.lastModified);
  return Number.isFinite(named) && Number.isFinite(modified) && Math.floor(modified / 1000) * 1000 === named;
}

const STATUS_OF_CODE: Record<string, number> = {
  NoSuchKey: 404,
  NoSuchContainer: 404,
  NoSuchVersion: 404,
  InvalidRange: 416,
  InvalidArgument: 400,
  AccessDenied: 403,
};

function failure(err: unknown): ObjectReply {
  const e = err as { code?: string; message?: string };
  const code = e.code ?? 'InternalError';
  // Anything else is the store's (a remote server, its credentials, the network): a bad gateway.
  const status = STATUS_OF_CODE[code] ?? 502;
  return { status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify({ error: e.message ?? String(err), code }) };
}

function whole(target: ObjectTarget, read: { facts: ObjectFacts; body: Readable }, inline: boolean): ObjectReply {
  return { status: 200, headers: { ...factHeaders(target, read.facts, inline), 'Content-Length': read.facts.size }, body: read.body };
}

/**
 * The reply to a GET of one object. A single byte range is served as 206 with Content-Range; a
 * range past the end is 416 with the size; several ranges, a range of another unit or a
 * malformed header get the whole object, as RFC 9110 lets a server do (and as Express's static
 * files and S3 do): no multipart/byteranges, which no preview asks for.
 */
export async function objectReply(reader: ObjectReader, target: ObjectTarget, request: ObjectRequest): Promise<ObjectReply> {
  try {
    if (!request.range) return whole(target, await reader.read(target), request.inline);
    // The size first: a range is resolved against it (suffix ranges, ends past the end).
    const facts = await reader.head(target);
    const ranges = parseRanges(facts.size, request.range, { combine: true });
    if (ranges === -1) {
      return { status: 416, headers: { 'Content-Range': `bytes */${facts.size}`, 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify({ error: 'The requested range is not satisfiable', code: 'InvalidRange' }) };
    }
    const served = ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1 && (!request.ifRange || stillTheSame(request.ifRange, facts)) ? ranges[0] : undefined;
    if (!served) return whole(target, await reader.read(target), request.inline);
    const read = await reader.read(target, served);
    // Replaced since the HEAD: the range is told against what is read now.
    const end = Math.min(served.end, read.facts.size - 1);
    return {
      status: 206,
      headers: { ...factHeaders(target, read.facts, request.inline), 'Content-Range': `bytes ${served.start}-${end}/${read.facts.size}`, 'Content-Length': end - served.start + 1 },
      body: read.body,
    };
  } catch (err) {
    return failure(err);
  }
}
