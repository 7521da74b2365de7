// Where the segments of a large object (SLO or DLO) lie, and their MD5s, for a download that checks them.
import { createHash } from 'node:crypto';
import { isCofferError } from '../../../src-shared/errors.js';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import { partsOfSizes, type PartLayout } from '../object-backend.js';
import type { SwiftClient } from './client.js';
import { isStaticLargeObject } from './headers.js';
import { header, readText } from './http.js';
import { listNames } from './listing.js';
import { segmentContainerOf } from './slo-upload.js';

/** A row of `?multipart-manifest=get` (Swift's SLO middleware; Coffer's native API answers the same). */
interface ManifestRow {
  /** The segment: `/container/object`, as stored (not quoted). */
  name?: string;
  hash?: string;
  bytes?: number;
  range?: string;
  sub_slo?: boolean;
}

/** A segment as a layout needs it: where it is, its size and its MD5. */
interface Segment {
  source?: { container: string; name: string };
  bytes: number;
  hash: string;
}

const md5Hex = (s: string) => createHash('md5').update(s).digest('hex');
/** Swift's ETag of a large object: the MD5 of its segments' MD5s written one after another (an SLO's and a DLO's alike). */
const etagOf = (hexes: readonly string[]) => md5Hex(hexes.join(''));

/** A segment's container and object from its manifest name, `/container/object`. */
function segmentOf(path: string | undefined): { container: string; name: string } | undefined {
  const m = typeof path === 'string' ? /^\/([^/]+)\/(.+)$/.exec(path) : null;
  return m ? { container: m[1]!, name: m[2]! } : undefined;
}

/** The layout of these segments if they are the object `head` describes (their sizes its size, their MD5s its ETag). */
function layoutOf(segments: Segment[], head: ObjectDetails): PartLayout | undefined {
  if (segments.length === 0 || !segments.every((s) => /^[0-9a-f]{32}$/.test(s.hash) && Number.isSafeInteger(s.bytes))) return undefined;
  const md5s = segments.map((s) => s.hash);
  if (etagOf(md5s) !== head.etag.toLowerCase() || segments.reduce((t, s) => t + s.bytes, 0) !== head.size) return undefined;
  const parts = partsOfSizes(segments.map((s) => s.bytes)).map((p, i) => {
    const source = segments[i]!.source;
    return { ...p, md5: md5s[i]!, ...(source ? { source } : {}) };
  });
  return { parts, etagOf };
}

/** An SLO's segments from its manifest; none for one with segment ranges or SLOs as segments (their hashes are not the bytes' MD5). */
function manifestSegments(text: string): Segment[] {
  let rows: ManifestRow[];
  try {
    rows = JSON.parse(text) as ManifestRow[];
  } catch {
    return [];
  }
  if (!Array.isArray(rows) || rows.some((r) => r.range || r.sub_slo || typeof r.hash !== 'string' || typeof r.bytes !== 'number')) return [];
  return rows.map((r) => {
    const source = segmentOf(r.name);
    return { bytes: r.bytes!, hash: r.hash!, ...(source ? { source } : {}) };
  });
}

/** Every object under `prefix` in `container`, in listing order; none when the container is not there. */
async function listed(client: SwiftClient, container: string, prefix: string, signal?: AbortSignal): Promise<Segment[]> {
  try {
    const names = await listNames(client, container, prefix, signal);
    return [...names].map(([name, { bytes, hash }]) => ({ source: { container, name }, bytes, hash }));
  } catch (err) {
    if (isCofferError(err, 'NoSuchContainer')) return [];
    throw err;
  }
}

/**
 * A DLO's segments: the objects its X-Object-Manifest (`<container>/<prefix>`, URL-encoded)
 * names, in listing order, as Swift joins them.
 */
async function dloLayout(client: SwiftClient, manifest: string, head: ObjectDetails, signal?: AbortSignal): Promise<PartLayout | undefined> {
  let value: string;
  try {
    value = decodeURIComponent(manifest);
  } catch {
    return undefined;
  }
  const slash = value.indexOf('/');
  if (slash < 1) return undefined;
  return layoutOf(await listed(client, value.slice(0, slash), value.slice(slash + 1), signal), head);
}

/**
 * An SLO whose manifest the server does not give out (Ceph RGW answers `?multipart-manifest=get`
 * with an empty body): its segments where python-swiftclient and Coffer put them,
 * `<container>_segments/<object>/.../<index>`, one upload's under one folder. The folder whose
 * segments make the object's size and ETag is the one; none may (another client's names).
 */
async function conventionalSegmentsLayout(client: SwiftClient, container: string, name: string, head: ObjectDetails, signal?: AbortSignal): Promise<PartLayout | undefined> {
  const uploads = new Map<string, Segment[]>();
  for (const s of await listed(client, segmentContainerOf(container), `${name}/`, signal)) {
    const folder = s.source!.name.slice(0, s.source!.name.lastIndexOf('/'));
    const segments = uploads.get(folder);
    if (segments) segments.push(s);
    else uploads.set(folder, [s]);
  }
  for (const segments of uploads.values()) {
    const layout = layoutOf(segments, head);
    if (layout) return layout;
  }
  return undefined;
}

/**
 * A large object's segments, each segment's size and MD5, whose MD5s make its ETag: an SLO's
 * from its manifest (or, where the server keeps that to itself, from where the common clients put
 * segments), a DLO's from the listing its manifest names. Undefined for an SLO with segment
 * ranges or SLOs as segments, and for segments that are not the object `head` describes (replaced in between).
 */
export async function largeObjectLayout(client: SwiftClient, container: string, name: string, head: ObjectDetails, signal?: AbortSignal): Promise<PartLayout | undefined> {
  if (!head.compositeEtag) return undefined;
  const reply = await client.request({ method: 'GET', container, object: name, query: { 'multipart-manifest': 'get', format: 'json' }, headers: { Accept: 'application/json' }, ...(signal ? { signal } : {}) });
  const text = await readText(reply.body, 64 * 1024 * 1024);
  const dlo = header(reply.headers, 'x-object-manifest');
  if (dlo !== undefined) return dloLayout(client, dlo, head, signal);
  if (isStaticLargeObject(reply.headers)) return layoutOf(manifestSegments(text), head);
  return conventionalSegmentsLayout(client, container, name, head, signal);
}
