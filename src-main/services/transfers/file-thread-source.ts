/**
 * What the file thread (file-thread.ts) runs: a string run with `eval`, so the same code runs in
 * Node, in Electron's main process and under the tests, with no file to ship beside the bundle.
 *
 * Requests come in batches and are done in order, one at a time, each with synchronous calls:
 * - `read`: a file's bytes and their MD5;
 * - `write`: bytes hashed, then written to a partial file and renamed into place if their MD5 is
 *   the expected one;
 * - `hash`: the MD5 of a byte range of a file on disk;
 * - `open`, `append`, `finish`, `abort`: a file written as its bytes arrive (a streamed download),
 *   hashed as they go, so it is never read back; `finish` renames it into place only if its length
 *   and MD5 are the expected ones. Its descriptor is the one thing the thread keeps between batches.
 */
export const THREAD_SOURCE = String.raw`
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
// The folder may have been removed since it was made (the cache remembers it): then made again.
function inFolder(file, make) {
  const dir = path.dirname(file);
  makeDir(dir, false);
  try {
    return make();
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    makeDir(dir, true);
    return make();
  }
}
function write(r) {
  const hash = md5(r.bytes);
  if (r.expectMd5 !== undefined && hash !== r.expectMd5) return { md5: hash };
  inFolder(r.partial, () => fs.writeFileSync(r.partial, r.bytes));
  fs.renameSync(r.partial, r.path);
  return { md5: hash, written: true };
}
// One buffer for every hash read: the thread does one thing at a time, and a buffer per part
// would be external memory that waits for a full collection (8 MiB parts of 2 GiB: 256 MiB).
const scratch = Buffer.allocUnsafe(1 << 20);
function hashInto(h, fd, start, end) {
  for (let at = start; at < end; ) {
    const n = fs.readSync(fd, scratch, 0, Math.min(scratch.length, end - at), at);
    if (n === 0) throw Object.assign(new Error('The file ended ' + (end - at) + ' bytes early'), { code: 'ESHORT' });
    h.update(n === scratch.length ? scratch : scratch.subarray(0, n));
    at += n;
  }
}
function hash(r) {
  const h = createHash('md5');
  const fd = fs.openSync(r.path, 'r');
  try {
    hashInto(h, fd, r.start, r.end);
  } finally {
    fs.closeSync(fd);
  }
  return { md5: h.digest('hex') };
}
function read(r) {
  const bytes = fs.readFileSync(r.path);
  return { bytes, md5: md5(bytes) };
}
const streams = new Map();
// A stream resumed after its first 'from' bytes: those are on disk already, and hashed from there.
function open(r) {
  const fd = inFolder(r.partial, () => fs.openSync(r.partial, r.from > 0 ? 'r+' : 'w'));
  const s = { fd, at: r.from, hash: r.hash ? createHash('md5') : undefined };
  streams.set(r.stream, s);
  try {
    if (s.hash && r.from > 0) hashInto(s.hash, fd, 0, r.from);
  } catch (err) {
    abort(r);
    throw err;
  }
  return {};
}
function streamOf(r) {
  const s = streams.get(r.stream);
  if (!s) throw new Error('The file being written was closed');
  return s;
}
function append(r) {
  const s = streamOf(r);
  for (const bytes of r.chunks) {
    for (let done = 0; done < bytes.length; ) done += fs.writeSync(s.fd, bytes, done, bytes.length - done, s.at + done);
    s.at += bytes.length;
    if (s.hash) s.hash.update(bytes);
  }
  return {};
}
function finish(r) {
  const s = streamOf(r);
  streams.delete(r.stream);
  fs.closeSync(s.fd);
  const answer = { length: s.at, md5: s.hash ? s.hash.digest('hex') : undefined };
  if (r.expectLength !== undefined && s.at !== r.expectLength) return answer;
  if (r.expectMd5 !== undefined && answer.md5 !== r.expectMd5) return answer;
  fs.renameSync(r.partial, r.path);
  return { ...answer, written: true };
}
function abort(r) {
  const s = streams.get(r.stream);
  if (!s) return {};
  streams.delete(r.stream);
  fs.closeSync(s.fd);
  return {};
}
const ops = { read, write, hash, open, append, finish, abort };
parentPort.on('message', (batch) => {
  const answers = [];
  const moved = [];
  for (const r of batch) {
    try {
      const a = ops[r.op](r);
      if (a.bytes) {
        // Sent back moved, in a buffer of its own (a small file's bytes are a slice of Node's pool).
        if (a.bytes.byteOffset !== 0 || a.bytes.byteLength !== a.bytes.buffer.byteLength) a.bytes = new Uint8Array(a.bytes);
        moved.push(a.bytes.buffer);
      }
      answers.push({ id: r.id, ...a });
    } catch (err) {
      answers.push({ id: r.id, error: { message: err.message, code: err.code, errno: err.errno, syscall: err.syscall, path: err.path } });
    }
    // A written chunk's buffer goes back, to be freed with the main thread's garbage: V8 collects
    // where memory is allocated, and this thread allocates next to nothing, so it would hold
    // tens of MB of written chunks between its rare collections.
    if (r.chunks) for (const c of r.chunks) moved.push(c.buffer);
  }
  parentPort.postMessage(answers, moved);
});
`;
