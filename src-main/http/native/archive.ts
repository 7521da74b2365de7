import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import unbzip2 from 'unbzip2-stream';

// Reads a tar archive (plain, gzip or bzip2) from a stream, one member at a time, as Swift's bulk
// middleware reads it with Python's tarfile in stream mode ('r|', 'r|gz', 'r|bz2'): nothing of
// the archive is held beyond the member being stored, and its refusals say what tarfile says.

export type Compression = 'tar' | 'gz' | 'bz2';

/** `?extract-archive=` values Swift takes, after `.strip('.')` and lower-casing. */
export function compressionOf(value: string): Compression | undefined {
  const v = value.toLowerCase().replace(/^\.+|\.+$/g, '');
  return v === 'tar' ? 'tar' : v === 'tar.gz' ? 'gz' : v === 'tar.bz2' ? 'bz2' : undefined;
}

/** A regular file of the archive: its path as written, its size, its pax attributes, its bytes. */
export interface ArchiveMember {
  path: string;
  size: number;
  /** Pax records of the member's extended header (`SCHILY.xattr.user.meta.color` and the like). */
  pax: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

/** Why the archive could not be read, in tarfile's words (Swift answers `Invalid Tar File: <message>`). */
export class ArchiveError extends Error {}

/** tarfile's regular files (REGTYPE, AREGTYPE, CONTTYPE): all else (directories, links, devices) is skipped. */
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const BLOCK = 512;

/** Pax records (`<length> <key>=<value>\n`, the length counting the whole record), or undefined when `text` is not a pax header. */
export function parsePax(text: string): Record<string, string> | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const out: Record<string, string> = {};
  let at = 0;
  while (at < bytes.length) {
    if (bytes[at] === 0) break;
    const space = bytes.indexOf(0x20, at);
    if (space < 0) return undefined;
    const length = Number(bytes.subarray(at, space).toString('latin1'));
    if (!Number.isInteger(length) || length <= space - at + 1 || at + length > bytes.length || bytes[at + length - 1] !== 0x0a) return undefined;
    const record = bytes.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq <= 0) return undefined;
    out[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return out;
}

/** zlib's and unbzip2's errors in tarfile's words. */
function decompressionMessage(compression: Compression, err: Error): string {
  if (/unexpected end/i.test(err.message)) return 'unexpected end of data';
  if (compression === 'gz' && /header check/i.test(err.message)) return 'not a gzip file';
  return 'invalid compressed data';
}

/**
 * Hands each regular file of the archive to `onMember`, one after the other (the next is not
 * read before the last is stored); `onMember` answers 'stop' to skip the rest (the body is still
 * read to its end, so the client gets its answer). Rejects with an ArchiveError where tarfile
 * would raise: nothing readable at the start, a member or its padding cut short, bad compression.
 * As tarfile, an unreadable header after the first ends the archive without an error.
 */
export function readArchive(body: Readable, compression: Compression, onMember: (m: ArchiveMember) => Promise<'more' | 'stop'>): Promise<void> {
  return new Promise((resolve, reject) => {
    const parser = new Parser({ strict: false, brotli: false, zstd: false });
    const source: Readable = compression === 'gz' ? body.pipe(createGunzip()) : compression === 'bz2' ? (body.pipe(unbzip2()) as unknown as Readable) : body;
    let compressed = 0;
    let fed = 0;
    let headerSeen = false;
    let compressedHead = false;
    let stopped = false;
    let failure: ArchiveError | undefined;
    let thrown: { err: unknown } | undefined;
    let chain = Promise.resolve();
    let pax: Record<string, string> = {};

    const fail = (message: string) => {
      failure ??= new ArchiveError(message);
      stopped = true;
    };
    // What the first block says when it is no header: tarfile tells an empty body, a short one and junk apart.
    const firstHeaderProblem = () => (compressed === 0 ? 'empty file' : fed < BLOCK ? 'truncated header' : 'invalid header');

    parser.on('meta', (text: string) => {
      headerSeen = true;
      // node-tar keeps only the pax keys it knows; the xattrs Swift reads are parsed here. (A long
      // name's GNU header is no pax text and is skipped; node-tar applies it to the path itself.)
      const records = parsePax(text);
      if (records) Object.assign(pax, records);
    });
    parser.on('nullBlock', () => {
      headerSeen = true;
    });
    parser.on('warn', (code: string, message: string) => {
      if (code === 'TAR_BAD_ARCHIVE' && /^Truncated input/.test(message)) fail('unexpected end of data');
      else if (!headerSeen) fail(firstHeaderProblem());
      // tarfile reads an unreadable header after the first as the archive's end.
      else stopped = true;
    });
    parser.on('entry', (entry: ReadEntry) => {
      headerSeen = true;
      const attributes = pax;
      pax = {};
      if (stopped || !FILE_TYPES.has(entry.type)) {
        entry.resume();
        return;
      }
      chain = chain.then(async () => {
        try {
          if ((await onMember({ path: entry.path, size: entry.size, pax: attributes, body: entry })) === 'stop') stopped = true;
        } catch (err) {
          // The rest of the archive is still read (and dropped), so the client gets the answer.
          thrown ??= { err };
          stopped = true;
        } finally {
          // Whatever the store did not read is read and dropped, so the next member can follow.
          entry.resume();
        }
      });
    });
    parser.on('end', () => {
      if (!headerSeen && !failure) fail(firstHeaderProblem());
      void chain.then(() => (thrown ? reject(thrown.err) : failure ? reject(failure) : resolve()));
    });

    const onError = (err: Error) => {
      fail(compression === 'tar' ? 'unexpected end of data' : decompressionMessage(compression, err));
      parser.end();
    };
    body.on('data', (chunk: Buffer) => {
      compressed += chunk.length;
    });
    body.on('error', onError);
    if (source !== body) source.on('error', onError);
    source.on('data', (chunk: Buffer) => {
      const first = fed === 0;
      fed += chunk.length;
      // tarfile never decompresses on its own: a compressed body where a tar is expected is no
      // header (node-tar would unpack it).
      if (first && chunk[0] === 0x1f && chunk[1] === 0x8b) compressedHead = true;
      if (compressedHead) return;
      if (!parser.write(chunk)) {
        source.pause();
        parser.once('drain', () => source.resume());
      }
    });
    source.on('end', () => {
      if (compressedHead) fail(fed < BLOCK ? 'truncated header' : 'invalid header');
      parser.end();
    });
    // A client gone before its body ended: no 'end' follows.
    body.on('close', () => {
      if (!body.readableEnded) onError(new Error('unexpected end of data'));
    });
  });
}
