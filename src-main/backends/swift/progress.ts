import { pipeline, Transform, type Readable } from 'node:stream';
import { CofferError } from '../../../src-shared/errors.js';

/**
 * Progress for one transfer: bytes are added as they move (from several segment uploads at
 * once), the callback runs at most every `intervalMs` and once more at the end. Totals never go
 * backwards: a segment sent again after a network error does not shrink the bar.
 */
export class Progress {
  private total = 0;
  private reported = -1;
  private last = 0;

  constructor(
    private readonly onProgress: ((bytes: number) => void) | undefined,
    private readonly intervalMs = 250,
  ) {}

  add(n: number): void {
    this.total += n;
    if (!this.onProgress) return;
    const now = Date.now();
    if (now - this.last >= this.intervalMs) this.emit(now);
  }

  /** Takes back bytes of an attempt that failed (they will be counted again when resent). */
  undo(n: number): void {
    this.total -= n;
  }

  flush(): void {
    if (this.onProgress) this.emit(Date.now());
  }

  private emit(now: number): void {
    this.last = now;
    const value = Math.max(this.total, this.reported);
    if (value === this.reported) return;
    this.reported = value;
    this.onProgress?.(value);
  }
}

/**
 * `source` through a pass-through that sees every chunk (to count and hash). Errors travel both
 * ways: a failing source fails the result, and a result torn down early (request aborted)
 * closes the source, so no file stays open. With `expected`, a source shorter or longer than
 * the Content-Length already sent fails at once, instead of leaving the server waiting.
 */
export function metered(source: Readable, onChunk: (chunk: Buffer) => void, expected?: number): Readable {
  let seen = 0;
  const through = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (expected !== undefined && seen > expected) return done(new CofferError('InvalidArgument', `The source is longer than its stated size ${expected}`));
      onChunk(chunk);
      done(null, chunk);
    },
    flush(done) {
      if (expected !== undefined && seen < expected) return done(new CofferError('IncompleteBody', `The source ended ${expected - seen} bytes short of its stated size`));
      done();
    },
  });
  return pipeline(source, through, () => undefined);
}
