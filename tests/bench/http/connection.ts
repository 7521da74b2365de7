/**
 * One keep-alive HTTP/1.1 connection of the load generator, over a plain TCP socket. node:http's
 * client spent 160-190 µs of CPU per request here, on the same two cores as the server under
 * test; writing the prepared request and reading the status line, headers and a Content-Length
 * or chunked body takes a fraction of that, so more of the machine goes to the servers measured.
 */
import { connect, type Socket } from 'node:net';

export interface WireRequest {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  /** A buffer, or a function writing a streamed body (Content-Length must be among the headers). */
  body?: Buffer | ((write: (chunk: Buffer) => Promise<void>) => Promise<void>);
}

export interface WireResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  bytes: number;
  /** The body, only when it was asked to be kept. */
  body?: Buffer;
}

type Framing =
  | { kind: 'none' }
  | { kind: 'length'; left: number }
  | { kind: 'chunked'; stage: 'size' | 'data' | 'crlf' | 'trailer'; left: number }
  | { kind: 'close' };

const CRLF2 = Buffer.from('\r\n\r\n');

interface Pending {
  method: string;
  path: string;
  keepBody: boolean;
  resolve: (r: WireResponse) => void;
  reject: (e: Error) => void;
}

export class Connection {
  private readonly socket: Socket;
  private pending: Pending | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private head: { status: number; headers: Record<string, string>; close: boolean } | undefined;
  private framing: Framing = { kind: 'none' };
  private bytes = 0;
  private chunks: Buffer[] = [];
  /** Responses completed on this socket: a failure before the first byte of a later one may be a stale keep-alive. */
  served = 0;
  private receivedAny = false;
  closed = false;

  constructor(private readonly port: number) {
    this.socket = connect({ host: '127.0.0.1', port, noDelay: true });
    this.socket.on('data', (d: Buffer) => this.onData(d));
    this.socket.on('error', (e) => this.fail(e));
    this.socket.on('close', () => this.onClose());
    this.socket.on('timeout', () => this.fail(new Error(`${this.pending?.method} ${this.pending?.path}: no answer in time`)));
  }

