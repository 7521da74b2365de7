import { CofferError } from '../../../src-shared/errors.js';
import { createHash } from 'node:crypto';
import { bytesSha256Hex, EMPTY_SHA256, sameSignature } from './canonical.js';
import { S3Error } from './errors.js';
import type { SigV4Context } from './sigv4.js';

const MAX_LINE = 8192;

/** Pulls bytes from a stream on demand: lines (up to CRLF) and exact byte counts. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private done = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async more(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.source.next();
    if (next.done) {
      this.done = true;
      return false;
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, next.value]) : next.value;
    return true;
  }

  /** A line without its CRLF; undefined at the end of the stream. */
  async line(): Promise<string | undefined> {
    for (;;) {
      const at = this.buf.indexOf('\r\n');
      if (at >= 0) {
        const line = this.buf.subarray(0, at).toString('latin1');
        this.buf = this.buf.subarray(at + 2);
        return line;
      }
      if (this.buf.length > MAX_LINE) throw new S3Error(400, 'InvalidRequest', 'Malformed aws-chunked encoding: line too long');
      if (!(await this.more())) {
        if (this.buf.length === 0) return undefined;
        const rest = this.buf.toString('latin1');
        this.buf = Buffer.alloc(0);
        return rest;
      }
    }
  }

  /** Exactly n bytes, delivered in pieces as they arrive. */
  async *bytes(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0 && !(await this.more())) throw incomplete();
      const piece = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }
}

const incomplete = () =>
  new CofferError('IncompleteBody');

export interface ChunkedOptions {
  /** Set for the signed modes (chunk-signature chain); undefined for STREAMING-UNSIGNED-PAYLOAD-TRAILER. */
  signing?: SigV4Context;
  signedTrailer: boolean;
  decodedLength: number;
  /** Receives each trailing header (lower-case name -> value), e.g. x-amz-checksum-crc32. */
  onTrailer: (name: string, value: string) => void;
}

/**
 * Decodes an aws-chunked body (§18.3) into the object's bytes, verifying each chunk signature
 * (chained from the request's signature) and the trailer signature, and checking that the
 * decoded length is what `x-amz-decoded-content-length` promised.
 */
export async function* decodeAwsChunked(source: AsyncIterable<Buffer>, o: ChunkedOptions): AsyncGenerator<Buffer> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  let previous = o.signing?.seedSignature ?? '';
  let total = 0;
  const sign = (kind: 'PAYLOAD' | 'TRAILER', hash: string) => {
    const s = o.signing!;
    return s.key.hex([`AWS4-HMAC-SHA256-${kind}`, s.amzDate, s.scope, previous, ...(kind === 'PAYLOAD' ? [EMPTY_SHA256] : []), hash].join('\n'));
  };
  for (;;) {
    const header = await reader.line();
    if (header === undefined) throw incomplete();
    const [sizeHex = '', ...ext] = header.split(';');
    if (!/^[0-9a-fA-F]+$/.test(sizeHex.trim())) throw new S3Error(400, 'InvalidRequest', 'Malformed aws-chunked encoding: bad chunk size');
    const size = parseInt(sizeHex, 16);
    const hash = createHash('sha256');
    for await (const piece of reader.bytes(size)) {
      total += piece.length;
      if (total > o.decodedLength) throw new S3Error(400, 'InvalidRequest', 'The aws-chunked body is longer than x-amz-decoded-content-length');
      if (o.signing) hash.update(piece);
      yield piece;
    }
    if (o.signing) {
      const given = ext.map((e) => e.trim()).find((e) => e.startsWith('chunk-signature='))?.slice('chunk-signature='.length);
      const expected = sign('PAYLOAD', hash.digest('hex'));
      if (given === undefined || !sameSignature(expected, given)) throw new S3Error(403, 'SignatureDoesNotMatch', 'The chunk signature does not match.');
      previous = expected;
    }
    if (size === 0) break;
    const end = await reader.line();
    if (end !== '') throw incomplete();
  }
  if (total !== o.decodedLength) throw incomplete();
  const trailers: [string, string][] = [];
  let trailerSignature: string | undefined;
  for (let line = await reader.line(); line !== undefined && line !== ''; line = await reader.line()) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new S3Error(400, 'MalformedTrailerError', 'The request contained trailing data that was not well-formed.');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'x-amz-trailer-signature') trailerSignature = value;
    else trailers.push([name, value]);
  }
  if (o.signing && o.signedTrailer) {
    const canonical = trailers.sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, v]) => `${n}:${v}\n`).join('');
    if (trailerSignature === undefined || !sameSignature(sign('TRAILER', bytesSha256Hex(canonical)), trailerSignature)) {
      throw new S3Error(403, 'SignatureDoesNotMatch', 'The trailer signature does not match.');
    }
  }
  for (const [n, v] of trailers) o.onTrailer(n, v);
}
