// A multipart/form-data body read part by part as it streams in, as Swift's formpost reads it
// (swift.common.utils iter_multipart_mime_documents, parse_mime_headers,
// parse_content_disposition): a part's bytes are handed on as they arrive, never held whole.
// S3's POST Object reads its form with it too.

/** `value; a=1; b="two"` -> ['value', {a: '1', b: 'two'}], as Swift's parse_content_disposition reads it. */
export function parseContentDisposition(header: string): [string, Record<string, string>] {
  const attributes: Record<string, string> = {};
  const semi = header.indexOf(';');
  if (semi < 0) return [header, attributes];
  let attrs = header.slice(semi + 1).trim();
  const value = header.slice(0, semi).trim();
  for (let m = /^(\w+)=("[^"]*"|[^";]*)(; ?|$)/.exec(attrs); m && m[0] !== ''; m = /^(\w+)=("[^"]*"|[^";]*)(; ?|$)/.exec(attrs)) {
    attrs = attrs.slice(m[0].length);
    attributes[m[1]!] = m[2]!.replace(/^"+|"+$/g, '');
  }
  return [value, attributes];
}

/** One part: its headers (names lower-cased) and its bytes, to be read (or skipped) before the next part. */
export interface FormPart {
  headers: Record<string, string>;
  body: AsyncIterable<Buffer>;
}

/** The body did not start with the boundary (Swift: 400 `FormPost: invalid starting boundary`). */
export class InvalidBoundary extends Error {}

const CRLF = Buffer.from('\r\n');

/**
 * Reads the parts of a multipart body one after the other. Each part's body must be consumed
 * (or `skip`ped) before asking for the next. The body ends at the closing boundary or, as in
 * Swift, at the end of the stream.
 */
export class MultipartReader {
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;
  private noMoreParts = false;
  private partOpen = false;
  private started = false;
  private readonly source: AsyncIterator<Buffer>;
  private readonly delimiter: Buffer;
  private readonly opening: string;

  constructor(source: AsyncIterable<Buffer>, boundary: string) {
    this.source = source[Symbol.asyncIterator]();
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    this.opening = `--${boundary}`;
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const r = await this.source.next();
    if (r.done) {
      this.ended = true;
      return false;
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, r.value]) : r.value;
    return true;
  }

  /** One line (CRLF-terminated, or up to `max` bytes, or what is left), as Python's readline. */
  private async line(max: number): Promise<Buffer> {
    for (;;) {
      const nl = this.buf.indexOf(CRLF);
      if (nl >= 0 && nl + 2 <= max) return this.take(nl + 2);
      if (this.buf.length >= max || !(await this.more())) return this.take(Math.min(max, this.buf.length));
    }
  }

  private take(n: number): Buffer {
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** The next part, or undefined after the last. Throws InvalidBoundary when the body does not open with the boundary. */
  async next(): Promise<FormPart | undefined> {
    if (this.partOpen) throw new Error('the previous part was not read to its end');
    if (!this.started) {
      this.started = true;
      const max = this.opening.length + 2;
      let first = await this.line(max);
      while (first.equals(CRLF)) first = await this.line(max);
      if (first.toString('latin1').trim() !== this.opening) throw new InvalidBoundary(`invalid starting boundary`);
    } else if (this.noMoreParts) return undefined;
    const headers: Record<string, string> = {};
    for (;;) {
      const raw = await this.readHeaderLine();
      if (raw === undefined) break;
      const text = raw.toString('utf8');
      const colon = text.indexOf(':');
      if (colon > 0) headers[text.slice(0, colon).trim().toLowerCase()] = text.slice(colon + 1).trim();
    }
    this.partOpen = true;
    return { headers, body: this.partBody() };
  }

  /** A header line within the part (before its boundary), undefined at the blank line or the part's end. */
  private async readHeaderLine(): Promise<Buffer | undefined> {
    for (;;) {
      const nl = this.buf.indexOf(CRLF);
      const boundary = this.buf.indexOf(this.delimiter);
      if (nl >= 0 && (boundary < 0 || nl < boundary)) {
        const line = this.take(nl + 2);
        return line.length === 2 ? undefined : line.subarray(0, line.length - 2);
      }
      if (boundary >= 0 || !(await this.more())) return undefined;
    }
  }

  /** The part's bytes up to the next boundary; the boundary and the two bytes after it are consumed. */
  private async *partBody(): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        const at = this.buf.indexOf(this.delimiter);
        if (at >= 0) {
          if (at > 0) yield Buffer.from(this.take(at));
          this.take(this.delimiter.length);
          while (this.buf.length < 2 && (await this.more()));
          if (this.buf.subarray(0, 2).toString('latin1') === '--' || this.buf.length === 0) this.noMoreParts = true;
          this.take(Math.min(2, this.buf.length));
          return;
        }
        // All but what could be the start of a boundary can go.
        const safe = this.buf.length - this.delimiter.length;
        if (safe > 0) yield Buffer.from(this.take(safe));
        if (!(await this.more())) {
          if (this.buf.length) yield Buffer.from(this.take(this.buf.length));
          this.noMoreParts = true;
          return;
        }
      }
    } finally {
      this.partOpen = false;
    }
  }

  /** Reads the current part's bytes to its end, dropping them. */
  async skip(part: FormPart): Promise<void> {
    for await (const _chunk of part.body) void _chunk;
  }
}
