import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { bodyInFlight, type Engine } from '../engine/index.js';
import { CofferError } from '../../src-shared/errors.js';
import { carriesS3Auth, handleCompat } from './compat/index.js';
import { sendError } from './compat/respond.js';
import { Drain } from './common/drain.js';
import { escapeRequestLines } from './common/escaping-socket.js';
import { Exchange } from './common/exchange.js';
import { clientGone, continueWhenRead, InFlight } from './common/framing.js';
import { newRequestId } from './common/request-id.js';
import { hasBody, SlowBodyWatch } from './common/slow-bodies.js';
import { handleNative } from './native/index.js';
import { NativeError } from './native/errors.js';
import { sendError as sendNativeError } from './native/respond.js';
import { isNativePath } from './native/router.js';
import { EventStreams, handleUi, isUiPath, type UiContext } from './ui/index.js';

export interface ServerOptions {
  engine: Engine;
  /** Secret that signs native tokens (kept in the store, so tokens survive restarts). */
  secret: Buffer;
  host?: string;
  port?: number;
  /** Domain for virtual-host style S3 addressing (`<bucket>.<domain>`). */
  domain?: string;
  /** Region the compatible API reports (any region is accepted in signatures). */
  region?: string;
  /** The contract over HTTP and the browser build at /_coffer/ (`coffer serve --ui`). */
  ui?: UiContext;
  /** One line per request; silent when omitted. */
  log?: (line: string) => void;
  /**
   * Slow-client limits. Defaults: 60 s for the request head, 120 s of silence, and a body must
   * average 1 KiB/s once it has been arriving for 60 s. When stopping, requests under way get
   * 5 s to finish (`closeGraceMs`).
   */
  timeouts?: { headersMs?: number; idleMs?: number; bodyGraceMs?: number; bodyMinBytesPerSec?: number; closeGraceMs?: number };
}

/** Slow-client limits can be shortened through the environment (a positive number), so tests can watch a stalled client being dropped. */
function envPositive(name: string): number | undefined {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /**
   * Stops accepting, ends event streams, closes idle connections and each busy one once its answer
   * is out; cuts what is still open after the grace period.
   */
  close(): Promise<void>;
}

/**
 * Answers a body that arrives too slowly in its API's terms (Swift's 408, S3's RequestTimeout)
 * and closes the connection; an upload already answered is cut. The handler, still reading the
 * body, fails when the connection goes, which discards what was received.
 */
function bodyTooSlow(x: Exchange, native: boolean): void {
  // As for a body cut short: once the answer is out Node no longer ends the request, and the
  // handler still reading it (into a temporary blob) would wait for ever.
  x.res.once('close', () => x.req.destroy());
  if (x.res.headersSent) return void x.res.destroy();
  x.res.setHeader('Connection', 'close');
  if (native) sendNativeError(x, new NativeError(408));
  // S3 answers this as RequestTimeout, the same as any upload the client did not finish.
  else sendError({ x, address: { style: 'path' } }, new CofferError('Aborted', 'The request body arrived too slowly'));
}

/**
 * Answers a request whose client ended its side of the connection with the body short of what
 * it announced: on S3, BadDigest when a Content-MD5 came with it (what arrived cannot match it:
 * AWS's answer to older tools' SigV2 uploads, which send one) and IncompleteBody ("fewer bytes
 * than the Content-Length") when none did; and
 * Swift's 499 Client Disconnect on the native API, as Swift's proxy answers it. The connection
 * closes after the answer and the request with it; the handler, still reading, fails and stores nothing.
 */
function bodyCutShort(x: Exchange, native: boolean): void {
  x.res.setHeader('Connection', 'close');
  // Node forgets a request once its answer is out, so the connection's close would no longer
  // reach the body still being read: end it here, or the handler would wait on it for ever.
  x.res.once('close', () => x.req.destroy());
  if (native) sendNativeError(x, new CofferError('IncompleteBody'));
  else sendError({ x, address: { style: 'path' } }, new CofferError(x.req.headers['content-md5'] ? 'BadDigest' : 'IncompleteBody'));
}

