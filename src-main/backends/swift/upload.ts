import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { typeFromName } from '../../engine/index.js';
import { CofferError } from '../../../src-shared/errors.js';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import type { UploadOptions, UploadResult, UploadSource } from '../object-backend.js';
import type { SwiftClient } from './client.js';
import { bareEtag, isoDate, isStaticLargeObject, objectWriteHeaders } from './headers.js';
import { drain, header, readText, type RawReply } from './http.js';
import { md5HexOf } from '../transfer.js';
import type { SwiftInfo } from './info.js';
import { metered, Progress } from './progress.js';
import { deleteSegments } from './delete.js';
import { discardSloSegments, uploadSlo } from './slo-upload.js';

export interface SwiftUploadOptions extends UploadOptions {
  /**
   * Names the segments of a large upload. Uploading the same file again with the same key skips
   * the segments already on the server (same size and MD5): that is how an interrupted upload
   * resumes. Default for a file: its modification time (as python-swiftclient does, so a
   * re-upload of an unchanged file resumes by itself); for a stream: the current time.
   */
  uploadKey?: string;
}

export interface UploadTuning {
  segmentThreshold: number;
  segmentSize: number;
  concurrency: number;
  progressIntervalMs: number;
}

/** The segment paths of the object being replaced, if it is an SLO (to clean up after the new one is in). */
async function previousSegments(client: SwiftClient, container: string, name: string, signal?: AbortSignal): Promise<string[]> {
  const head = await client.request({ method: 'HEAD', container, object: name, ok: (s) => s < 300 || s === 404, ...(signal ? { signal } : {}) });
  await drain(head.body);
  if (head.status === 404 || !isStaticLargeObject(head.headers)) return [];
  const reply = await client.request({ method: 'GET', container, object: name, query: { 'multipart-manifest': 'get', format: 'json' }, ...(signal ? { signal } : {}) });
  try {
    const rows = JSON.parse(await readText(reply.body, 16 * 1024 * 1024)) as { name?: string; path?: string }[];
    return rows.map((r) => r.name ?? r.path ?? '').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * One PUT. A file can be sent again (retries, re-auth), and bytes in memory; a stream only once.
 * The server's ETag must be our MD5. Bytes in memory go as they are, with their MD5 (the
 * caller's, or hashed here) for the server to check: a stream's pipeline made and aborted an
 * AbortController per file, a DOMException each (about 50 µs a small file).
 */
async function putSingle(client: SwiftClient, container: string, name: string, source: UploadSource, size: number | undefined, headers: Record<string, string>, progress: Progress, signal?: AbortSignal, knownMd5?: string) {
  const bytes = 'bytes' in source ? source.bytes : undefined;
  if (bytes) return putBytes(client, container, name, bytes, headers, progress, signal, knownMd5);
  let hash = createHash('md5');
  let sent = 0;
  const open = () => {
    progress.undo(sent);
    sent = 0;
    hash = createHash('md5');
    const raw = 'path' in source ? createReadStream(source.path) : source.stream;
    return metered(
      raw,
      (c) => {
        hash.update(c);
        sent += c.length;
        progress.add(c.length);
      },
      size,
    );
  };
  const reply = await client.call({
    method: 'PUT',
    container,
    object: name,
    headers: { ...headers, ...(size !== undefined ? { 'Content-Length': size } : { 'Transfer-Encoding': 'chunked' }) },
    body: 'path' in source ? open : open(),
    idempotent: true,
    ...(signal ? { signal } : {}),
    what: `Upload of ${container}/${name}`,
  });
  return stored(reply, `${container}/${name}`, hash.digest('hex'), sent);
}

/** What a PUT stored: the server's ETag must be the MD5 of what was sent. */
function stored(reply: RawReply, what: string, md5: string, size: number) {
  const etag = bareEtag(header(reply.headers, 'etag'));
  if (etag && etag !== md5) throw new CofferError('BadDigest', `${what} arrived damaged (ETag ${etag}, sent ${md5})`);
  return { etag: etag || md5, lastModified: isoDate(header(reply.headers, 'last-modified')), size };
}

async function putBytes(client: SwiftClient, container: string, name: string, bytes: Buffer, headers: Record<string, string>, progress: Progress, signal: AbortSignal | undefined, knownMd5: string | undefined) {
  const md5 = md5HexOf(bytes, knownMd5);
  const reply = await client.call({
    method: 'PUT',
    container,
    object: name,
    // The server checks them too (422 when they differ): damaged bytes are never stored.
    headers: { ...headers, 'Content-Length': bytes.length, ETag: md5 },
    body: bytes,
    idempotent: true,
    ...(signal ? { signal } : {}),
    what: `Upload of ${container}/${name}`,
  });
  progress.add(bytes.length);
  return stored(reply, `${container}/${name}`, md5, bytes.length);
}

/**
 * Uploads a file or stream: one PUT up to the threshold, an SLO above it (when the server has
 * SLO). Replacing an SLO removes its old segments once the new object is in, unless the new
 * manifest reuses them (a resumed upload).
 */
export async function uploadObject(
  client: SwiftClient,
  info: SwiftInfo | undefined,
  tuning: UploadTuning,
  container: string,
  name: string,
  source: UploadSource,
  opts: SwiftUploadOptions = {},
  head: () => Promise<ObjectDetails>,
): Promise<UploadResult> {
  const signal = opts.signal;
  if (signal?.aborted) throw new CofferError('Aborted', 'The transfer was cancelled');
  const file = 'path' in source ? await stat(source.path) : undefined;
  const size = file ? file.size : 'stream' in source ? source.size : undefined;
  const contentType = opts.contentType || typeFromName(name) || 'application/octet-stream';
  const headers = objectWriteHeaders(contentType, opts.meta, opts.headers);
  const progress = new Progress(opts.onProgress, tuning.progressIntervalMs);
  // Also proves the token before a one-shot stream is spent on a request that could get a 401;
  // a file or bytes in memory can be sent again, so a name known to be new needs no look.
  const replayable = 'path' in source || source.bytes !== undefined;
  const old = opts.absent && replayable ? [] : await previousSegments(client, container, name, signal);
  let result: UploadResult;
  let kept = new Set<string>();
  if (size !== undefined && size > tuning.segmentThreshold && (info === undefined || info.slo !== undefined)) {
    // The container must exist before `<container>_segments` is made for it.
    await client.call({ method: 'HEAD', container, ...(signal ? { signal } : {}) });
    const maxSegments = info?.slo?.max_manifest_segments ?? 1000;
    const segmentSize = Math.max(tuning.segmentSize, Math.ceil(size / maxSegments), info?.slo?.min_segment_size ?? 1);
    const key = opts.uploadKey ?? opts.resume?.token ?? (file ? (file.mtimeMs / 1000).toFixed(6) : (Date.now() / 1000).toFixed(6));
    opts.resume?.save(key);
    let segments: Awaited<ReturnType<typeof uploadSlo>>;
    try {
      segments = await uploadSlo(client, {
        container,
        name,
        source,
        size,
        segmentSize,
        concurrency: tuning.concurrency,
        uploadKey: key,
        headers,
        progress,
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      // A stream cannot be sent again from where it stopped, so its segments would only take
      // space: they go. A file's stay for the next attempt to skip (discardUpload drops them).
      if ('stream' in source) await discardSloSegments(client, container, name, key, (paths) => deleteSegments(client, paths, info)).catch(() => undefined);
      throw err;
    }
    kept = new Set(segments.map((s) => s.path));
    result = await head();
    // Swift's SLO ETag is the MD5 of the segments' MD5s (hex, concatenated); ours were checked one by one.
    const composite = createHash('md5').update(segments.map((s) => s.etag).join('')).digest('hex');
    if (bareEtag(result.etag) !== composite) {
      // What the manifest assembles is not what was sent: it goes, segments and all.
      await client.call({ method: 'DELETE', container, object: name, query: { 'multipart-manifest': 'delete' } }).catch(() => undefined);
      throw new CofferError('BadDigest', `${container}/${name}: the manifest's ETag ${result.etag} is not the MD5 of its segments' (${composite})`);
    }
    result = { ...result, checked: 'parts' };
  } else {
    const r = await putSingle(client, container, name, source, size, headers, progress, signal, opts.md5);
    const meta = Object.fromEntries(Object.entries(opts.meta ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    result = {
      container,
      name,
      size: size ?? r.size,
      etag: r.etag,
      lastModified: r.lastModified,
      contentType,
      meta,
      headers: { ...opts.headers },
      versionId: null,
      storageClass: null,
      publicRead: null,
    };
  }
  progress.flush();
  const stale = old.filter((p) => !kept.has(p));
  // Best effort: the new object is in; a segment left behind costs space, not correctness.
  if (stale.length) await deleteSegments(client, stale, info).catch(() => undefined);
  return result;
}
