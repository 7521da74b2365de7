import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { CofferError } from '../../../src-shared/errors.js';
import type { SwiftClient } from './client.js';
import { bareEtag } from './headers.js';
import { header } from './http.js';
import { listNames } from './listing.js';
import { metered, type Progress } from './progress.js';
import { md5OfRange } from '../transfer.js';
import { inPool, StreamSlicer } from './segments.js';

export interface SloUpload {
  container: string;
  name: string;
  source: { path: string } | { stream: Readable };
  size: number;
  segmentSize: number;
  concurrency: number;
  /**
   * Names this upload's segments (python-swiftclient's `<timestamp>` slot). Uploading the same
   * file under the same key again finds the segments already there and skips them.
   */
  uploadKey: string;
  /** Content type, metadata and standard headers of the object (they go on the manifest). */
  headers: Record<string, string>;
  progress: Progress;
  signal?: AbortSignal;
}

export interface Segment {
  index: number;
  start: number;
  length: number;
  name: string;
  etag?: string;
}

/** `<container>_segments`, python-swiftclient's convention (§31.1), so other tools find them too. */
export const segmentContainerOf = (container: string) => `${container}_segments`;

/** `<object>/slo/<key>/<size>/<segment size>/<index, 8 digits>`: sorts in order; size in the name keeps a changed file apart. */
export function planSegments(name: string, uploadKey: string, size: number, segmentSize: number): Segment[] {
  const prefix = `${name}/slo/${uploadKey}/${size}/${segmentSize}/`;
  const out: Segment[] = [];
  for (let start = 0, index = 0; start < size; start += segmentSize, index++) {
    out.push({ index, start, length: Math.min(segmentSize, size - start), name: `${prefix}${String(index).padStart(8, '0')}` });
  }
  return out;
}

/** PUTs one segment from a fresh body each attempt; the ETag the server computed must match ours. */
async function putSegment(client: SwiftClient, u: SloUpload, seg: Segment, open: () => Readable, replayable: boolean, signal: AbortSignal): Promise<void> {
  let hash = createHash('md5');
  let sent = 0;
  const body = () => {
    // A new attempt: the bytes of the failed one are counted again as they go.
    u.progress.undo(sent);
    sent = 0;
    hash = createHash('md5');
    return metered(open(), (c) => {
      hash.update(c);
      sent += c.length;
      u.progress.add(c.length);
    });
  };
  const reply = await client.call({
    method: 'PUT',
    container: segmentContainerOf(u.container),
    object: seg.name,
    headers: { 'Content-Length': seg.length, 'Content-Type': 'application/octet-stream' },
    body: replayable ? body : body(),
    idempotent: true,
    signal,
    what: `Segment ${seg.index} of ${u.container}/${u.name}`,
  });
  const md5 = hash.digest('hex');
  const etag = bareEtag(header(reply.headers, 'etag'));
  if (etag && etag !== md5) throw new CofferError('BadDigest', `Segment ${seg.index} of ${u.name} arrived damaged (ETag ${etag}, sent ${md5})`);
  seg.etag = md5;
}

/** Segments already on the server for this upload key, to skip (path sources only: their bytes can be re-read to compare). */
async function existingSegments(client: SwiftClient, u: SloUpload, segs: Segment[], created: boolean): Promise<Map<string, { bytes: number; hash: string }>> {
  if (created || !('path' in u.source) || segs.length === 0) return new Map();
  const prefix = segs[0]!.name.slice(0, segs[0]!.name.lastIndexOf('/') + 1);
  return listNames(client, segmentContainerOf(u.container), prefix, u.signal);
}

/**
 * Uploads a large object as an SLO (§10.1): segments into `<container>_segments` (a file's
 * segments in parallel, each retried on its own; a stream's one after another, as a stream
 * cannot be read ahead without buffering), then the manifest. Segments already uploaded under
 * the same key with the same size and MD5 are not sent again.
 * Returns the manifest's segments (path and MD5), for the caller to keep or clean up and to check
 * the manifest's ETag against.
 */
export async function uploadSlo(client: SwiftClient, u: SloUpload): Promise<{ path: string; etag: string }[]> {
  const segContainer = segmentContainerOf(u.container);
  const made = await client.call({ method: 'PUT', container: segContainer, idempotent: true, ...(u.signal ? { signal: u.signal } : {}), what: `Creating ${segContainer}` });
  const segs = planSegments(u.name, u.uploadKey, u.size, u.segmentSize);
  const existing = await existingSegments(client, u, segs, made.status === 201);
  if ('path' in u.source) {
    const path = u.source.path;
    await inPool(segs, u.concurrency, u.signal, async (seg, signal) => {
      const end = seg.start + seg.length - 1;
      const have = existing.get(seg.name);
      if (have && have.bytes === seg.length && (await md5OfRange(path, seg.start, end, signal)) === have.hash) {
        seg.etag = have.hash;
        u.progress.add(seg.length);
        return;
      }
      await putSegment(client, u, seg, () => createReadStream(path, { start: seg.start, end }), true, signal);
    });
  } else {
    const slicer = new StreamSlicer(u.source.stream);
    try {
      for (const seg of segs) {
        if (u.signal?.aborted) throw new CofferError('Aborted', 'The transfer was cancelled');
        await putSegment(client, u, seg, () => slicer.take(seg.length), false, u.signal ?? new AbortController().signal);
      }
      if (!(await slicer.atEnd())) throw new CofferError('InvalidArgument', `The source of ${u.name} is longer than its stated size ${u.size}`);
    } finally {
      slicer.close();
    }
  }
  const manifest = segs.map((s) => ({ path: `/${segContainer}/${s.name}`, etag: s.etag, size_bytes: s.length }));
  await client.call({
    method: 'PUT',
    container: u.container,
    object: u.name,
    query: { 'multipart-manifest': 'put' },
    headers: { ...u.headers, 'Content-Type': u.headers['Content-Type'] ?? 'application/octet-stream' },
    body: JSON.stringify(manifest),
    idempotent: true,
    ...(u.signal ? { signal: u.signal } : {}),
    what: `Manifest of ${u.container}/${u.name}`,
  });
  return manifest.map((m) => ({ path: m.path, etag: m.etag! }));
}

/** Deletes the segments an unfinished upload under `uploadKey` left in `<container>_segments`. */
export async function discardSloSegments(client: SwiftClient, container: string, name: string, uploadKey: string, remove: (paths: string[]) => Promise<void>): Promise<void> {
  const segContainer = segmentContainerOf(container);
  const found = await listNames(client, segContainer, `${name}/slo/${uploadKey}/`).catch(() => new Map<string, unknown>());
  if (found.size) await remove([...found.keys()].map((n) => `/${segContainer}/${n}`));
}
