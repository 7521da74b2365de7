import { createHash } from 'node:crypto';
import type { SloSegment } from '../types.js';

/** Swift's manifest timestamps: microseconds, no zone. */
function manifestTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

/** Python's json.dumps with its defaults (", " and ": " between items, non-ASCII escaped), as Swift writes its documents. */
function pythonJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pythonJson).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${pythonJson(k)}: ${pythonJson(x)}`).join(', ')}}`;
  return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * One segment of the stored manifest, its keys in the order Swift's slo middleware writes them;
 * `raw` gives the PUT form with its keys sorted, as Swift's `format=raw` sorts them.
 */
function manifestRow(s: SloSegment, raw: boolean): Record<string, unknown> {
  const path = `/${s.container}/${s.name}`;
  const range = s.range !== undefined ? { range: s.range } : {};
  if (raw) return { etag: s.etag, path, ...range, size_bytes: s.size };
  return {
    name: path,
    bytes: s.size,
    hash: s.etag,
    content_type: s.contentType,
    last_modified: manifestTime(s.lastModified),
    ...range,
    ...(s.subSlo ? { sub_slo: true } : {}),
  };
}

/**
 * An SLO's manifest document as Swift stores it (what `?multipart-manifest=get` returns, and what
 * its container counts in bytes used), or with `raw` the PUT form, ready to be PUT again.
 */
export function manifestDocument(segments: SloSegment[], raw = false): string {
  return pythonJson(segments.map((s) => manifestRow(s, raw)));
}

/** The MD5 of the stored manifest document: Swift's X-Manifest-Etag, and the `hash` its listings show for an SLO. */
export function manifestEtag(segments: SloSegment[]): string {
  return createHash('md5').update(manifestDocument(segments)).digest('hex');
}

/** How much of its segment a manifest entry reads: the whole segment, or its `range` (`first-last`, inclusive). */
export function segmentSpan(s: Pick<SloSegment, 'size' | 'range'>): { offset: number; length: number } {
  if (s.range === undefined) return { offset: 0, length: s.size };
  const [first, last] = s.range.split('-').map(Number) as [number, number];
  return { offset: first, length: last - first + 1 };
}

/** Swift's SLO ETag: the MD5 of each segment's ETag, a ranged one as `etag:first-last;`. */
export function sloEtag(segments: Pick<SloSegment, 'etag' | 'range'>[]): string {
  const h = createHash('md5');
  for (const s of segments) h.update(s.range !== undefined ? `${s.etag}:${s.range};` : s.etag);
  return h.digest('hex');
}
