import type { AccountEntry, ListEntry, SymlinkTarget } from '../../engine/index.js';
import { isoMillis } from '../common/dates.js';
import { encodePath } from '../common/url.js';
import { el, xmlDocument, type XmlNode } from '../common/xml.js';

export type ListingFormat = 'json' | 'xml' | 'plain';

export const CONTENT_TYPES: Record<ListingFormat, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  plain: 'text/plain; charset=utf-8',
};

/** The types a listing answers in, in Swift's order of preference (listing_formats); text/xml is XML said as asked. */
export const LISTING_MEDIA = ['text/plain', 'application/json', 'application/xml', 'text/xml'] as const;
export type ListingMedia = (typeof LISTING_MEDIA)[number];

/** What a listing request negotiated: the body's format and the Content-Type it is sent as. */
export interface ListingType {
  format: ListingFormat;
  contentType: string;
  /** Chosen by the Accept header (no `format=`): the answer says `Vary: Accept`, as Swift's does, for caches. */
  byAccept: boolean;
}

const FORMAT_OF: Record<ListingMedia, ListingFormat> = { 'text/plain': 'plain', 'application/json': 'json', 'application/xml': 'xml', 'text/xml': 'xml' };

export const listingType = (media: ListingMedia, byAccept = false): ListingType => ({ format: FORMAT_OF[media], contentType: `${media}; charset=utf-8`, byAccept });

/**
 * The headers of an account's or a container's GET or HEAD: the listing's type, and
 * Accept-Ranges: bytes, which Swift's proxy sends on every account and container read.
 */
export const listingHeaders = (t: ListingType): Record<string, string> => ({
  'Content-Type': t.contentType,
  'Accept-Ranges': 'bytes',
  ...(t.byAccept ? { Vary: 'Accept' } : {}),
});

/** The types of Swift's bulk middleware reports (bulk delete and upload, SLO deletes): the Accept type it matched, no charset. */
export const REPORT_CONTENT_TYPES: Record<ListingFormat, string> = { plain: 'text/plain', json: 'application/json', xml: 'application/xml' };

/** A parameter of a media type as Swift's parse_content_type reads it: an RFC token, `=`, a token or a quoted string. */
const TOKEN = '[^()<>@,;:"/\\[\\]?={}\\x00-\\x20\\x7f]+';
const PARAMETER = new RegExp(`\\s*;\\s*(${TOKEN})\\s*(?:=\\s*(${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))?`, 'g');

/**
 * The content type a container listing shows: Swift's container server rebuilds it from its parsed
 * parameters (extract_swift_bytes), `type;name=value` without spaces, dropping what does not parse.
 */
export function listedContentType(stored: string): string {
  const semi = stored.indexOf(';');
  if (semi < 0) return stored;
  let out = stored.slice(0, semi);
  for (const m of stored.slice(semi).matchAll(PARAMETER)) out += `;${m[1]}=${m[2] ?? ''}`;
  return out;
}

/**
 * An account listing (N1): containers, and with a delimiter the subdir entries Swift rolls them up
 * into. The XML root names the account as the storage URL does (`AUTH_tenant$name`, Swift's
 * listing_formats takes it from the path); Swift's account subdir is the bare `<subdir name>` (no
 * `<name>` child, unlike a container's) and each entry sits on its own line.
 */
export function renderContainers(format: ListingFormat, account: string, entries: AccountEntry[]): string {
  type Row = { subdir: string } | { name: string; count: number; bytes: number; last_modified: string };
  const rows = entries.map((e): Row =>
    e.kind === 'prefix'
      ? { subdir: e.prefix }
      : { name: e.container.name, count: e.container.usage.current ?? e.container.usage.objects, bytes: e.container.usage.bytes, last_modified: isoMillis(e.container.lastModified) },
  );
  if (format === 'json') return JSON.stringify(rows);
  if (format === 'plain') return rows.map((r) => `${'subdir' in r ? r.subdir : r.name}\n`).join('');
  const items: XmlNode[] = [NEWLINE];
  for (const r of rows) {
    items.push(
      'subdir' in r
        ? el('subdir', [], { name: r.subdir })
        : el('container', [el('name', r.name), el('count', r.count), el('bytes', r.bytes), el('last_modified', r.last_modified)]),
      NEWLINE,
    );
  }
  return xmlDocument(el('account', items, { name: `AUTH_${account}` }));
}

const NEWLINE: XmlNode = { '#text': '\n' };

/**
 * A container listing (N4). In JSON a symlink also shows its target (Swift's symlink middleware):
 * `symlink_path` under the link's account (the path's, `AUTH_…`) unless it names another, and a
 * static link's `symlink_etag` and `symlink_bytes`. An SLO lists as Swift's slo records it: its
 * manifest document's MD5 as `hash`, and (JSON only) the large object's quoted ETag as `slo_etag`.
 */
export function renderObjects(format: ListingFormat, container: string, entries: ListEntry[], account = ''): string {
  if (format === 'plain') return entries.map((e) => `${e.kind === 'object' ? e.name : e.prefix}\n`).join('');
  type Row = { subdir: string } | { name: string; hash: string; bytes: number; content_type: string; last_modified: string };
  const rows = entries.map((e): Row =>
    e.kind === 'prefix'
      ? { subdir: e.prefix }
      : {
          name: e.name,
          hash: e.object.manifestEtag ?? e.object.etag,
          bytes: e.object.size,
          content_type: e.object.contentType ? listedContentType(e.object.contentType) : 'application/octet-stream',
          last_modified: isoMillis(e.object.lastModified),
        },
  );
  if (format === 'json') {
    entries.forEach((e, i) => {
      if (e.kind !== 'object') return;
      if (e.object.manifestEtag !== undefined) Object.assign(rows[i]!, { slo_etag: `"${e.object.etag}"` });
      if (e.object.link) Object.assign(rows[i]!, symlinkFields(e.object.link, account));
    });
    return JSON.stringify(rows);
  }
  const items = rows.map((r) =>
    'subdir' in r
      ? el('subdir', [el('name', r.subdir)], { name: r.subdir })
      : el('object', [el('name', r.name), el('hash', r.hash), el('bytes', r.bytes), el('content_type', r.content_type), el('last_modified', r.last_modified)]),
  );
  return xmlDocument(el('container', items, { name: container }));
}

/** What Swift's listings add for a symlink: its target's path, and a static link's ETag and size. */
export function symlinkFields(link: SymlinkTarget, account: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (link.etag !== undefined) out.symlink_etag = link.etag;
  if (link.bytes !== undefined) out.symlink_bytes = link.bytes;
  out.symlink_path = `/v1/${encodePath(link.account ?? `AUTH_${account}`)}/${encodePath(link.container)}/${encodePath(link.object)}`;
  return out;
}
