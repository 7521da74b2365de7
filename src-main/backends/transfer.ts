// Pieces every backend needs to move bytes: progress reports that do not flood the UI, a
// counting pass-through for streams, and cancellation that reaches a stream stuck waiting.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { CofferError } from '../../src-shared/errors.js';
import type { UploadSource } from './object-backend.js';

/** The MD5 (hex) of bytes in memory: the caller's when it gave a well-formed one (it hashed them as it read them), else hashed here. */
export const md5HexOf = (bytes: Buffer, given?: string): string => (given && /^[0-9a-f]{32}$/.test(given) ? given : createHash('md5').update(bytes).digest('hex'));

/** At most ~5 reports a second: progress feeds a UI over IPC, more would only cost. */
export const PROGRESS_INTERVAL_MS = 200;

/**
 * Counts bytes and reports them through `onProgress`, at most once per interval while bytes
 * flow, and always once at the end (`finish`) so the UI sees the exact total.
 */
export class ProgressMeter {
  private bytes = 0;
  private lastReport = 0;
  private reported = -1;

  constructor(
    private readonly onProgress: ((bytes: number) => void) | undefined,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  get total(): number {
    return this.bytes;
  }

  add(n: number): void {
    this.bytes += n;
    const now = Date.now();
    if (this.onProgress && now - this.lastReport >= this.intervalMs) {
      this.lastReport = now;
      this.report();
    }
  }

  finish(): void {
    if (this.reported !== this.bytes) this.report();
  }

  private report(): void {
    this.reported = this.bytes;
    this.onProgress?.(this.bytes);
  }
}

/** A pass-through that feeds the meter as bytes go by; backpressure is kept (no 'data' listener). */
export function countingStream(meter: ProgressMeter): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      meter.add(chunk.length);
      done(null, chunk);
    },
  });
}

export function abortedError(what = 'The transfer'): CofferError {
  return new CofferError('Aborted', `${what} was cancelled`);
}

export function throwIfAborted(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted) throw abortedError(what);
}

/**
 * Destroys `stream` with an Aborted error when `signal` fires, so a reader waiting on it (for a
 * chunk that may never come) fails at once; for a request, as http.request's `signal` option
 * does, without the stream machinery that option hooks up for every request (a tenth of the
 * client's allocations in a folder of small files). Returns the function that removes the listener.
 */
export function destroyOnAbort(stream: { destroy(err?: Error): unknown }, signal: AbortSignal | undefined, what?: string): () => void {
  if (!signal) return () => undefined;
  const onAbort = () => stream.destroy(abortedError(what));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/**
 * `work`, or an Aborted error as soon as `signal` fires: for a step shared with other callers
 * (a server's capabilities, asked for once), which one caller's cancel must not stop, nor wait on.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, what?: string): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortedError(what));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(what));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The bytes of an upload as one stream, with their size when known (a file's from stat). */
export async function openUploadSource(source: UploadSource): Promise<{ stream: Readable; size: number | undefined }> {
  if ('stream' in source) return { stream: source.stream, size: source.size };
  let size: number;
  try {
    const st = await stat(source.path);
    if (!st.isFile()) throw new CofferError('InvalidArgument', `${source.path} is not a file`);
    size = st.size;
  } catch (err) {
    if (err instanceof CofferError) throw err;
    throw new CofferError('InvalidArgument', `Cannot read ${source.path}: ${(err as Error).message}`);
  }
  return { stream: createReadStream(source.path), size };
}

/**
 * `body` as seen through a progress meter and an abort signal: progress as the reader consumes
 * it (exact total at the end), and cancellation that destroys it even while nobody reads.
 * Errors of `body` reach the reader (through `failure` when the meter stands between them: a
 * response's socket errors made the backend's own); closing the result closes `body`.
 */
export function metered(body: Readable, opts: { signal?: AbortSignal; onProgress?: (bytes: number) => void }, what?: string, failure: (err: Error) => Error = (err) => err): Readable {
  if (!opts.signal && !opts.onProgress) return body;
  if (!opts.onProgress) {
    // Nothing to count: the body itself is destroyed on abort, with no stream in between (a
    // folder of small files read whole saves a stream per file).
    const detach = destroyOnAbort(body, opts.signal, what);
    body.once('close', detach);
    return body;
  }
  const meter = new ProgressMeter(opts.onProgress);
  const out = countingStream(meter);
  body.once('error', (err) => out.destroy(failure(err)));
  out.once('end', () => meter.finish());
  const detach = destroyOnAbort(out, opts.signal, what);
  out.once('close', () => {
    detach();
    body.destroy();
  });
  body.pipe(out);
  return out;
}

/** MD5 (hex) of a byte range of a file: checks a part already on the server before a resumed upload skips it. */
export async function md5OfRange(path: string, start: number, end: number, signal?: AbortSignal): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path, { start, end, ...(signal ? { signal } : {}) }) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

/** What a resumable multipart upload needs to go on: its id, and the part size its parts were cut at. */
export interface MultipartResumeToken {
  uploadId: string;
  partSize: number;
  /** The server keeps the object's full CRC32 from the parts' (it answered the upload's x-amz-checksum-algorithm): every part sends its own. */
  crc32?: true;
}

/** The token saved by an earlier attempt, if it is one (anything else starts a new upload). */
export function parseResumeToken(token: string | null): MultipartResumeToken | undefined {
  try {
    const t = token ? (JSON.parse(token) as MultipartResumeToken) : undefined;
    return t && typeof t.uploadId === 'string' && Number.isInteger(t.partSize) && t.partSize > 0 ? t : undefined;
  } catch {
    return undefined;
  }
}
