import { mkdir, open, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import type { PartLayout } from '../../backends/object-backend.js';
import { combineCrcs } from '../../engine/index.js';
import type { FileThread } from './file-thread.js';
import { droppedConnection, type Job, type RunContext } from './job.js';
import { bareEtag, RANGE_STREAMS, type RangedPlan } from './ranged-plan.js';

/** How often the ranges' progress is written down, so a killed app resumes close to where it was. */
const SAVE_EVERY_MS = 1000;

/** The resume token of a ranged download: the object it is of, the bytes each range has on disk, and the MD5s of the parts checked. */
interface RangesToken {
  etag: string;
  size: number;
  done: number[];
  /** With a part layout: each part's MD5 once whole on disk and hashed, else null. */
  md5s?: (string | null)[];
  /** With the object's CRC32: each range's CRC32 of its bytes on disk (`done`). */
  crcs?: number[];
}

/** A saved token's progress, when it is of this very object, made for the same ranges, and its partial file is still there. */
async function resumed(token: string | null, head: ObjectDetails, partial: string, plan: RangedPlan): Promise<RangesToken | undefined> {
  if (!token) return undefined;
  try {
    const saved = JSON.parse(token) as RangesToken;
    if (saved.etag !== head.etag || saved.size !== head.size || saved.done?.length !== plan.ranges.length) return undefined;
    if (plan.layout ? saved.md5s?.length !== plan.ranges.length : saved.md5s !== undefined) return undefined;
    if (plan.crc32 ? saved.crcs?.length !== plan.ranges.length : saved.crcs !== undefined) return undefined;
    await stat(partial);
    return saved;
  } catch {
    return undefined;
  }
}

/**
 * A range of the object, from the part's own object where it has one (a Swift SLO's segment: a
 * plain GET, where a range of the SLO costs Swift's proxy a read of the manifest and its checks
 * of the segments each time; about three times the proxy's CPU for 2 GiB in parts of 32 MiB),
 * and still of the object the download began with: the object's ETag, or the segment's listed
 * MD5. A segment gone since the manifest was read is the object changed.
 */
async function fetchPart(ctx: RunContext, container: string, name: string, head: ObjectDetails, part: PartLayout['parts'][number] | undefined, opts: { signal: AbortSignal; range: { start: number; end: number } }) {
  const source = part?.source;
  const changed = (why = '') => new CofferError('PreconditionFailed', `${name} changed on the server during its download${why}`);
  let reply;
  try {
    reply = source ? await ctx.backend.download(source.container, source.name, { signal: opts.signal, range: { start: opts.range.start - part.start, end: opts.range.end - part.start } }) : await ctx.backend.download(container, name, opts);
  } catch (err) {
    if (source && (isCofferError(err, 'NoSuchKey') || isCofferError(err, 'NoSuchContainer'))) throw changed(` (its segment ${source.container}/${source.name} is gone)`);
    throw err;
  }
  if (source ? bareEtag(reply.details.etag) !== part.md5 : reply.details.etag !== head.etag) {
    reply.body.destroy();
    throw changed();
  }
  return reply;
}

/**
 * Downloads `head`'s object in the plan's ranges into the partial file with positional writes,
 * RANGE_STREAMS at a time, each range resumable by itself: the token saved every second and when
 * the attempt ends says how far each got. Every range must come whole and from the object the
 * download began with (its ETag). With a part layout each part, once whole on disk, is hashed on
 * the file thread: its MD5 must be the one the store lists (an SLO's manifest), and together they
 * must make the object's ETag; only then is the download verified.
 */
export async function downloadInRanges(job: Job & { spec: { kind: 'download' } }, ctx: RunContext, files: FileThread, head: ObjectDetails, partial: string, plan: RangedPlan): Promise<{ verified: boolean }> {
  const { container } = job.item;
  const { name } = job.spec;
  const { ranges, layout } = plan;
  const earlier = await resumed(ctx.resumeToken, head, partial, plan);
  const done = earlier?.done ?? ranges.map(() => 0);
  const md5s = layout ? (earlier?.md5s ?? ranges.map(() => null)) : undefined;
  const crcs = plan.crc32 ? (earlier?.crcs ?? ranges.map(() => 0)) : undefined;
  job.spec.etag = head.etag;
  ctx.setSize(head.size);
  // The bytes on disk in all ranges, kept as they come: a sum over thousands of parts per chunk was not.
  let received = done.reduce((a, b) => a + b, 0);
  const save = () => ctx.saveResumeToken(JSON.stringify({ etag: head.etag, size: head.size, done, ...(md5s ? { md5s } : {}), ...(crcs ? { crcs } : {}) } satisfies RangesToken));
  if (!earlier) save();
  ctx.progress(received);

  // One range's failure stops the others; the first failure is the attempt's.
  const stop = new AbortController();
  let first: unknown;
  const fail = (err: unknown) => {
    first ??= err;
    stop.abort(err);
  };
  // The folder too: a folder download's subfolder is not made yet (a stream's thread makes its own).
  if (!earlier) await mkdir(dirname(partial), { recursive: true });
  const file = await open(partial, earlier ? 'r+' : 'w');
  const onAbort = () => fail(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setInterval(save, SAVE_EVERY_MS);

  // A part whole on disk and not hashed yet is hashed from there, off the main thread.
  const hashing: Promise<void>[] = [];
  const check = (i: number) => {
    const { start, end } = ranges[i]!;
    if (!md5s || md5s[i] || done[i] !== end - start) return;
    const listed = layout!.parts[i]!.md5;
    const hashed = files.hash(partial, start, end).then((md5) => {
      if (listed !== undefined && md5 !== listed) throw new CofferError('BadDigest', `${name} arrived damaged: part ${i + 1}'s MD5 ${md5} is not the server's ${listed}`);
      md5s[i] = md5;
    });
    hashing.push(hashed.catch(fail));
  };

  const fetchRange = async (i: number) => {
    const { start, end } = ranges[i]!;
    let at = start + done[i]!;
    if (at >= end) return;
    const { body } = await fetchPart(ctx, container, name, head, layout?.parts[i], { signal: stop.signal, range: { start: at, end: end - 1 } });
    let writing = false;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (at + chunk.length > end) throw new CofferError('RemoteError', `${name}: the server sent more than the range asked for`);
        writing = true;
        await file.write(chunk, 0, chunk.length, at);
        writing = false;
        at += chunk.length;
        done[i] = at - start;
        if (crcs) crcs[i] = crc32(chunk, crcs[i]);
        received += chunk.length;
        ctx.progress(received);
      }
    } catch (err) {
      // A connection dropped mid-body: what is on disk is good, the next attempt goes on from it.
      // A write that failed (a full disk) is the disk's, and says so.
      throw stop.signal.aborted || writing || isCofferError(err) ? err : droppedConnection(name, err as Error);
    } finally {
      body.destroy();
    }
    if (at !== end) throw new CofferError('Unreachable', `${name}: a range ended ${end - at} bytes early`);
  };

  // RANGE_STREAMS streams take the ranges in order, one after another.
  let next = 0;
  const stream = async () => {
    for (let i = next++; i < ranges.length && !stop.signal.aborted; i = next++) {
      await fetchRange(i);
      check(i);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(RANGE_STREAMS, ranges.length) }, () => stream().catch(fail)));
    await Promise.all(hashing);
  } finally {
    clearInterval(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    await file.close();
  }
  if (first !== undefined) {
    save();
    throw first;
  }
  const written = (await stat(partial)).size;
  if (received !== head.size || written !== head.size) throw new CofferError('IncompleteBody', `${name}: received ${written} of ${head.size} bytes`);
  const etagMade = layout ? await checkEtag(layout, md5s as string[], head, partial, files, name, ctx.signal) : false;
  if (crcs) checkCrc(plan.crc32!, crcs, ranges, name);
  await rename(partial, job.spec.path);
  return { verified: etagMade || crcs !== undefined };
}

