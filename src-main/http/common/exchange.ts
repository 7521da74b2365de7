import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { CofferError } from '../../../src-shared/errors.js';
import { bodyInFlight, returnBlobBuffer } from '../../engine/index.js';
import { httpDate } from './dates.js';
import { parseQuery } from './url.js';

export type HeaderValues = Record<string, string | number | string[] | undefined>;
/** A response head as it goes out: every header set. */
export type OutgoingHeaders = Record<string, string | number | string[]>;

/** One request and its response, with the parsed pieces every front end needs. */
export class Exchange {
  readonly method: string;
  readonly rawPath: string;
  readonly rawQuery: string;
  /** Decoded query parameters; undefined when the query string itself is malformed. */
  readonly query: Map<string, string> | undefined;
  readonly started = performance.now();
  status = 0;
  /**
   * A front end's last word on every response head this exchange sends, given the headers as
   * they go out (Swift's proxy adds its CORS answer to whatever its controller answered, errors
   * included, looking at the answer's own headers).
   */
  finishHead: ((headers: OutgoingHeaders) => void) | undefined = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly id: string,
  ) {
    this.method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.rawPath = q < 0 ? url : url.slice(0, q);
    this.rawQuery = q < 0 ? '' : url.slice(q + 1);
    this.query = parseQuery(this.rawQuery);
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(',') : v;
  }

  has(param: string): boolean {
    return this.query?.has(param) ?? false;
  }

  param(name: string): string | undefined {
    return this.query?.get(name);
  }

  /**
   * Sends a complete response: `base` headers (a front end's own), then `headers` over them.
   * HEAD responses keep their headers (Content-Length included) and drop the body.
   */
  send(status: number, headers: HeaderValues, body: string | Buffer = '', base?: HeaderValues): void {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.status = status;
    this.writeHead(status, headers, base, bytes.length);
    this.res.end(this.method === 'HEAD' || status === 204 || status === 304 ? undefined : bytes);
  }

  /**
   * Sends a body in the pieces it is made of, without a Content-Length: Node frames it with
   * chunked transfer encoding, as the seed's C1 and RGW answer listings. Each piece goes out as
   * soon as it is written, so the first bytes leave before the last entry is serialized.
   */
  sendPieces(status: number, headers: HeaderValues, pieces: Iterable<string>, base?: HeaderValues): void {
    this.status = status;
    this.writeHead(status, headers, base);
    if (this.method !== 'HEAD') for (const piece of pieces) if (piece) this.res.write(piece);
    this.res.end();
  }

  /** The headers of a HEAD response, Content-Length included, and no body. */
  sendHead(status: number, headers: HeaderValues, base: HeaderValues | undefined, contentLength: number): void {
    this.status = status;
    this.writeHead(status, headers, base, contentLength);
    this.res.end();
  }

  /**
   * Streams a body; a failure mid-stream destroys the connection (the length no longer matches).
   * Its `bytes`, when given (the engine's read of an inline object), go out in one write instead:
   * a stream pipeline costs more than a small body. `base` and `contentLength` as for `send`:
   * headers go out without merging objects first.
   */
  async stream(status: number, headers: HeaderValues, { body, bytes }: { body: Readable; bytes?: Buffer }, base?: HeaderValues, contentLength?: number): Promise<void> {
    this.status = status;
    this.writeHead(status, headers, base, contentLength);
    if (this.method === 'HEAD' || bytes) {
      body.destroy();
      this.res.end(this.method === 'HEAD' ? undefined : bytes);
      return;
    }
    const ended = bodyInFlight(contentLength);
    await this.pump(body)
      .catch(() => this.res.destroy())
      .finally(ended);
  }

  /**
   * Writes `body` out as pipeline() would, and gives each chunk's buffer back to the engine once
   * the socket has it (the write's callback): the engine reads stored bytes into buffers it
   * reuses (engine/blobs/buffers.ts). A client gone ends it; the body is destroyed either way.
   */
  private async pump(body: Readable): Promise<void> {
    const res = this.res;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (res.destroyed) return;
        if (!res.write(chunk, (err) => err || returnBlobBuffer(chunk))) await drained(res);
      }
      res.end();
    } finally {
      body.destroy();
    }
  }

  /**
   * One header object for Node, filled in place: merging with spreads (`{ ...base, ...headers }`)
   * went through V8's slow object copy on every response.
   */
  private writeHead(status: number, headers: HeaderValues, base?: HeaderValues, contentLength?: number): void {
    const out: OutgoingHeaders = { Date: httpDate(Date.now()) };
    // A 204 has no content, so no length either (RFC 9110 8.6).
    if (contentLength !== undefined && status !== 204) out['Content-Length'] = contentLength;
    if (base) copyDefined(base, out);
    copyDefined(headers, out);
    if (this.finishHead) this.finishHead(out);
    const reason = REASONS_NODE_LACKS[status];
    if (reason) this.res.writeHead(status, reason, out);
    else this.res.writeHead(status, out);
  }
}

/** Reason phrases Node does not know (it would say "unknown"): Swift's 499 for a client gone mid-request. */
const REASONS_NODE_LACKS: Record<number, string> = { 499: 'Client Disconnect' };

function copyDefined(from: HeaderValues, to: OutgoingHeaders): void {
  for (const k in from) {
    const v = from[k];
    if (v !== undefined) to[k] = v;
  }
}

/** Resolves once `res` can take more, or is closed (then the caller finds it destroyed). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** How much of a refused body is read and dropped, so its client gets to read the answer. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * Hands a request body to `take` chunk by chunk until it says 'stop'. The rest is then read and
 * dropped while the caller answers, so a client still sending reads the answer instead of a
 * reset connection (leaving a `for await` loop early would destroy the request and leave the
 * connection hanging); a body that goes on past DRAIN_LIMIT more is cut off.
 */
export function consumeBody(req: IncomingMessage, take: (chunk: Buffer) => 'more' | 'stop'): Promise<'end' | 'stopped'> {
  return new Promise((resolve, reject) => {
    let stopped = false;
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      if (stopped) {
        dropped += chunk.length;
        if (dropped > DRAIN_LIMIT) req.destroy();
      } else if (take(chunk) === 'stop') {
        stopped = true;
        resolve('stopped');
      }
    });
    req.once('end', () => resolve('end'));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new CofferError('Aborted', 'The client closed the connection before its request body was complete'));
    });
  });
}

/** Reads a small request body (manifests, XML documents) up to `limit` bytes; past it, the rest is drained. */
export async function readSmallBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let n = 0;
  const how = await consumeBody(req, (chunk) => {
    n += chunk.length;
    if (n > limit) return 'stop';
    chunks.push(chunk);
    return 'more';
  });
  return how === 'stopped' ? 'too-large' : Buffer.concat(chunks);
}

/**
 * Whether the client gave up before its request body was complete, read when the engine asks
 * (between chunks): an AbortController and an 'aborted' listener per upload cost more.
 */
export function abortedBy(req: IncomingMessage): { readonly aborted: boolean } {
  return new RequestAborted(req);
}

class RequestAborted {
  constructor(private readonly req: IncomingMessage) {}

  get aborted(): boolean {
    return this.req.destroyed && !this.req.complete;
  }
}
