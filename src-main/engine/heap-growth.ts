import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets its heap grow past what lived at the last full collection, in percent, while
 * no bulk bytes are in flight; set when the engine's facade is loaded (its first export), which
 * the composition root and both entry points import first: the limit a full collection sets
 * holds until the next one, so the collections made while the rest of the app loads must
 * already see it.
 *
 * Why bound it: V8 picks the factor itself, up to 4x, which suits a short script and not an app
 * that moves folders of small files for minutes: every file leaves a few KB that outlive two
 * young collections (the requests in flight when one comes), and all of it stays until the next
 * full collection, so memory grew with the file count (10,000 x 4 KiB through the transfer
 * service: peak RSS 1.3-1.4x that of 1,000; with 30%, 1.07-1.11x).
 *
 * Why not always: V8 counts the bytes of bodies in flight (memory outside its heap) against the
 * same limit. Bounded, a 2 GiB download made 180 full collections instead of 2 and took a quarter
 * to two fifths more CPU, and folders of 1 MiB files 60-80% more. So while any body of
 * BULK_BODY_BYTES or more is in flight (transfers, and the embedded store's requests and
 * answers) the heap may grow BULK_GROWTH_PERCENT, V8's largest factor. Not V8's own choice: it
 * sizes the factor by how fast the program allocates on its heap, and a server taking uploads
 * allocates little there, so coffer serve chose 1.1x and made 146 full collections for one 2 GiB
 * upload (it made 1 on a fresh process only because its first limit was still the start-up one).
 * V8 reads the flag at each full collection.
 */
export const BOUNDED_GROWTH_PERCENT = 30;
export const BULK_GROWTH_PERCENT = 300;
/** A body at least this large makes its bytes, not its objects, what the heap grows by. */
export const BULK_BODY_BYTES = 256 * 1024;

/**
 * How long no bulk body must be in flight before the bound comes back: large transfers come as
 * one body after another (a file's parts, a folder's files), and a full collection in a gap
 * between two would set a bounded limit with their buffers still about.
 */
export const QUIET_BEFORE_BOUND_MS = 1000;

let bulkInFlight = 0;
let bounded = false;
let rebound: NodeJS.Timeout | undefined;

function setBounded(want: boolean): void {
  if (want === bounded) return;
  bounded = want;
  setFlagsFromString(`--heap-growing-percent=${want ? BOUNDED_GROWTH_PERCENT : BULK_GROWTH_PERCENT}`);
}

/** True while the heap's growth is bounded: nothing of BULK_BODY_BYTES or more in flight. */
export function heapGrowthBounded(): boolean {
  return bounded;
}

/** A body's length as callers have it: a number, or a Content-Length header's text; else unknown. */
function lengthOf(length: unknown): number | undefined {
  const n = typeof length === 'number' ? length : typeof length === 'string' && /^\d+$/.test(length) ? Number(length) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Marks a body of `length` (a number or a Content-Length header; unknown counts as bulk) as in
 * flight when it is bulk; the returned function ends it, and does nothing when called again.
 */
export function bodyInFlight(length: unknown): () => void {
  const bytes = lengthOf(length);
  if (bytes !== undefined && bytes < BULK_BODY_BYTES) return noop;
  bulkInFlight++;
  clearTimeout(rebound);
  rebound = undefined;
  setBounded(false);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--bulkInFlight > 0) return;
    rebound = setTimeout(() => {
      rebound = undefined;
      setBounded(true);
    }, QUIET_BEFORE_BOUND_MS);
    // Waiting to bound the heap again is no reason to keep a process alive.
    rebound.unref();
  };
}

function noop(): void {}

setBounded(true);
