import { CofferError } from '../../../src-shared/errors.js';
import type { ContainerSummary, FolderEntry, FolderPage } from '../../../src-shared/model/storage.js';
import type { ListFolderOptions } from '../object-backend.js';
import type { SwiftClient } from './client.js';
import { bareEtag, headerToText } from './headers.js';
import { header } from './http.js';

/**
 * Entries per request. RGW silently clamps container listings to 1000 (§5.2), and may answer
 * fewer than asked while more follow (991 of 1000 seen): as the seed says (4.1.1), a listing ends
 * only at an empty answer, never at a short one.
 */
const REQUEST_LIMIT = 1000;

interface ObjectRow {
  name?: string;
  subdir?: string;
  hash?: string;
  bytes?: number;
  content_type?: string;
  last_modified?: string;
  /** Swift lists an SLO with the manifest's MD5 as `hash` and the ETag HEAD shows here. */
  slo_etag?: string;
}

interface ContainerRow {
  name: string;
  count?: number;
  bytes?: number;
  last_modified?: string;
}

/** Listing dates: Swift `…T…​.ffffff` (no zone, UTC), RGW `…​.mmmZ`, or no fraction (§2.1, §31.1). */
export function listingDate(value: string | undefined): string | null {
  if (!value) return null;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(value.trim());
  if (!m) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : new Date(ms).toISOString();
  }
  const ms = Date.parse(`${m[1]}T${m[2]}.${(m[3] ?? '0').slice(0, 3).padEnd(3, '0')}${m[4] ?? 'Z'}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function entryOf(row: ObjectRow): FolderEntry | undefined {
  if (row.subdir !== undefined) return { kind: 'folder', prefix: row.subdir };
  if (row.name === undefined) return undefined;
  return {
    kind: 'object',
    name: row.name,
    size: row.bytes ?? 0,
    etag: bareEtag(row.slo_etag ?? row.hash),
    lastModified: listingDate(row.last_modified) ?? new Date(0).toISOString(),
    contentType: row.content_type ?? null,
  };
}

/**
 * A folder page by page (prefix + delimiter, marker paging). A page may take several requests:
 * one request never asks for more than 1000 entries, and a short answer only means the server
 * sent fewer (RGW does, mid-listing), so the page goes on filling from its marker. The listing
 * ends at an empty answer: the page it ends says so (no next marker), at the cost of one more
 * request at the end of every listing. An empty page is yielded only as the very first.
 */
export async function* listFolder(client: SwiftClient, container: string, opts: ListFolderOptions = {}): AsyncIterable<FolderPage> {
  const pageSize = Math.min(Math.max(opts.pageSize ?? 1000, 1), 10_000);
  const delimiter = opts.delimiter ?? '/';
  const prefix = opts.prefix ?? '';
  let marker = opts.marker;
  for (let first = true; ; first = false) {
    // Checked here too: the caller may cancel between pages, after the last request finished.
    if (opts.signal?.aborted) throw new CofferError('Aborted', 'The listing was cancelled');
    const entries: FolderEntry[] = [];
    let exhausted = false;
    let got = 0;
    while (got < pageSize) {
      const limit = Math.min(pageSize - got, REQUEST_LIMIT);
      const { data } = await client.json<ObjectRow[]>({
        method: 'GET',
        container,
        query: { format: 'json', limit, prefix: prefix || undefined, delimiter: delimiter || undefined, marker },
        ...(opts.signal ? { signal: opts.signal } : {}),
        what: `Listing of ${container}`,
      });
      const rows = data ?? [];
      got += rows.length;
      for (const row of rows) {
        marker = row.name ?? row.subdir ?? marker;
        const entry = entryOf(row);
        // The folder's own marker object (`prefix/`, from createFolder) is not one of its children.
        if (entry && !(entry.kind === 'object' && prefix !== '' && entry.name === prefix)) entries.push(entry);
      }
      if (rows.length === 0) {
        exhausted = true;
        break;
      }
    }
    if (got === 0 && !first) return;
    await resolveManifestRows(client, container, entries, opts.signal);
    yield { entries, nextMarker: exhausted ? null : (marker ?? null) };
    if (exhausted) return;
  }
}

/** The MD5 of nothing: no object with bytes can have it as its ETag. */
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';

/**
 * Ceph RGW lists an SLO as its manifest (its size, the MD5 of nothing) where Swift lists the
 * whole object; a HEAD tells its real size and ETag. Only such rows are asked about, a few at a
 * time; a row whose HEAD fails stays as listed.
 */
async function resolveManifestRows(client: SwiftClient, container: string, entries: FolderEntry[], signal?: AbortSignal): Promise<void> {
  const rows = entries.filter((e): e is Extract<FolderEntry, { kind: 'object' }> => e.kind === 'object' && e.size > 0 && e.etag === EMPTY_MD5);
  await eachLimited(rows, HEAD_CONCURRENCY, async (row) => {
    try {
      const { headers } = await client.call({ method: 'HEAD', container, object: row.name, ...(signal ? { signal } : {}) });
      const size = Number(header(headers, 'content-length'));
      if (Number.isSafeInteger(size)) row.size = size;
      row.etag = bareEtag(header(headers, 'etag'));
    } catch (err) {
      if (signal?.aborted) throw err;
    }
  });
}

/** Every container of the account, with counts and bytes (account GET, paged). */
export async function listContainers(client: SwiftClient): Promise<ContainerSummary[]> {
  const out: ContainerSummary[] = [];
  let marker: string | undefined;
  for (;;) {
    const { data } = await client.json<ContainerRow[]>({
      method: 'GET',
      query: { format: 'json', limit: REQUEST_LIMIT, marker },
      what: 'Container listing',
    });
    const rows = data ?? [];
    for (const r of rows) {
      // Swift's account listing dates a container by its creation PUT; RGW gives none.
      out.push({ name: r.name, objects: r.count ?? null, bytes: r.bytes ?? null, created: listingDate(r.last_modified), public: null, quota: null });
    }
    if (rows.length === 0) break;
    marker = rows[rows.length - 1]!.name;
  }
  // Access and quotas are only in each container's HEAD: worth it for a screenful of containers,
  // not for an account of thousands (there they stay unknown rather than slow the list down).
  if (out.length <= HEAD_LIMIT) await eachLimited(out, HEAD_CONCURRENCY, (c) => addContainerHead(client, c));
  return out;
}

/** Containers HEADed for access and quota when listing; above this many, neither is asked. */
const HEAD_LIMIT = 100;
const HEAD_CONCURRENCY = 8;

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A whole-number header (a limit, a usage figure); absent or unparsable is null. */
function limitOf(v: string | undefined): number | null {
  if (v === undefined || !/^\d+$/.test(v.trim())) return null;
  return Number(v.trim());
}

/** Public read (`.r:*` in the read ACL) and the quota middleware's limits; left unknown on failure. */
async function addContainerHead(client: SwiftClient, c: ContainerSummary): Promise<void> {
  let headers;
  try {
    ({ headers } = await client.call({ method: 'HEAD', container: c.name, idempotent: true, what: `Container ${c.name}` }));
  } catch {
    return;
  }
  // The container's own counts are current; the account listing's lag behind them on Swift
  // (its container updater brings them over, every 5 minutes by default).
  c.objects = limitOf(header(headers, 'x-container-object-count')) ?? c.objects;
  c.bytes = limitOf(header(headers, 'x-container-bytes-used')) ?? c.bytes;
  const read = headerToText(header(headers, 'x-container-read') ?? '');
  c.public = read.split(',').some((item) => /^\.r(ef|eferr?er)?:\*$/.test(item.replace(/\s+/g, '')));
  const maxBytes = limitOf(header(headers, 'x-container-meta-quota-bytes'));
  const maxObjects = limitOf(header(headers, 'x-container-meta-quota-count'));
  c.quota = maxBytes === null && maxObjects === null ? null : { maxBytes, maxObjects };
  // Ceph RGW's rounded figure, the one its quota counts; Swift sends none and counts plain bytes.
  const actual = limitOf(header(headers, 'x-container-bytes-used-actual'));
  if (actual !== null) c.quotaBytes = actual;
}

/** Every object name under a prefix, flat (segments of an upload). */
export async function listNames(client: SwiftClient, container: string, prefix: string, signal?: AbortSignal): Promise<Map<string, { bytes: number; hash: string }>> {
  const out = new Map<string, { bytes: number; hash: string }>();
  for await (const page of listFolder(client, container, { prefix, delimiter: '', ...(signal ? { signal } : {}) })) {
    for (const e of page.entries) if (e.kind === 'object') out.set(e.name, { bytes: e.size, hash: e.etag });
  }
  return out;
}