/**
 * The parts' MD5s must make the object's ETag. When the layout was inferred and they do not, the
 * parts are asked one by one: if they lie elsewhere, the file is hashed again by them. Whether
 * they made it: a guessed layout that does not leaves the download checked by length only.
 */
async function checkEtag(layout: PartLayout, md5s: string[], head: ObjectDetails, partial: string, files: FileThread, name: string, signal: AbortSignal): Promise<boolean> {
  const etag = bareEtag(head.etag);
  // The ETag another layout's parts make of the file as it lies (its bytes are in the page cache).
  const rehashed = async (other: PartLayout) => other.etagOf(await Promise.all(other.parts.map((p) => files.hash(partial, p.start, p.end))));
  let made = layout.etagOf(md5s);
  if (made !== etag && layout.exact) {
    const exact = await layout.exact(signal);
    const moved = exact && (exact.parts.length !== layout.parts.length || exact.parts.some((p, i) => p.end !== layout.parts[i]!.end));
    if (moved) made = await rehashed(exact);
  }
  if (made === etag) return true;
  // A guess that missed: the file hashed again by each other guess.
  for (const other of layout.alternatives ?? []) if ((await rehashed(other)) === etag) return true;
  if (layout.guessed) return false;
  throw new CofferError('BadDigest', `${name} arrived damaged: its parts' MD5s make the ETag ${made}, not the server's ${etag}`);
}

/** The ranges' CRC32s, combined, must be the object's. */
function checkCrc(expected: string, crcs: number[], ranges: { start: number; end: number }[], name: string): void {
  const pieces = crcs.map((crc, i) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(crc >>> 0);
    return { crc: bytes, size: ranges[i]!.end - ranges[i]!.start };
  });
  const made = combineCrcs('crc32', pieces).toString('base64');
  if (made !== expected) throw new CofferError('BadDigest', `${name} arrived damaged: its CRC32 ${made} is not the server's ${expected}`);
}
