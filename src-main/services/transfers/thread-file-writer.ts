import { Writable } from 'node:stream';
import type { FileThread, StreamExpectations } from './file-thread.js';

/**
 * A streamed download's bytes written to its partial file by the file thread, hashed there as
 * they arrive. What arrives while the thread writes waits here and goes over with the thread's
 * next batch; past the high-water mark the download waits for the thread.
 *
 * Why: through fs.WriteStream a file of 1 MiB was 16 writes handed to libuv's pool from the main
 * thread, then read back on the file thread to be hashed: for 1,000 such downloads, the hand-offs
 * (not the copying) were the main thread's largest single cost, about a fifth of its busy time.
 */
export class ThreadFileWriter extends Writable {
  /** The file as finished: its length, its MD5 if hashed, and whether it was renamed into place. */
  result: { length: number; md5?: string; written: boolean } | undefined;
  /** Settles once the thread has closed the file, however the stream ended. */
  readonly released: Promise<void>;
  private readonly stream: number;
  /** The thread this stream is written on. */
  private readonly files: FileThread;
  private readonly opened: Promise<unknown>;
  private markClosed!: () => void;
  /** Its finish or abort has been asked for: the thread is told once. */
  private closing = false;

  constructor(
    threads: FileThread,
    private readonly target: { partial: string; path: string; from: number; hash: boolean } & StreamExpectations,
  ) {
    // Enough to keep the socket read while the thread answers its last batch (a few ms).
    super({ highWaterMark: 256 * 1024 });
    this.released = new Promise((resolve) => (this.markClosed = resolve));
    ({ thread: this.files, stream: this.stream, opened: this.opened } = threads.openStream(target.partial, target.from, target.hash));
    // Its failure is reported by the first write or the finish, whichever comes first.
    this.opened.catch(() => undefined);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.send([chunk], done);
  }

  override _writev(chunks: { chunk: Buffer }[], done: (err?: Error | null) => void): void {
    this.send(chunks.map((c) => c.chunk), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    this.closing = true;
    const { partial, path, expectLength, expectMd5 } = this.target;
    const finished = this.files.finishStream(this.stream, partial, path, { ...(expectLength !== undefined ? { expectLength } : {}), ...(expectMd5 !== undefined ? { expectMd5 } : {}) });
    Promise.all([this.opened, finished]).then(
      ([, result]) => {
        this.result = result;
        done();
      },
      (err: Error) => done(err),
    );
    void finished.then(this.markClosed, this.markClosed);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    if (!this.closing) {
      this.closing = true;
      this.files.abortStream(this.stream).then(this.markClosed, this.markClosed);
    }
    done(err);
  }

  /**
   * The chunks moved to the thread, not copied: a body's chunk from Node's HTTP parser is a
   * buffer of its own, and nothing reads it once written. A chunk that is a view into a larger
   * buffer (a pool's) is copied into one of its own first, as moving it would take the rest along.
   */
  private send(chunks: Buffer[], done: (err?: Error | null) => void): void {
    const own = chunks.map((c) => (c.byteOffset === 0 && c.byteLength === c.buffer.byteLength && c.buffer instanceof ArrayBuffer ? c : new Uint8Array(c)));
    Promise.all([this.opened, this.files.appendStream(this.stream, own)]).then(() => done(), (err: Error) => done(err));
  }
}
