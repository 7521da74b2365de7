import { Worker } from 'node:worker_threads';
import { THREAD_SOURCE } from './file-thread-source.js';

/**
 * Small files read and written whole on a thread of their own, hashed there too; streamed
 * downloads written there as their bytes arrive, hashed as they go; and the parts of a large
 * download hashed from disk once written. None of it on the main thread.
 *
 * Why: a folder of small files is bound by the main thread (10,000 downloads of 4 KiB from
 * coffer serve: about 340 µs of it per file, a third of that in the open, write, close and rename
 * calls and their hand-offs to libuv's pool, which contends with the sockets and the queue).
 * A streamed file of 1 MiB was 16 writes through that pool, then read back to be hashed.
 * Here each request is a run of synchronous calls on another core, with no pool in between, and
 * requests and answers travel in batches: one batch with the thread at a time, not a message per
 * file. The thread starts on first use and is let go when idle; nothing about a file is remembered
 * there but the folders already made and the descriptors of the files being written.
 */
type Request =
  | { op: 'read'; path: string }
  | { op: 'hash'; path: string; start: number; end: number }
  | { op: 'write'; path: string; partial: string; bytes: Uint8Array; expectMd5?: string }
  | { op: 'open'; stream: number; partial: string; from: number; hash: boolean }
  | { op: 'append'; stream: number; chunks: Uint8Array[] }
  | ({ op: 'finish'; stream: number; partial: string; path: string } & StreamExpectations)
  | { op: 'abort'; stream: number };

/** What a streamed file must be to be renamed into place. */
export interface StreamExpectations {
  expectLength?: number;
  expectMd5?: string;
}

interface Answer {
  id: number;
  md5?: string;
  bytes?: Uint8Array;
  written?: boolean;
  length?: number;
  error?: { message: string; code?: string; errno?: number; syscall?: string; path?: string };
}
interface Waiting {
  resolve: (a: Answer) => void;
  reject: (e: Error) => void;
  /** The thread it was sent to, once sent: if that thread is lost, so is the answer. */
  thread?: Worker;
}

/** How long the thread may sit idle before it is let go. */
const IDLE_MS = 5000;

export class FileThread {
  /** The threads streamed files are written on, made as needed. */
  private readonly siblings: FileThread[] = [];

  /**
   * `streamThreads`: how many threads of their own streamed files are spread over (0: this one).
   * A write into the page cache can cost as much as hashing the bytes (here, 1,000 downloads of
   * 1 MiB once the VM's host had to supply fresh pages: 4-5 s of copying a GiB), so one thread
   * writing and hashing every stream is then the bound; two share it, as libuv's pool did.
   */
  constructor(private readonly streamThreads = 2) {}

  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private batch: (Request & { id: number })[] = [];
  /** The batch's buffers, moved to the thread with it. */
  private moving: ArrayBuffer[] = [];
  /** A batch is with the thread, not answered yet. */
  private sent = false;
  private nextId = 0;
  private nextStream = 0;
  /** Files being written as they arrive: the thread holds their descriptors, so it is not let go. */
  private openStreams = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  /** A file's bytes and their MD5 (hex). Node's own errors (ENOENT, EISDIR...) as fs would throw them. */
  async read(path: string): Promise<{ bytes: Buffer; md5: string }> {
    const a = await this.ask({ op: 'read', path });
    const u = a.bytes!;
    return { bytes: Buffer.from(u.buffer, u.byteOffset, u.byteLength), md5: a.md5! };
  }

  /** The MD5 (hex) of a file's bytes [start, end), read from disk on the thread (a part of a large download, written a moment before). */
  async hash(path: string, start: number, end: number): Promise<string> {
    return (await this.ask({ op: 'hash', path, start, end })).md5!;
  }

  /**
   * Writes `bytes` to `partial`, then renames it to `path` (its folder made as needed), unless
   * their MD5 is not `expectMd5`: then nothing is written. Resolves with the bytes' MD5 and
   * whether they were written.
   */
  async write(path: string, partial: string, bytes: Buffer, expectMd5?: string): Promise<{ md5: string; written: boolean }> {
    // A Buffer is often a view into a larger ArrayBuffer (a socket's read buffer, Node's pool),
    // and a message copies the whole of that (64 KiB for a 4 KiB body): the thread gets an exact
    // copy instead, moved to it rather than copied again.
    const own = new Uint8Array(bytes.length);
    own.set(bytes);
    this.moving.push(own.buffer);
    const a = await this.ask({ op: 'write', path, partial, bytes: own, ...(expectMd5 !== undefined ? { expectMd5 } : {}) });
    return { md5: a.md5!, written: a.written === true };
  }

