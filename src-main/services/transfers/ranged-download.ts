import { open, rename, stat } from 'node:fs/promises';
import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import type { Job, RunContext } from './job.js';

const MiB = 1024 * 1024;

/**
 * From this size an object whose ETag is not its MD5 (a multipart upload's, an SLO's: nothing
 * to check in a single stream either) comes in RANGE_STREAMS ranges at once, as rclone's
 * multi-thread download does from 250 MiB. One stream is bound by one core's copy from the
 * socket and into the page cache; four spread it (1 GiB from coffer serve, same runs, one
 * stream against four: 217-358 MiB/s against 361-424).
 */
export const RANGED_DOWNLOAD_BYTES = 256 * MiB;
/** rclone's --multi-thread-streams default. */
const RANGE_STREAMS = 4;
/** How often the ranges' progress is written down, so a killed app resumes close to where it was. */
const SAVE_EVERY_MS = 1000;

/** The resume token of a ranged download: the object it is of, and the bytes each range has on disk. */
interface RangesToken {
  etag: string;
  size: number;
  done: number[];
}

/** The object's byte ranges, [start, end) each, one per stream. */
export function rangesOf(size: number, streams = RANGE_STREAMS): { start: number; end: number }[] {
  const step = Math.ceil(size / streams);
  return Array.from({ length: streams }, (_, i) => ({ start: Math.min(size, i * step), end: Math.min(size, (i + 1) * step) }));
}

/** Whether a download of this object goes in ranges: large, and its ETag not an MD5 a single stream could check. */
export function takesRanges(details: ObjectDetails): boolean {
  const plainMd5 = /^[0-9a-f]{32}$/.test(details.etag.replace(/"/g, '').toLowerCase()) && !details.compositeEtag;
  return details.size >= RANGED_DOWNLOAD_BYTES && !plainMd5;
}

/** A saved token's progress, when it is of this very object and its partial file is still there. */
async function resumedDone(token: string | null, head: ObjectDetails, partial: string, ranges: number): Promise<number[] | undefined> {
  if (!token) return undefined;
  try {
    const saved = JSON.parse(token) as RangesToken;
    if (saved.etag !== head.etag || saved.size !== head.size || saved.done?.length !== ranges) return undefined;
    await stat(partial);
    return saved.done;
  } catch {
    return undefined;
  }
}

/**
 * Downloads `head`'s object in ranges into the partial file with positional writes, each range
 * resumable by itself: the token saved every second and when the attempt ends says how far each
 * got. Checked by length (every range whole) and by ETag (every range from the same object).
 */
export async function downloadInRanges(job: Job & { spec: { kind: 'download' } }, ctx: RunContext, head: ObjectDetails, partial: string): Promise<{ verified: boolean }> {
  const { container } = job.item;
  const { name } = job.spec;
  const ranges = rangesOf(head.size);
  const resumed = await resumedDone(ctx.resumeToken, head, partial, ranges.length);
  const done = resumed ?? ranges.map(() => 0);
  job.spec.etag = head.etag;
  ctx.setSize(head.size);
  const total = () => done.reduce((a, b) => a + b, 0);
  const save = () => ctx.saveResumeToken(JSON.stringify({ etag: head.etag, size: head.size, done } satisfies RangesToken));
  if (!resumed) save();
  ctx.progress(total());

  // One range's failure stops the others; the first failure is the attempt's.
  const stop = new AbortController();
  let first: unknown;
  const fail = (err: unknown) => {
    first ??= err;
    stop.abort(err);
  };
  const file = await open(partial, resumed ? 'r+' : 'w');
  const onAbort = () => fail(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setInterval(save, SAVE_EVERY_MS);

  const fetchRange = async (i: number) => {
    const { start, end } = ranges[i]!;
    let at = start + done[i]!;
    if (at >= end) return;
    const { details, body } = await ctx.backend.download(container, name, { signal: stop.signal, range: { start: at, end: end - 1 } });
    if (details.etag !== head.etag) {
      body.destroy();
      throw new CofferError('PreconditionFailed', `${name} changed on the server during its download`);
    }
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (at + chunk.length > end) throw new CofferError('RemoteError', `${name}: the server sent more than the range asked for`);
        await file.write(chunk, 0, chunk.length, at);
        at += chunk.length;
        done[i] = at - start;
        ctx.progress(total());
      }
    } catch (err) {
      // A connection dropped mid-body: what is on disk is good, the next attempt goes on from it.
      throw stop.signal.aborted || isCofferError(err) ? err : new CofferError('Unreachable', `${name}: the connection dropped during the download (${(err as Error).message})`);
    } finally {
      body.destroy();
    }
    if (at !== end) throw new CofferError('Unreachable', `${name}: a range ended ${end - at} bytes early`);
  };

  try {
    await Promise.all(ranges.map((_, i) => fetchRange(i).catch(fail)));
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
  if (total() !== head.size || written !== head.size) throw new CofferError('IncompleteBody', `${name}: received ${written} of ${head.size} bytes`);
  await rename(partial, job.spec.path);
  return { verified: false };
}
