import type { ContainerInfo } from '../../engine/types.js';
import type { ListEntry } from '../../engine/ops/list-objects.js';
import { isoMillis } from '../common/dates.js';
import type { Exchange } from '../common/exchange.js';
import { el, xmlDocument } from '../common/xml.js';

export type ListingFormat = 'json' | 'xml' | 'plain';

/**
 * `format=` wins over `Accept` (§2.3); the default is plain text. As Swift (listing_formats),
 * `format` is read in any case and a value it does not know means plain text, not an error.
 */
export function listingFormat(x: Exchange): ListingFormat {
  const f = x.param('format')?.toLowerCase();
  if (f) return f === 'json' || f === 'xml' ? f : 'plain';
  const accept = (x.header('accept') ?? '').split(',').map((s) => s.split(';')[0]!.trim());
  if (accept.includes('application/json')) return 'json';
  if (accept.includes('application/xml') || accept.includes('text/xml')) return 'xml';
  return 'plain';
}

export const CONTENT_TYPES: Record<ListingFormat, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  plain: 'text/plain; charset=utf-8',
};


export function renderContainers(format: ListingFormat, account: string, containers: ContainerInfo[]): string {
  const rows = containers.map((c) => ({ name: c.name, count: c.usage.objects, bytes: c.usage.bytes, last_modified: isoMillis(c.lastModified) }));
  if (format === 'json') return JSON.stringify(rows);
  if (format === 'plain') return rows.map((r) => `${r.name}\n`).join('');
  const items = rows.map((r) => el('container', [el('name', r.name), el('count', r.count), el('bytes', r.bytes), el('last_modified', r.last_modified)]));
  return xmlDocument(el('account', items, { name: account }));
}

export function renderObjects(format: ListingFormat, container: string, entries: ListEntry[]): string {
  if (format === 'plain') return entries.map((e) => `${e.kind === 'object' ? e.name : e.prefix}\n`).join('');
  type Row = { subdir: string } | { name: string; hash: string; bytes: number; content_type: string; last_modified: string };
  const rows = entries.map((e): Row =>
    e.kind === 'prefix'
      ? { subdir: e.prefix }
      : {
          name: e.name,
          hash: e.object.etag,
          bytes: e.object.size,
          content_type: e.object.contentType || 'application/octet-stream',
          last_modified: isoMillis(e.object.lastModified),
        },
  );
  if (format === 'json') return JSON.stringify(rows);
  const items = rows.map((r) =>
    'subdir' in r
      ? el('subdir', [el('name', r.subdir)], { name: r.subdir })
      : el('object', [el('name', r.name), el('hash', r.hash), el('bytes', r.bytes), el('content_type', r.content_type), el('last_modified', r.last_modified)]),
  );
  return xmlDocument(el('container', items, { name: container }));
}