  /**
   * Begins a file written as its bytes arrive, on one of the stream threads (`thread`, which takes
   * the rest of the stream): `partial` is made (its folder too), or, `from` bytes into a resumed
   * download, written on from there (those bytes hashed from disk first). `opened` fails as fs
   * would; whatever follows for the stream fails too then.
   */
  openStream(partial: string, from: number, hash: boolean): { thread: FileThread; stream: number; opened: Promise<unknown> } {
    const stream = this.nextStream++;
    if (this.streamThreads === 0) {
      this.openStreams++;
      return { thread: this, stream, opened: this.ask({ op: 'open', stream, partial, from, hash }) };
    }
    const thread = (this.siblings[stream % this.streamThreads] ??= new FileThread(0));
    return thread.openStream(partial, from, hash);
  }

  /** Writes the next chunks of a stream; each must be a whole buffer of its own: they are moved to the thread, unusable here after. */
  async appendStream(stream: number, chunks: Uint8Array[]): Promise<void> {
    for (const c of chunks) this.moving.push(c.buffer as ArrayBuffer);
    await this.ask({ op: 'append', stream, chunks });
  }

  /** Closes a stream; renames it to `path` (written: true) only if it is what was expected. */
  async finishStream(stream: number, partial: string, path: string, expect: StreamExpectations): Promise<{ length: number; md5?: string; written: boolean }> {
    this.openStreams--;
    const a = await this.ask({ op: 'finish', stream, partial, path, ...expect });
    return { length: a.length!, ...(a.md5 !== undefined ? { md5: a.md5 } : {}), written: a.written === true };
  }

  /** Closes a stream and leaves its partial file as it is (a resume may go on from it). */
  async abortStream(stream: number): Promise<void> {
    this.openStreams--;
    await this.ask({ op: 'abort', stream });
  }

  /** Stops the thread; what was asked of it and not answered fails. */
  async close(): Promise<void> {
    await Promise.all(this.siblings.map((t) => t.close()));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const worker = this.worker;
    this.worker = undefined;
    this.sent = false;
    if (worker) await worker.terminate();
  }

  private ask(r: Request): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject });
      // One batch with the thread at a time: what is asked meanwhile waits for its answer and goes
      // together (waking a thread costs more here than the work of a small file).
      if (this.batch.push({ ...r, id }) === 1 && !this.sent) setImmediate(() => this.send());
    });
  }

  private send(): void {
    if (this.sent || this.batch.length === 0) return;
    this.sent = true;
    const batch = this.batch;
    const moving = this.moving;
    this.batch = [];
    this.moving = [];
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const thread = this.thread();
    for (const r of batch) this.waiting.get(r.id)!.thread = thread;
    thread.postMessage(batch, moving);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true });
    // Never what keeps the process alive: it only ever works for a caller waiting on it.
    worker.unref();
    worker.on('message', (answers: Answer[]) => this.answered(answers));
    worker.once('error', (err) => this.lost(worker, err));
    worker.once('exit', () => this.lost(worker, new Error('The file thread stopped')));
    this.worker = worker;
    return worker;
  }

  private answered(answers: Answer[]): void {
    this.sent = false;
    for (const a of answers) {
      const w = this.waiting.get(a.id);
      this.waiting.delete(a.id);
      if (!w) continue;
      if (a.error) w.reject(Object.assign(new Error(a.error.message), a.error));
      else w.resolve(a);
    }
    if (this.batch.length > 0) return this.send();
    if (this.waiting.size > 0 || this.openStreams > 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS).unref();
  }

  private lost(worker: Worker, err: Error): void {
    if (this.worker !== worker) return this.rejectSentTo(worker, err);
    this.worker = undefined;
    this.sent = false;
    this.rejectSentTo(worker, err);
    // What waited for the lost batch's answer goes to a new thread.
    if (this.batch.length > 0) setImmediate(() => this.send());
  }

  private rejectSentTo(worker: Worker, err: Error): void {
    for (const [id, w] of this.waiting) {
      if (w.thread !== worker) continue;
      this.waiting.delete(id);
      w.reject(err);
    }
  }
}
