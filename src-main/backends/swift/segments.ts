import { Readable } from 'node:stream';
import { CofferError } from '../../../src-shared/errors.js';

/**
 * Cuts a one-shot stream into consecutive pieces of exact lengths without reading ahead more
 * than one chunk, so a stream source is segmented with flat memory.
 */
export class StreamSlicer {
  private readonly it: AsyncIterator<Buffer | string>;
  private carry: Buffer | undefined;

  constructor(stream: Readable) {
    this.it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  }

  private async chunk(): Promise<Buffer | undefined> {
    if (this.carry) {
      const c = this.carry;
      this.carry = undefined;
      return c;
    }
    const r = await this.it.next();
    if (r.done) return undefined;
    return typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
  }

  /** The next `length` bytes as a stream; fails with IncompleteBody if the source ends first. */
  take(length: number): Readable {
    const generate = async function* (this: StreamSlicer) {
      let left = length;
      while (left > 0) {
        const c = await this.chunk();
        if (!c) throw new CofferError('IncompleteBody', `The source ended ${left} bytes short of its stated size`);
        if (c.length > left) {
          this.carry = c.subarray(left);
          yield c.subarray(0, left);
          left = 0;
        } else {
          left -= c.length;
          if (c.length) yield c;
        }
      }
    };
    return Readable.from(generate.call(this), { objectMode: false });
  }

  /** True when nothing is left (a source longer than its stated size is an error, not silently cut). */
  async atEnd(): Promise<boolean> {
    const c = await this.chunk();
    if (c && c.length) {
      this.carry = c;
      return false;
    }
    return c === undefined || (await this.atEnd());
  }

  close(): void {
    void this.it.return?.();
  }
}

/**
 * Runs `fn` over `items` with at most `limit` at a time. The first failure stops the others
 * (their requests are aborted) and is the one reported; a cancellation by the caller wins.
 */
export async function inPool<T>(items: T[], limit: number, signal: AbortSignal | undefined, fn: (item: T, signal: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && !stop.signal.aborted && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item, stop.signal);
      } catch (err) {
        failure ??= err;
        stop.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) throw new CofferError('Aborted', 'The transfer was cancelled');
  if (failure !== undefined) throw failure;
}