  send(r: WireRequest, keepBody: boolean, timeoutMs: number): Promise<WireResponse> {
    if (this.pending || this.closed) return Promise.reject(new Error('connection busy or closed'));
    return new Promise<WireResponse>((resolve, reject) => {
      this.pending = { method: r.method, path: r.path, keepBody, resolve, reject };
      this.receivedAny = false;
      this.socket.setTimeout(timeoutMs);
      let text = `${r.method} ${r.path} HTTP/1.1\r\n`;
      let hasHost = false;
      let hasLength = false;
      for (const name in r.headers) {
        const lower = name.toLowerCase();
        if (lower === 'host') hasHost = true;
        if (lower === 'content-length') hasLength = true;
        text += `${name}: ${r.headers[name]}\r\n`;
      }
      if (!hasHost) text += `Host: 127.0.0.1:${this.port}\r\n`;
      if (Buffer.isBuffer(r.body) && !hasLength) text += `Content-Length: ${r.body.length}\r\n`;
      if (r.body === undefined && !hasLength && (r.method === 'PUT' || r.method === 'POST')) text += 'Content-Length: 0\r\n';
      text += '\r\n';
      if (typeof r.body === 'function') {
        this.socket.write(text, 'latin1');
        const write = (chunk: Buffer) => new Promise<void>((ok) => (this.socket.write(chunk) ? ok() : this.socket.once('drain', ok)));
        r.body(write).catch((e: Error) => this.fail(e));
      } else if (r.body && r.body.length > 0) {
        this.socket.cork();
        this.socket.write(text, 'latin1');
        this.socket.write(r.body);
        this.socket.uncork();
      } else this.socket.write(text, 'latin1');
    });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private onData(data: Buffer): void {
    this.receivedAny = true;
    this.buffered = this.buffered.length === 0 ? data : Buffer.concat([this.buffered, data]);
    while (this.pending) {
      if (!this.head && !this.readHead()) return;
      if (!this.readBody()) return;
    }
  }

  private readHead(): boolean {
    const end = this.buffered.indexOf(CRLF2);
    if (end < 0) return false;
    const lines = this.buffered.toString('latin1', 0, end).split('\r\n');
    this.buffered = this.buffered.subarray(end + 4);
    const status = Number(lines[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i]!.indexOf(':');
      const name = lines[i]!.slice(0, colon).trim().toLowerCase();
      const value = lines[i]!.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    this.head = { status, headers, close: /close/i.test(headers.connection ?? '') };
    this.bytes = 0;
    this.chunks = [];
    const noBody = this.pending!.method === 'HEAD' || status === 204 || status === 304 || status < 200;
    if (noBody) this.framing = { kind: 'none' };
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) this.framing = { kind: 'chunked', stage: 'size', left: 0 };
    else if (headers['content-length'] !== undefined) this.framing = { kind: 'length', left: Number(headers['content-length']) };
    else this.framing = { kind: 'close' };
    return true;
  }

  /** Consumes body bytes; true once the response is complete (and delivered). */
  private readBody(): boolean {
    const f = this.framing;
    if (f.kind === 'length') {
      const take = Math.min(f.left, this.buffered.length);
      this.take(take);
      f.left -= take;
      if (f.left > 0) return false;
    } else if (f.kind === 'chunked') {
      if (!this.readChunks(f)) return false;
    } else if (f.kind === 'close') {
      this.take(this.buffered.length);
      return false;
    }
    this.finish();
    return true;
  }

  /** Chunked framing, consumed as it arrives (a large chunk is never held whole). */
  private readChunks(f: Extract<Framing, { kind: 'chunked' }>): boolean {
    for (;;) {
      if (f.stage === 'size') {
        const eol = this.buffered.indexOf('\r\n');
        if (eol < 0) return false;
        f.left = parseInt(this.buffered.toString('latin1', 0, eol), 16);
        this.buffered = this.buffered.subarray(eol + 2);
        f.stage = f.left === 0 ? 'trailer' : 'data';
      } else if (f.stage === 'data') {
        const take = Math.min(f.left, this.buffered.length);
        this.take(take);
        f.left -= take;
        if (f.left > 0) return false;
        f.stage = 'crlf';
      } else if (f.stage === 'crlf') {
        if (this.buffered.length < 2) return false;
        this.buffered = this.buffered.subarray(2);
        f.stage = 'size';
      } else {
        // After the last chunk: optional trailer lines, then an empty line.
        if (this.buffered.length < 2) return false;
        if (this.buffered[0] === 13 && this.buffered[1] === 10) {
          this.buffered = this.buffered.subarray(2);
          return true;
        }
        const end = this.buffered.indexOf(CRLF2);
        if (end < 0) return false;
        this.buffered = this.buffered.subarray(end + 4);
        return true;
      }
    }
  }

  private take(n: number): void {
    if (this.pending!.keepBody) this.chunks.push(this.buffered.subarray(0, n));
    this.bytes += n;
    this.buffered = this.buffered.subarray(n);
  }

  private finish(): void {
    const p = this.pending!;
    const head = this.head!;
    this.pending = undefined;
    this.head = undefined;
    this.served++;
    this.socket.setTimeout(0);
    if (head.close) this.close();
    p.resolve({ status: head.status, headers: head.headers, bytes: this.bytes, ...(p.keepBody ? { body: Buffer.concat(this.chunks) } : {}) });
  }

  private onClose(): void {
    this.closed = true;
    if (this.pending && this.head && this.framing.kind === 'close') return this.finish();
    this.fail(new Error('socket hang up'));
  }

  private fail(e: Error): void {
    this.closed = true;
    const p = this.pending;
    this.pending = undefined;
    this.socket.destroy();
    if (p) p.reject(Object.assign(e, { reusedSocket: this.served > 0 && !this.receivedAny }));
  }
}
