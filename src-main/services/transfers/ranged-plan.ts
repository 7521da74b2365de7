import { isCofferError } from '../../../src-shared/errors.js';
import type { ObjectDetails } from '../../../src-shared/model/storage.js';
import type { PartLayout } from '../../backends/object-backend.js';
import { isTransient, type RunContext } from './job.js';

/*
 * How a download is split: in one stream, in ranges at once, or part by part where the parts
 * are the object's own and their MD5s can be checked (ranged-download.ts fetches them).
 */
const MiB = 1024 * 1024;

/**
 * From this size an object whose ETag is not its MD5 (a multipart upload's, an SLO's: nothing
 * to check in a single stream either) comes in RANGE_STREAMS ranges at once, as rclone's
 * multi-thread download does from 250 MiB. One stream is bound by one core's copy from the
 * socket and into the page cache; four spread it (1 GiB from coffer serve, same runs, one
 * stream against four: 217-358 MiB/s against 361-424).
 */
export const RANGED_DOWNLOAD_BYTES = 256 * MiB;
/**
 * From this size a download asks first whether the object is one in parts whose MD5s the store
 * can tell (S3's parts are at least 5 MiB but the last): such an object comes part by part, each
 * hashed, and is checked against its ETag. A HEAD costs a round trip; 5 MiB take tens of them.
 */
export const PARTS_CHECK_BYTES = 5 * MiB;
/** rclone's --multi-thread-streams default. */
export const RANGE_STREAMS = 4;
/** The least a range is worth a request of its own, when the object's CRC32 checks it. */
const CRC_RANGE_BYTES = 8 * MiB;
/** Failures of the question about parts that are the download's own (the rest leave it checked by length). */
const STOPS_DOWNLOAD = new Set(['Unreachable', 'AuthFailed', 'NoSuchKey', 'NoSuchContainer', 'PreconditionFailed']);

/** How a download goes in ranges: the ranges, and the parts' layout when they are the object's parts (checked). */
export interface RangedPlan {
  ranges: { start: number; end: number }[];
  layout?: PartLayout;
  /** The object's CRC32 (base64) the ranges' bytes must make, where the server keeps one. */
  crc32?: string;
}

/** The object's byte ranges, [start, end) each, one per stream. */
export function rangesOf(size: number, streams = RANGE_STREAMS): { start: number; end: number }[] {
  const step = Math.ceil(size / streams);
  return Array.from({ length: streams }, (_, i) => ({ start: Math.min(size, i * step), end: Math.min(size, (i + 1) * step) }));
}

/** An ETag as the transfers compare it with an MD5: unquoted, lowercase. */
export const bareEtag = (etag: string): string => etag.replace(/"/g, '').toLowerCase();

/** Whether an object's ETag is the MD5 of its bytes (a Swift SLO's or DLO's looks like one but is not). */
export const isPlainMd5 = (details: Pick<ObjectDetails, 'etag' | 'compositeEtag'>): boolean => /^[0-9a-f]{32}$/.test(bareEtag(details.etag)) && !details.compositeEtag;

/**
 * How `head`'s object is downloaded in ranges, or undefined for one stream: an object whose ETag
 * is its MD5 comes in one stream (checked as it goes); one whose CRC32 the server keeps in up to
 * RANGE_STREAMS ranges, each range's CRC32 taken as its bytes arrive and the whole made of them
 * (a CRC costs a tenth of an MD5 of CPU, and nothing is read back from disk); one in parts the
 * backend can lay out part by part (each part checked, then the ETag they make), or where it
 * cannot, in the parts a common client would have uploaded it in (verified if their MD5s make the
 * ETag); any other large one in RANGE_STREAMS ranges, checked by length only.
 */
export async function rangedPlan(ctx: RunContext, container: string, name: string, head: ObjectDetails): Promise<RangedPlan | undefined> {
  if (isPlainMd5(head) || head.size === 0) return undefined;
  if (head.crc32 && head.size >= PARTS_CHECK_BYTES) {
    const streams = Math.max(1, Math.min(RANGE_STREAMS, Math.floor(head.size / CRC_RANGE_BYTES)));
    return { ranges: rangesOf(head.size, streams), crc32: head.crc32 };
  }
  let layout: PartLayout | undefined;
  try {
    layout = await ctx.backend.partLayout?.(container, name, head, { signal: ctx.signal });
  } catch (err) {
    // A cancel, the network, the object gone or changed stop the download; a server that
    // refuses the question (an ACL, an API it lacks) leaves it checked by length.
    if (ctx.signal.aborted || !isCofferError(err) || isTransient(err) || STOPS_DOWNLOAD.has(err.code)) throw err;
  }
  layout ??= ctx.backend.guessPartLayout?.(head);
  if (layout) return { ranges: layout.parts, layout };
  return head.size >= RANGED_DOWNLOAD_BYTES ? { ranges: rangesOf(head.size) } : undefined;
}
