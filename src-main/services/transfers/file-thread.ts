import { Worker } from 'node:worker_threads';

/**
 * Small files read and written whole on a thread of their own, hashed there too; and the parts
 * of a large download hashed from disk once written, off the main thread.
 *
 * Why: a folder of small files is bound by the main thread (10,000 downloads of 4 KiB from
 * coffer serve: about 340 µs of it per file, a third of that in the open, write, close and rename
 * calls and their hand-offs to libuv's pool, which contends with the sockets and the queue).
 * Here each file is one run of synchronous calls on another core, with no pool in between, and
 * requests and answers travel in batches: one batch with the thread at a time, not a message per
 * file. The thread starts on first use and is let go when idle; nothing about a file is remembered
 * there but the folders already made. Its source is a string run with `eval`, so the same code
 * runs in Node, in Electron's main process and under the tests, with no file to ship beside the
 * bundle.
 */
const THREAD_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const path = require('node:path');
const made = new Set();
const md5 = (bytes) => createHash('md5').update(bytes).digest('hex');
function makeDir(dir, again) {
  if (made.has(dir) && !again) return;
  fs.mkdirSync(dir, { recursive: true });
  if (made.size >= 256) made.clear();
  made.add(dir);
}
function write(r) {
  const hash = md5(r.bytes);
  if (r.expectMd5 !== undefined && hash !== r.expectMd5) return { md5: hash };
  const dir = path.dirname(r.path);
  makeDir(dir, false);
  try {
    fs.writeFileSync(r.partial, r.bytes);
  } catch (err) {
    // The folder was removed since it was made (the cache remembers it): make it again.
    if (err.code !== 'ENOENT') throw err;
    makeDir(dir, true);
    fs.writeFileSync(r.partial, r.bytes);
  }
  fs.renameSync(r.partial, r.path);
  return { md5: hash, written: true };
}
// One buffer for every hash read: the thread does one thing at a time, and a buffer per part
// would be external memory that waits for a full collection (8 MiB parts of 2 GiB: 256 MiB).
const scratch = Buffer.allocUnsafe(1 << 20);
function hash(r) {
  const h = createHash('md5');
  const fd = fs.openSync(r.path, 'r');
  try {
    const chunk = scratch;
    for (let at = r.start; at < r.end; ) {
      const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, r.end - at), at);
      if (n === 0) throw Object.assign(new Error('The file ended ' + (r.end - at) + ' bytes early'), { code: 'ESHORT' });
      h.update(n === chunk.length ? chunk : chunk.subarray(0, n));
      at += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { md5: h.digest('hex') };
}
function read(r) {
  const bytes = fs.readFileSync(r.path);
  return { bytes, md5: md5(bytes) };
}
parentPort.on('message', (batch) => {
  const answers = [];
  const moved = [];
  for (const r of batch) {
    try {
      const a = r.op === 'read' ? read(r) : r.op === 'hash' ? hash(r) : write(r);
      if (a.bytes) {
        // Sent back moved, in a buffer of its own (a small file's bytes are a slice of Node's pool).
        if (a.bytes.byteOffset !== 0 || a.bytes.byteLength !== a.bytes.buffer.byteLength) a.bytes = new Uint8Array(a.bytes);
        moved.push(a.bytes.buffer);
      }
      answers.push({ id: r.id, ...a });
    } catch (err) {
      answers.push({ id: r.id, error: { message: err.message, code: err.code, errno: err.errno, syscall: err.syscall, path: err.path } });
    }
  }
  parentPort.postMessage(answers, moved);
});
`;

type Request = { op: 'read'; path: string } | { op: 'hash'; path: string; start: number; end: number } | { op: 'write'; path: string; partial: string; bytes: Uint8Array; expectMd5?: string };
interface Answer {
  id: number;
  md5?: string;
  bytes?: Uint8Array;
  written?: boolean;
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
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private batch: (Request & { id: number })[] = [];
  /** The batch's buffers, moved to the thread with it. */
  private moving: ArrayBuffer[] = [];
  /** A batch is with the thread, not answered yet. */
  private sent = false;
  private nextId = 0;
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

  /** Stops the thread; what was asked of it and not answered fails. */
  async close(): Promise<void> {
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
    if (this.waiting.size > 0) return;
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
