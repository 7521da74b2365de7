import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { RequestLineEscaper } from './request-lines.js';

/**
 * A connection as node:http reads it, with the bytes above 0x7f of each request line
 * percent-escaped on the way in (request-lines.ts says why). node:http takes any Duplex as a
 * connection (the documented `'connection'` event); what it asks of a socket beyond the stream
 * (timeouts, addresses, Nagle) is passed on to the real one.
 */
export class EscapingSocket extends Duplex {
  private readonly escaper = new RequestLineEscaper();

  constructor(readonly socket: Socket) {
    super({ allowHalfOpen: true, readableHighWaterMark: socket.readableHighWaterMark, writableHighWaterMark: socket.writableHighWaterMark });
    socket.on('data', (chunk: Buffer) => {
      if (!this.push(this.escaper.escape(chunk))) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.socket.write(chunk, encoding, done);
  }

  /** Corked writes (a response's head and body) leave in one piece, as they would on the socket itself. */
  override _writev(chunks: { chunk: Buffer; encoding: BufferEncoding }[], done: (err?: Error | null) => void): void {
    this.socket.cork();
    for (let i = 0; i < chunks.length - 1; i++) this.socket.write(chunks[i]!.chunk, chunks[i]!.encoding);
    const last = chunks[chunks.length - 1]!;
    this.socket.write(last.chunk, last.encoding, done);
    this.socket.uncork();
  }

  override _final(done: (err?: Error | null) => void): void {
    this.socket.end(done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.socket.destroy(err ?? undefined);
    done(err);
  }

  setTimeout(ms: number, onTimeout?: () => void): this {
    this.socket.setTimeout(ms);
    if (onTimeout) this.once('timeout', onTimeout);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }

  /** The idle timer restarts on every byte read, as node:http's own consumed sockets do. */
  _unrefTimer(): void {}

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }

  get remoteFamily(): string | undefined {
    return this.socket.remoteFamily;
  }

  get localAddress(): string | undefined {
    return this.socket.localAddress;
  }

  get localPort(): number | undefined {
    return this.socket.localPort;
  }

  get bytesRead(): number {
    return this.socket.bytesRead;
  }

  get bytesWritten(): number {
    return this.socket.bytesWritten;
  }
}

/** Makes `server` read each new connection through an EscapingSocket. */
export function escapeRequestLines(server: Server): void {
  const listeners = server.listeners('connection') as ((socket: unknown) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const escaping = new EscapingSocket(socket);
    for (const listener of listeners) listener.call(server, escaping);
  });
}
