// The local store's uploads. One request for a stream or a small file; large files resumable:
// the file goes in as a multipart upload of the engine (parts become the object's segments, no
// copy), so an interrupted upload keeps its parts and the next attempt sends only what is
// missing, even after an app restart.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { CofferError } from '../../src-shared/errors.js';
import type { ContainerRef, Engine, ObjectInfo } from '../engine/index.js';
import type { UnfinishedUploadEntry, UploadOptions, UploadSource } from './object-backend.js';
import { abortedError, md5OfRange, metered, openUploadSource, parseResumeToken, ProgressMeter, throwIfAborted } from './transfer.js';

export const LOCAL_PART_SIZE = 64 * 1024 * 1024;

/** An upload in one request: a stream, or a file not worth resuming. */
export async function putLocal(engine: Engine, ref: ContainerRef, name: string, source: UploadSource, opts: UploadOptions): Promise<ObjectInfo> {
  const { stream, size } = await openUploadSource(source);
  const body = metered(stream, opts, 'The upload');
  try {
    return await engine.putObject(ref, name, body, {
      ...(size !== undefined ? { size } : {}),
      ...(opts.contentType ? { contentType: opts.contentType } : {}),
      ...(opts.meta ? { meta: opts.meta } : {}),
      ...(opts.headers ? { headers: opts.headers } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (err) {
    // Whatever broke first (the engine or the destroyed stream), a cancelled upload says so.
    if (opts.signal?.aborted) throw abortedError('The upload');
    throw err;
  } finally {
    body.destroy();
  }
}

function existingParts(engine: Engine, ref: ContainerRef, name: string, uploadId: string): Map<number, { size: number; etag: string }> | undefined {
  try {
    const have = new Map<number, { size: number; etag: string }>();
    let marker = 0;
    for (;;) {
      const page = engine.listParts(ref, name, uploadId, { partNumberMarker: marker });
      for (const p of page.parts) have.set(p.partNumber, { size: p.size, etag: p.etag });
      if (!page.truncated || page.parts.length === 0) return have;
      marker = page.parts[page.parts.length - 1]!.partNumber;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'NoSuchUpload') return undefined;
    throw err;
  }
}

/**
 * Uploads a file in parts through the engine. Every part's MD5 is computed here as it is read and
 * must equal the engine's; the result's ETag is then the engine's composite of those MD5s.
 */
export async function uploadFileResumable(
  engine: Engine,
  ref: ContainerRef,
  name: string,
  file: { path: string; size: number },
  opts: UploadOptions & { resume: NonNullable<UploadOptions['resume']> },
  partSizeWanted = LOCAL_PART_SIZE,
): Promise<ObjectInfo> {
  let token = parseResumeToken(opts.resume.token);
  let have = token ? existingParts(engine, ref, name, token.uploadId) : undefined;
  if (!token || !have) {
    const created = await engine.createUpload(ref, name, {
      ...(opts.contentType ? { contentType: opts.contentType } : {}),
      ...(opts.meta ? { meta: opts.meta } : {}),
      ...(opts.headers ? { headers: opts.headers } : {}),
    });
    token = { uploadId: created.uploadId, partSize: partSizeWanted };
    have = new Map();
    opts.resume.save(JSON.stringify(token));
  }
  const { uploadId, partSize } = token;
  const count = Math.max(1, Math.ceil(file.size / partSize));
  const meter = new ProgressMeter(opts.onProgress);
  const etags: string[] = [];
  for (let index = 0; index < count; index++) {
    throwIfAborted(opts.signal, 'The upload');
    const start = index * partSize;
    const end = Math.min(file.size, start + partSize) - 1;
    const old = have.get(index + 1);
    if (old && old.size === end - start + 1 && (await md5OfRange(file.path, start, end, opts.signal)) === old.etag) {
      etags.push(old.etag);
      meter.add(old.size);
      continue;
    }
    const hash = createHash('md5');
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        meter.add(chunk.length);
        done(null, chunk);
      },
    });
    const source = createReadStream(file.path, { start, end, ...(opts.signal ? { signal: opts.signal } : {}) });
    source.once('error', (err) => tap.destroy(err));
    const body = source.pipe(tap);
    const part = await engine.uploadPart(ref, name, uploadId, index + 1, body, { size: end - start + 1 });
    const md5 = hash.digest('hex');
    if (part.etag !== md5) throw new CofferError('BadDigest', `Part ${index + 1} of ${name} was stored damaged (${part.etag}, read ${md5})`);
    etags.push(md5);
  }
  const info = await engine.completeUpload(ref, name, uploadId, etags.map((etag, i) => ({ partNumber: i + 1, etag })));
  meter.finish();
  return info;
}

export async function abortLocalUpload(engine: Engine, ref: ContainerRef, name: string, token: string): Promise<void> {
  const t = parseResumeToken(token);
  if (t) await engine.abortUpload(ref, name, t.uploadId).catch(() => undefined);
}

export function listLocalUploads(engine: Engine, ref: ContainerRef): UnfinishedUploadEntry[] {
  const out: UnfinishedUploadEntry[] = [];
  let page = engine.listUploads(ref);
  for (;;) {
    out.push(...page.uploads.map((u) => ({ name: u.name, uploadId: u.uploadId, initiated: new Date(u.initiated).toISOString() })));
    if (page.nextKeyMarker === undefined) return out;
    page = engine.listUploads(ref, { keyMarker: page.nextKeyMarker, ...(page.nextUploadIdMarker !== undefined ? { uploadIdMarker: page.nextUploadIdMarker } : {}) });
  }
}
