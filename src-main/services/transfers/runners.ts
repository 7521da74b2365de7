import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { ObjectBackend, UploadResult, UploadSource } from '../../backends/object-backend.js';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import type { FileThread } from './file-thread.js';
import { downloadInRanges } from './ranged-download.js';
import { bareEtag, isPlainMd5, PARTS_CHECK_BYTES, rangedPlan } from './ranged-plan.js';
import { droppedConnection, type Job, type RunContext } from './job.js';
import { SMALL_FILE_BYTES } from './lanes.js';
import { ThreadFileWriter } from './thread-file-writer.js';

/**
 * Files above this go to the backend by path: S3 multipart and Swift SLO in parallel parts, and
 * resumable. Below it the queue streams the file itself and checks the whole-body MD5.
 */
export const LARGE_FILE_BYTES = 64 * 1024 * 1024;

export const partialPathOf = (path: string) => `${path}.coffer-partial`;

/** A pass-through computing the MD5 of what goes by, in order. */
function md5Tap(): { tap: Transform; hex: () => string } {
  const hash = createHash('md5');
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { tap, hex: () => hash.digest('hex') };
}

/**
 * The server's ETag against what was read: a plain MD5 must equal ours; a multipart/SLO ETag
 * counts as verified only when the backend checked every part and the composite itself.
 */
function verify(name: string, result: UploadResult, md5: string | undefined): boolean {
  // Asked first: a Swift SLO's ETag looks like an MD5 (of its segments' MD5s) but is not the file's.
  if (result.checked === 'parts') return true;
  const etag = bareEtag(result.etag);
  if (md5 !== undefined && isPlainMd5(result)) {
    if (etag !== md5) throw new CofferError('BadDigest', `${name} arrived damaged: the server's ETag ${etag} is not the MD5 of the file (${md5})`);
    return true;
  }
  return false;
}

async function uploadStreamed(backend: ObjectBackend, container: string, name: string, body: Readable, size: number | undefined, ctx: RunContext, absent = false) {
  const { tap, hex } = md5Tap();
  body.once('error', (err) => tap.destroy(err));
  body.pipe(tap);
  const result = await backend.upload(container, name, { stream: tap, ...(size !== undefined ? { size } : {}) }, { signal: ctx.signal, onProgress: ctx.progress, absent });
  return { verified: verify(name, result, hex()) };
}

/** Bytes in memory as an upload's source: their stream is made only if a backend reads it (the S3 one sends the bytes as they are). */
function wholeBody(bytes: Buffer): UploadSource {
  let stream: Readable | undefined;
  return {
    size: bytes.length,
    bytes,
    get stream() {
      return (stream ??= Readable.from([bytes], { objectMode: false }));
    },
  };
}

/**
 * A small file read whole and hashed on the file thread (file-thread.ts), sent as one body: a
 * stream's machinery and a second stat per file were a third of the client's CPU for 10,000
 * files of 4 KiB, and the reads themselves most of what was left on the main thread.
 */
async function uploadSmallFile(job: Job & { spec: { kind: 'path' } }, ctx: RunContext, files: FileThread): Promise<{ verified: boolean }> {
  const { bytes, md5 } = await files.read(job.spec.path);
  ctx.setSize(bytes.length);
  // Progress within a file only where it takes a while to send: below that the item is done (its
  // size its progress) a moment later, and without a callback no meter stream is made per file.
  const progress = bytes.length > SMALL_DOWNLOAD_BYTES ? { onProgress: ctx.progress } : {};
  const result = await ctx.backend.upload(job.item.container, job.spec.name, wholeBody(bytes), { signal: ctx.signal, ...progress, md5, absent: job.spec.absent === true });
  return { verified: verify(job.spec.name, result, md5) };
}

