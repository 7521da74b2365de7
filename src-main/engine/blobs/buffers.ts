/**
 * Buffers that stored bytes are read into, lent out as the chunks of an object's body and given
 * back once a response has written them (`returnBlobBuffer`, from the HTTP layer's write
 * callback): a large GET reuses a few instead of allocating one per read.
 *
 * Why: every fresh buffer is memory outside V8's heap that only a full collection frees once it
 * has outlived two young ones (as a chunk waiting in a socket's queue does), and V8 starts a full
 * collection for every few tens of MB of it: 67 full collections for one 2 GiB GET of `coffer
 * serve` (aws-cli, ranges), about 4 s of its CPU; with reused buffers 0-2, about 1 s. (Writes
 * copied into such buffers instead of holding a request's chunks until their disk write took
 * twice the server's CPU for a 2 GiB upload: left out.)
 *
 * A chunk nobody gives back (a consumer other than a response: a copy, the app's own download)
 * is simply never reused; only one lent out and not yet given back is ever taken back.
 */
export const BLOB_BUFFER_BYTES = 512 * 1024;
/** Free buffers kept for the next read; more are let go (8 MiB at most held idle). */
const KEEP_FREE = 16;

const free: Buffer[] = [];
const lent = new WeakSet<ArrayBufferLike>();

export function takeBlobBuffer(): Buffer {
  const buf = free.pop() ?? Buffer.allocUnsafeSlow(BLOB_BUFFER_BYTES);
  lent.add(buf.buffer);
  return buf;
}

/** Gives back the buffer a chunk (or a slice of it) was read into; any other chunk is ignored. */
export function returnBlobBuffer(chunk: Uint8Array): void {
  const whole = chunk.buffer;
  if (!lent.has(whole)) return;
  lent.delete(whole);
  if (free.length < KEEP_FREE) free.push(Buffer.from(whole, 0, BLOB_BUFFER_BYTES));
}
