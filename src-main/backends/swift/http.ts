import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { CofferError } from '../../../src-shared/errors.js';
import { destroyOnAbort } from '../transfer.js';
import { networkError } from './errors.js';

/** A request body: bytes, or a factory so a retry can replay it, or a one-shot stream. */
export type Body = Buffer | string | (() => Readable) | Readable;

export interface RawRequest {
  method: string;
  /** `http:` or `https:` origin, e.g. `https://swift.example:8080`. */
  origin: string;
  /** Path and query exactly as sent: already percent-encoded, never normalised (no `new URL`). */
  path: string;
  headers: Record<string, string | number>;
  body?: Body;
  signal?: AbortSignal;
  /** Idle time (no bytes either way) after which the request fails as unreachable. */
  timeoutMs: number;
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The response body; the caller consumes it, or drains it (`drain`) so the socket is reused. */
  body: IncomingMessage;
  /** Stops sending (an upload the server already answered with an error) and drops the connection. */
  abort(): void;
}

interface Target {
  protocol: string;
  hostname: string;
  port: string | number;
  secure: boolean;
}

export interface HttpOptions {
  /** Verify TLS certificates (default true); off only for self-signed test servers. */
  rejectUnauthorized?: boolean;
  maxSockets?: number;
}

/**
 * node:http with keep-alive agents (one per scheme per backend): a browse session sends many
 * small requests to one host, and a fresh TCP/TLS handshake for each would dominate their cost.
 */
export class Http {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;
  private readonly targets = new Map<string, Target>();

  constructor(opts: HttpOptions = {}) {
    const common = { keepAlive: true, maxSockets: opts.maxSockets ?? 16, scheduling: 'lifo' as const };
    this.http = new HttpAgent(common);
    this.https = new HttpsAgent({ ...common, rejectUnauthorized: opts.rejectUnauthorized ?? true });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }

  /** Where an origin's requests go, parsed once: a folder of small files sends thousands to one. */
  private target(origin: string): Target {
    let found = this.targets.get(origin);
    if (!found) {
      const url = new URL(origin);
      const secure = url.protocol === 'https:';
      found = { protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || (secure ? 443 : 80), secure };
      this.targets.set(origin, found);
    }
    return found;
  }

  /** Sends one request; resolves once the response headers are in. Network failures become CofferErrors. */
  send(r: RawRequest): Promise<RawReply> {
    const { protocol, hostname, port, secure } = this.target(r.origin);
    const make = secure ? httpsRequest : httpRequest;
    return new Promise<RawReply>((resolve, reject) => {
      if (r.signal?.aborted) return reject(new CofferError('Aborted', 'The transfer was cancelled'));
      let settled = false;
      let response: IncomingMessage | undefined;
      const fail = (err: unknown) => {
        if (settled) {
          // After the headers the error belongs to the body stream the caller reads.
          response?.destroy(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        settled = true;
        req.destroy();
        reject(err instanceof CofferError ? err : networkError(err, r.signal));
      };
      let headers = r.headers;
      if ((typeof r.body === 'string' || Buffer.isBuffer(r.body)) && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
        headers = { ...headers, 'Content-Length': Buffer.byteLength(r.body) };
      }
      const req = make({ protocol, hostname, port, method: r.method, path: r.path, headers, agent: secure ? this.https : this.http });
      req.once('close', destroyOnAbort(req, r.signal));
      req.setTimeout(r.timeoutMs, () => {
        // A consumer that stops reading (a slow disk) fills the buffer: that is not the server stalling.
        if (response && response.readableLength >= response.readableHighWaterMark) return;
        const err = Object.assign(new Error(`No data for ${Math.round(r.timeoutMs / 1000)} s`), { code: 'ETIMEDOUT' });
        if (response) response.destroy(networkError(err));
        else fail(err);
      });
      req.on('error', (err) => fail(err));
      req.on('response', (res) => {
        response = res;
        res.on('error', () => undefined);
        if (settled) return void res.resume();
        settled = true;
        // Only a request still sending or answered in part is cut: once both are done, the
        // socket is back in the pool and may already carry another request.
        const abort = () => {
          if (!req.writableFinished || !res.complete) req.destroy();
        };
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, abort });
      });
      writeBody(req, r.body, fail);
    });
  }
}

function writeBody(req: ReturnType<typeof httpRequest>, body: Body | undefined, fail: (err: unknown) => void): void {
  if (body === undefined) return void req.end();
  if (typeof body === 'string' || Buffer.isBuffer(body)) return void req.end(body);
  const stream = typeof body === 'function' ? body() : body;
  stream.on('error', (err) => fail(err));
  // A request that ends early (error answer, abort, network) must not leave the source open.
  req.on('close', () => {
    if (!stream.readableEnded) stream.destroy();
  });
  // pipe (not pipeline): an early answer (401, 413) must not be masked by the write error that follows.
  stream.pipe(req);
}

/** Reads a (small) body as text, up to `limit` bytes; the rest is discarded. */
export async function readText(res: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    if (size < limit) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** Lets the socket go back to the pool without keeping the bytes. */
export function drain(res: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    // `complete` is not enough: the socket returns to the pool on 'end', which needs a reader (even for HEAD).
    if (res.readableEnded || res.destroyed) return resolve();
    res.on('end', resolve);
    res.on('error', () => resolve());
    res.on('close', resolve);
    res.resume();
  });
}

export function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}