/** One node:http server for both APIs: native paths (`/swift`, `/v1/AUTH_…`, `/auth`, `/info`) unless S3-signed, everything else S3. */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const native = { engine: opts.engine, secret: opts.secret };
  const compat = { engine: opts.engine, domain: opts.domain, region: opts.region ?? 'us-east-1', ...(opts.log ? { log: opts.log } : {}) };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const x = new Exchange(req, res, newRequestId());
    const log = opts.log;
    inFlight.track(req, res);
    if (hasBody(req)) res.once('close', bodyInFlight(req.headers['content-length']));
    if (log) res.on('finish', () => log(`${new Date().toISOString()} ${x.id} ${x.method} ${req.url} ${x.status || res.statusCode} ${Math.round(performance.now() - x.started)}ms`));
    let api: 'ui' | 'native' | 'compat' = 'compat';
    try {
      if (opts.ui && isUiPath(x.rawPath)) {
        api = 'ui';
        // The app's own contract calls may legitimately wait long in silence (remote stores, events).
        req.socket.setTimeout(0);
        await handleUi(x, opts.ui, streams);
      }
      else {
        if (isNativePath(x.rawPath) && !carriesS3Auth(x)) api = 'native';
        if (hasBody(req)) {
          slowBodies.watch(req, res, () => bodyTooSlow(x, api === 'native'));
          inFlight.whenCutShort(req, () => bodyCutShort(x, api === 'native'));
        }
        if (api === 'native') await handleNative(x, native);
        else await handleCompat(x, compat);
      }
    } catch (err) {
      // The client went away mid-request: nothing to answer and nothing went wrong here.
      if (clientGone(req, res)) return void res.destroy();
      opts.log?.(`${x.id} internal error: ${(err as Error)?.stack ?? String(err)}`);
      if (res.headersSent) return void res.destroy();
      // Still in the API's own terms, with its request-id headers: clients retry a 500 they can read.
      if (api === 'native') sendNativeError(x, new NativeError(500));
      else if (api === 'compat') sendError({ x, address: { style: 'path' } }, new CofferError('InternalError'));
      else x.send(500, { 'Content-Type': 'application/json' }, JSON.stringify({ ok: false, error: { code: 'InternalError', message: 'Internal error' } }));
    }
  };
  /** No request may end the process: whatever escapes even the handler's own error path is logged and the connection dropped. */
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    drain.track(req, res);
    drain.hold(
      handle(req, res).catch((err: unknown) => {
        opts.log?.(`internal error answering ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
        res.destroy();
      }),
    );
  };
  const inFlight = new InFlight();
  const drain = new Drain();
  const streams = new EventStreams();
  const closeGraceMs = opts.timeouts?.closeGraceMs ?? envPositive('COFFER_HTTP_CLOSE_GRACE_MS') ?? 5_000;
  // A client gets headersMs to send its request head, and may go idleMs without sending or
  // reading a byte (a stalled body, a download nobody reads) before its connection is dropped.
  // No limit on a whole request: large uploads may take long while bytes keep flowing, as long as
  // they keep flowing at a minimum average rate.
  const headersMs = opts.timeouts?.headersMs ?? envPositive('COFFER_HTTP_HEADERS_TIMEOUT_MS') ?? 60_000;
  const idleMs = opts.timeouts?.idleMs ?? envPositive('COFFER_HTTP_IDLE_TIMEOUT_MS') ?? 120_000;
  const slowBodies = new SlowBodyWatch({
    graceMs: opts.timeouts?.bodyGraceMs ?? envPositive('COFFER_HTTP_BODY_GRACE_MS') ?? 60_000,
    minBytesPerSec: opts.timeouts?.bodyMinBytesPerSec ?? envPositive('COFFER_HTTP_BODY_MIN_RATE') ?? 1024,
  });
  const server = createHttpServer(
    { keepAliveTimeout: Math.min(65_000, idleMs), requestTimeout: 0, headersTimeout: headersMs, connectionsCheckingInterval: Math.min(30_000, Math.max(100, headersMs / 4)) },
    serve,
  );
  // Raw UTF-8 in a request line is a path Swift serves; Node's parser would refuse it.
  escapeRequestLines(server);
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueWhenRead(req, res);
    serve(req, res);
  });
  // Other expectations are none of ours (Swift and S3 ignore them): no 417, the request proceeds.
  server.on('checkExpectation', serve);
  server.setTimeout(idleMs);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (inFlight.closeAfterPending(socket)) return;
    // The client half-closed mid-body: the request's own API answers it, not a bare 400.
    if (err.code === 'HPE_INVALID_EOF_STATE' && inFlight.answerCutShort(socket)) return;
    if (!socket.writable || inFlight.answering(socket)) return void socket.destroy();
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 7480, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: async () => {
      slowBodies.close();
      await drain.close(server, () => streams.endAll(), { graceMs: closeGraceMs, settleMs: 2_000 });
    },
  };
}
