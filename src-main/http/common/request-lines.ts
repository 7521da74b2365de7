/**
 * Raw UTF-8 in a request line (`GET /v1/AUTH_a/c/café HTTP/1.1`, the bytes unescaped): Swift takes
 * it (its WSGI server reads the path as bytes), Node's HTTP parser refuses every byte above 0x7f
 * in a URL, with or without `insecureHTTPParser` (llhttp 9: "Invalid char in url path"). This
 * follows a connection's bytes just far enough to find each request line, and percent-escapes
 * those bytes there before the parser sees them: `caf%C3%A9` is the same path once decoded, and
 * S3's canonical URI is built from the decoded path, so signatures still match.
 *
 * Only request lines change, and only in bytes the parser would refuse. Everything else (heads,
 * bodies) passes as it came. To know where the next request line starts, the framing of each
 * request is followed as RFC 9112 6.3 sets it (Transfer-Encoding chunked, else Content-Length,
 * else no body); a head this cannot read with certainty (several lengths, a transfer coding
 * other than chunked, an upgrade, a head past MAX_HEAD) stops the escaping for the rest of the
 * connection, leaving every byte to the parser, which refuses such requests itself.
 */
const MAX_HEAD = 64 * 1024;

type State =
  | { at: 'line' }
  | { at: 'head' }
  | { at: 'body'; left: number }
  | { at: 'chunk-size' }
  | { at: 'chunk-data'; left: number }
  | { at: 'trailers' }
  | { at: 'passthrough' };

export class RequestLineEscaper {
  private state: State = { at: 'line' };
  /** The current line of a head, chunk size or trailer so far (bytes before its LF), as latin1. */
  private line = '';
  private headBytes = 0;
  private contentLength: string | undefined;
  private lengths = 0;
  private transferEncoding: string | undefined;
  private upgrade = false;
  /** A byte other than CR or LF has been seen in the request line (empty lines before one are skipped). */
  private lineStarted = false;

  /** The chunk as the parser should see it: the same buffer unless a request line in it had bytes above 0x7f. */
  escape(chunk: Buffer): Buffer {
    if (this.state.at === 'passthrough') return chunk;
    let out: Buffer[] | undefined;
    let copiedTo = 0;
    for (let i = 0; i < chunk.length; i++) {
      const s = this.state as State; // endOfLine moves it on: not the state narrowed above
      if (s.at === 'passthrough') break;
      if (s.at === 'body' || s.at === 'chunk-data') {
        const take = Math.min(s.left, chunk.length - i);
        s.left -= take;
        i += take - 1;
        if (s.left === 0) this.state = s.at === 'body' ? { at: 'line' } : { at: 'chunk-size' };
        continue;
      }
      if (s.at !== 'line') {
        // Header, chunk-size and trailer lines: read whole, found with the buffer's own search.
        const lf = chunk.indexOf(0x0a, i);
        const end = lf < 0 ? chunk.length : lf;
        this.headBytes += end - i + 1;
        if (this.headBytes > MAX_HEAD) {
          this.state = { at: 'passthrough' };
          break;
        }
        this.line += chunk.toString('latin1', i, end);
        if (lf < 0) break;
        i = lf;
        const line = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
        this.line = '';
        this.endOfLine(s, line);
        continue;
      }
      const b = chunk[i]!;
      if (b >= 0x80) {
        out ??= [];
        out.push(chunk.subarray(copiedTo, i), Buffer.from(`%${b.toString(16).toUpperCase()}`, 'latin1'));
        copiedTo = i + 1;
      }
      if (++this.headBytes > MAX_HEAD) {
        this.state = { at: 'passthrough' };
        break;
      }
      if (b === 0x0a) this.endOfLine(s, '');
      else if (b !== 0x0d) this.lineStarted = true;
    }
    if (!out) return chunk;
    out.push(chunk.subarray(copiedTo));
    return Buffer.concat(out);
  }

  private endOfLine(s: State, line: string): void {
    switch (s.at) {
      case 'line':
        // An empty line before a request line is skipped by the parser too (RFC 9112 2.2).
        if (this.lineStarted) this.state = { at: 'head' };
        this.lineStarted = false;
        return;
      case 'head':
        if (line !== '') return this.headerLine(line);
        return this.endOfHead();
      case 'chunk-size': {
        if (line === '') return; // the CRLF after a chunk's data
        const size = /^([0-9a-fA-F]{1,15})[ \t]*(;.*)?$/.exec(line);
        if (!size) return void (this.state = { at: 'passthrough' });
        const n = parseInt(size[1]!, 16);
        this.headBytes = 0;
        this.state = n === 0 ? { at: 'trailers' } : { at: 'chunk-data', left: n };
        return;
      }
      case 'trailers':
        if (line === '') this.nextRequest();
        return;
      case 'body':
      case 'chunk-data':
      case 'passthrough':
        return; // bodies are counted, not read as lines
    }
  }

  private headerLine(line: string): void {
    const colon = line.indexOf(':');
    if (colon < 0) return;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      this.lengths++;
      this.contentLength = value;
    } else if (name === 'transfer-encoding') {
      this.transferEncoding = this.transferEncoding === undefined ? value : `${this.transferEncoding},${value}`;
    } else if (name === 'upgrade') {
      this.upgrade = true;
    }
  }

  private endOfHead(): void {
    const te = this.transferEncoding?.toLowerCase().split(',').map((v) => v.trim());
    const length = this.contentLength;
    const sure = !this.upgrade && (te ? te.length === 1 && te[0] === 'chunked' : this.lengths <= 1 && (length === undefined || /^\d{1,15}$/.test(length)));
    const n = length === undefined ? 0 : Number(length);
    this.resetHead();
    if (!sure) this.state = { at: 'passthrough' };
    else if (te) this.state = { at: 'chunk-size' };
    else this.state = n === 0 ? { at: 'line' } : { at: 'body', left: n };
  }

  private nextRequest(): void {
    this.state = { at: 'line' };
    this.resetHead();
  }

  private resetHead(): void {
    this.headBytes = 0;
    this.contentLength = undefined;
    this.lengths = 0;
    this.transferEncoding = undefined;
    this.upgrade = false;
  }
}