export async function runPathUpload(job: Job & { spec: { kind: 'path' } }, ctx: RunContext, files: FileThread): Promise<{ verified: boolean }> {
  const { container } = job.item;
  const { path, name } = job.spec;
  const absent = job.spec.absent === true;
  // The planned size (the file may have changed since: the read takes what is there now).
  if (job.item.size !== null && job.item.size <= SMALL_FILE_BYTES) return uploadSmallFile(job, ctx, files);
  const size = (await stat(path)).size;
  ctx.setSize(size);
  if (size <= LARGE_FILE_BYTES) return uploadStreamed(ctx.backend, container, name, createReadStream(path), size, ctx, absent);
  const result = await ctx.backend.upload(container, name, { path }, {
    absent,
    signal: ctx.signal,
    onProgress: ctx.progress,
    resume: { token: ctx.resumeToken, save: ctx.saveResumeToken },
  });
  return { verified: verify(name, result, undefined) };
}

export async function runStreamUpload(job: Job, ctx: RunContext): Promise<{ verified: boolean }> {
  if (!job.stream) throw new CofferError('InvalidArgument', 'The browser has not sent this file');
  return uploadStreamed(ctx.backend, job.item.container, job.spec.name, job.stream, job.item.size ?? undefined, ctx);
}

/**
 * Downloads into `<path>.coffer-partial`, renamed into place only when complete, so a cancelled
 * or failed download never leaves a file that looks whole. A paused one resumes from the
 * partial file's length if the object has not changed since (same ETag).
 */
export async function runDownload(job: Job & { spec: { kind: 'download' } }, ctx: RunContext, files: FileThread): Promise<{ verified: boolean }> {
  try {
    return await downloadOnce(job, ctx, files);
  } catch (err) {
    // Damaged bytes are never resumed from; after a pause or a dropped connection they are good.
    const code = (err as { code?: string }).code;
    if (code === 'BadDigest' || code === 'IncompleteBody') {
      await rm(partialPathOf(job.spec.path), { force: true });
      ctx.saveResumeToken(null);
    }
    throw err;
  }
}

/**
 * Objects up to this size are downloaded into memory and written at once; larger ones stream to
 * disk (1,000 files of 1 MiB read whole: 2 s of garbage collection for 500 MiB, and slower).
 */
const SMALL_DOWNLOAD_BYTES = 256 * 1024;

/**
 * A body read to its end into one buffer (events, not an async iterator: one less object and
 * promise per chunk). A backend may hand over its response as it is (no stream in between for
 * a small file), so a connection that drops mid-body fails it with the socket's own error: that
 * is the network's failure, worth another attempt, as ranged downloads count it.
 */
function readWhole(body: Readable, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    body.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
    });
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)));
    body.once('error', (err) => reject(isCofferError(err) ? err : droppedConnection(name, err)));
    // A body destroyed before its end (an abort) may close without an error.
    body.once('close', () => body.readableEnded || reject(new CofferError('IncompleteBody', 'The download ended early')));
  });
}

/**
 * A small object (its listed size at most SMALL_DOWNLOAD_BYTES) read whole into memory, checked
 * (length, and MD5 against a plain ETag) before anything is written, then written and renamed
 * into place: no resume (there is nothing worth resuming), no stream, no stat. Undefined when
 * the object is past the small size (grown since it was listed, or a DLO, listed at 0 bytes): the
 * caller downloads it as a large one.
 */
