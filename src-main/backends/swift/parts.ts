// Where the segments of a Static Large Object lie, and their MD5s, for a download that checks them.
import { createHash } from 'node:crypto';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import { partsOfSizes, type PartLayout } from '../object-backend.js';
import type { SwiftClient } from './client.js';
import { isStaticLargeObject } from './headers.js';
import { readText } from './http.js';

/** A row of `?multipart-manifest=get` (Swift's SLO middleware; Coffer's native API answers the same). */
interface ManifestRow {
  /** The segment: `/container/object`, as stored (not quoted). */
  name?: string;
  hash?: string;
  bytes?: number;
  range?: string;
  sub_slo?: boolean;
}

const md5Hex = (s: string) => createHash('md5').update(s).digest('hex');

/** A segment's container and object from its manifest name, `/container/object`. */
function segmentOf(path: string | undefined): { container: string; name: string } | undefined {
  const m = typeof path === 'string' ? /^\/([^/]+)\/(.+)$/.exec(path) : null;
  return m ? { container: m[1]!, name: m[2]! } : undefined;
}

/**
 * An SLO's segments from its manifest: each segment's size and MD5, and the SLO's ETag, which
 * Swift makes as the MD5 of the segments' MD5s written one after another. Undefined for a DLO (no
 * manifest of hashes), an SLO with segment ranges or SLOs as segments (their hashes are not the
 * bytes' MD5), and a manifest that is not the object `head` describes (its hashes do not make
 * its ETag: replaced in between).
 */
export async function sloLayout(client: SwiftClient, container: string, name: string, head: ObjectDetails, signal?: AbortSignal): Promise<PartLayout | undefined> {
  if (!head.compositeEtag) return undefined;
  const reply = await client.request({ method: 'GET', container, object: name, query: { 'multipart-manifest': 'get', format: 'json' }, headers: { Accept: 'application/json' }, ...(signal ? { signal } : {}) });
  const text = await readText(reply.body, 64 * 1024 * 1024);
  if (!isStaticLargeObject(reply.headers)) return undefined;
  let rows: ManifestRow[];
  try {
    rows = JSON.parse(text) as ManifestRow[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(rows) || rows.length === 0) return undefined;
  const usable = rows.every((r) => typeof r.hash === 'string' && /^[0-9a-f]{32}$/.test(r.hash) && Number.isSafeInteger(r.bytes) && !r.range && !r.sub_slo);
  if (!usable) return undefined;
  const md5s = rows.map((r) => r.hash!);
  const etagOf = (hexes: readonly string[]) => md5Hex(hexes.join(''));
  if (etagOf(md5s) !== head.etag.toLowerCase() || rows.reduce((t, r) => t + r.bytes!, 0) !== head.size) return undefined;
  const parts = partsOfSizes(rows.map((r) => r.bytes!)).map((p, i) => {
    const source = segmentOf(rows[i]!.name);
    return { ...p, md5: md5s[i]!, ...(source ? { source } : {}) };
  });
  return { parts, etagOf };
}
