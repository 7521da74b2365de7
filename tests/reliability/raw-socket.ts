// Raw HTTP/1.1 over a TCP socket, for requests no HTTP client would send (broken framing, stray
// bytes, stalls) and to tell an answer from a close from a hang.
import { connect } from 'node:net';

export interface RawExchange {
  /** Status of the first response, 0 when none came. */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The server closed the connection (after answering or not) before the timeout. */
  closed: boolean;
  timedOut: boolean;
  ms: number;
}

function parse(data: Buffer): Pick<RawExchange, 'status' | 'headers' | 'body'> {
  const end = data.indexOf('\r\n\r\n');
  const head = (end < 0 ? data : data.subarray(0, end)).toString('latin1');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = end < 0 ? Buffer.alloc(0) : data.subarray(end + 4);
  const length = headers['content-length'];
  if (length !== undefined && /^\d+$/.test(length)) body = body.subarray(0, Number(length));
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body };
}

/**
 * Sends `data` (then half-closes, unless `keepOpen`) and reads until the server closes or
 * `timeoutMs` passes.
 */
export function exchange(port: number, data: Buffer | string, opts: { timeoutMs?: number; keepOpen?: boolean } = {}): Promise<RawExchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = connect(port, '127.0.0.1', () => {
      if (opts.keepOpen) socket.write(data);
      else socket.end(data);
    });
    const finish = (closed: boolean, timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(Buffer.concat(chunks)), closed, timedOut, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false, true), opts.timeoutMs ?? 5000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => finish(true, false));
    socket.on('error', () => finish(true, false));
  });
}

/** Serializes a request; header values are written as given (latin1), so they may be anything. */
export function serialize(method: string, target: string, headers: [string, string][], body: Buffer = Buffer.alloc(0)): Buffer {
  const head = `${method} ${target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}