async function downloadSmall(job: Job & { spec: { kind: 'download' } }, ctx: RunContext, files: FileThread): Promise<{ verified: boolean } | undefined> {
  const { container } = job.item;
  const spec = job.spec;
  // No progress callback: the item is done a moment later (its size is then its progress), and
  // without one a backend hands over its body as it is, with no meter stream per file.
  const { details, body } = await ctx.backend.download(container, spec.name, { signal: ctx.signal });
  if (details.size > SMALL_DOWNLOAD_BYTES) {
    body.destroy();
    // Its size as it is (a DLO lists at 0 bytes): the caller looks at it as at any object that large.
    ctx.setSize(details.size);
    return undefined;
  }
  spec.etag = details.etag;
  ctx.setSize(details.size);
  const bytes = await readWhole(body, spec.name);
  if (bytes.length !== details.size) throw new CofferError('IncompleteBody', `${spec.name}: received ${bytes.length} of ${details.size} bytes`);
  const etag = bareEtag(details.etag);
  const checked = isPlainMd5(details);
  // Hashed, then written and renamed into place, on the file thread; damaged bytes are not written.
  const { md5, written } = await files.write(spec.path, partialPathOf(spec.path), bytes, checked ? etag : undefined);
  if (!written) throw new CofferError('BadDigest', `${spec.name} arrived damaged: its MD5 ${md5} is not the server's ETag ${etag}`);
  return { verified: checked };
}

async function downloadOnce(job: Job & { spec: { kind: 'download' } }, ctx: RunContext, files: FileThread): Promise<{ verified: boolean }> {
  if (job.item.size !== null && job.item.size <= SMALL_DOWNLOAD_BYTES && job.item.transferred === 0) {
    const small = await downloadSmall(job, ctx, files);
    if (small) return small;
  }
  const { container } = job.item;
  const spec = job.spec;
  const partial = partialPathOf(spec.path);
  // A large object, one of a size not known yet, or one whose ranges were begun (a token) is
  // looked at before it is asked for.
  let head: ObjectDetails | undefined;
  if (ctx.resumeToken || job.item.size === null || job.item.size >= PARTS_CHECK_BYTES) {
    head = await ctx.backend.head(container, spec.name);
    const plan = await rangedPlan(ctx, container, spec.name, head);
    if (plan) return downloadInRanges(job, ctx, files, head, partial, plan);
    // Changed into an object one stream takes: a partial file with holes is no start for it.
    if (ctx.resumeToken) {
      await rm(partial, { force: true });
      ctx.saveResumeToken(null);
    }
  }
  let from = await stat(partial).then((s) => s.size, () => 0);
  if (from > 0) {
    // Resuming: only if the object is still the one the partial file came from (the HEAD above, if there was one).
    const now = head ?? (await ctx.backend.head(container, spec.name));
    if (!spec.etag || now.etag !== spec.etag || now.size < from) {
      await rm(partial, { force: true });
      from = 0;
    }
  }
  const { details, body } = await ctx.backend.download(container, spec.name, {
    signal: ctx.signal,
    onProgress: (n) => ctx.progress(from + n),
    ...(from ? { range: { start: from } } : {}),
  });
  if (!from) {
    spec.etag = details.etag;
    ctx.setSize(details.size);
    ctx.saveResumeToken(null);
  }
  // Written and hashed on the file thread as it arrives (a resumed one's first bytes hashed from
  // disk there), renamed into place only if whole: its listed length, and a plain ETag's MD5. One
  // whose ETag comes from parts the backend could not lay out is checked by length alone.
  const etag = bareEtag(details.etag);
  const plain = isPlainMd5(details);
  const out = new ThreadFileWriter(files, {
    partial,
    path: spec.path,
    from,
    hash: plain,
    ...(job.item.size !== null ? { expectLength: job.item.size } : {}),
    ...(plain ? { expectMd5: etag } : {}),
  });
  try {
    await pipeline(body, out, { signal: ctx.signal });
  } catch (err) {
    // The partial file is closed before anything looks at it again (a retry resumes from its length).
    await out.released;
    throw err;
  }
  const { length, md5, written } = out.result!;
  if (!written && length !== job.item.size) throw new CofferError('IncompleteBody', `${spec.name}: received ${length} of ${job.item.size} bytes`);
  if (!written) throw new CofferError('BadDigest', `${spec.name} arrived damaged: its MD5 ${md5} is not the server's ETag ${etag}`);
  return { verified: md5 !== undefined };
}
