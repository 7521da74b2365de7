import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, normalize, sep } from 'node:path';
import type { Readable } from 'node:stream';
import mime from 'mime';
import { EVENT_NAMES } from '../../../src-shared/contract/events.js';
import type { RpcResult } from '../../../src-shared/rpc/envelope.js';
import { readSmallBody, type Exchange } from '../common/exchange.js';
import { INLINE_CSP, objectReply, type ObjectReader } from './object-response.js';
import { COOKIE, COOKIE_MAX_AGE_S, hasSession, tokenMatches, trustedRequest } from './session.js';
import { streamZip, ZipDownloads, type ZipRequest, type ZipSource } from './zip.js';

export const UI_PREFIX = '/_coffer';

/** What the UI front end needs from the app: the contract host, and a sink for browser uploads. */
export interface UiContext {
  rpc: { call(method: string, arg: unknown): Promise<RpcResult>; events: NodeJS.EventEmitter };
  /** The bytes of a planned browser upload (transfers.startUpload's item id); settles with the item. */
  upload(id: string, body: Readable): Promise<unknown>;
  /** Objects' bytes for the browser's own downloads (links and drag-out) and previews. */
  objects: ObjectReader;
  /** The entries of a folder download (the browser build's zip). */
  zipSource: ZipSource;
  /** Built renderer (dist/renderer). */
  staticDir: string;
  sessionToken: string;
  port: () => number;
}

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; media-src 'self'; frame-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const SECURITY = { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };

export function isUiPath(rawPath: string): boolean {
  return rawPath === UI_PREFIX || rawPath.startsWith(`${UI_PREFIX}/`);
}

function json(x: Exchange, status: number, value: unknown): void {
  x.send(status, { ...SECURITY, 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(value));
}

async function serveStatic(x: Exchange, ctx: UiContext, rel: string): Promise<void> {
  const root = normalize(ctx.staticDir);
  const file = normalize(join(root, rel === '' || rel === '/' ? 'index.html' : rel));
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return json(x, 404, { error: 'Not found' });
  const type = mime.getType(file) ?? 'application/octet-stream';
  await x.stream(200, { ...SECURITY, 'Content-Type': type, 'Content-Length': statSync(file).size }, createReadStream(file));
}

/**
 * The event streams a server has open. A browser tab never ends its own, so a server that stops
 * ends them (the page's EventSource then finds nobody listening) instead of waiting for ever.
 */
export class EventStreams {
  private readonly open = new Set<ServerResponse>();
  private ended = false;

  /** False once the server is stopping: no new stream is started. */
  add(res: ServerResponse): boolean {
    if (this.ended) return false;
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
    return true;
  }

  endAll(): void {
    this.ended = true;
    for (const res of this.open) res.end();
  }
}

function events(x: Exchange, ctx: UiContext, streams: EventStreams): void {
  if (!streams.add(x.res)) return json(x, 503, { error: 'The server is stopping' });
  x.res.writeHead(200, { ...SECURITY, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
  x.res.write(': connected\n\n');
  const listeners = EVENT_NAMES.map((name) => {
    const listener = (payload: unknown) => x.res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
    ctx.rpc.events.on(name, listener);
    return [name, listener] as const;
  });
  const ping = setInterval(() => x.res.write(': ping\n\n'), 25_000);
  x.req.on('close', () => {
    clearInterval(ping);
    for (const [name, listener] of listeners) ctx.rpc.events.off(name, listener);
  });
}

const errorOf = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return { code: e.code ?? 'InternalError', message: e.message ?? String(err) };
};

async function upload(x: Exchange, ctx: UiContext): Promise<void> {
  const id = x.param('id');
  if (!id) return json(x, 400, { ok: false, error: { code: 'InvalidArgument', message: 'id (from transfers.startUpload) is required' } });
  try {
    return json(x, 200, { ok: true, value: await ctx.upload(id, x.req) });
  } catch (err) {
    return json(x, 200, { ok: false, error: errorOf(err) });
  }
}

/** A preview shown in the app's own page (the PDF viewer's frame included), its content inert. */
const INLINE_SECURITY = { ...SECURITY, 'Content-Security-Policy': `${INLINE_CSP}; frame-ancestors 'self'` };

/**
 * `GET /_coffer/download?account&container&name[&inline=1]`: the object as an attachment, or
 * inline for a preview; one byte range of it when asked (media seeking, a text's first bytes).
 */
async function download(x: Exchange, ctx: UiContext): Promise<void> {
  const [account, container, name] = ['account', 'container', 'name'].map((p) => x.param(p));
  if (!account || !container || !name) return json(x, 400, { error: 'account, container and name are required' });
  const inline = x.param('inline') === '1';
  const reply = await objectReply(ctx.objects, { account, container, name }, { range: x.header('range'), ifRange: x.header('if-range'), inline });
  const headers = { ...(inline ? INLINE_SECURITY : SECURITY), ...reply.headers };
  if (typeof reply.body === 'string') return x.send(reply.status, headers, reply.body);
  await x.stream(reply.status, headers, reply.body);
}

const zips = new ZipDownloads();

/** `POST /_coffer/zip` {account, container, names, prefixes, title}: an id to download the selection as one zip. */
async function prepareZip(x: Exchange): Promise<void> {
  const body = await readSmallBody(x.req, 4 * 1024 * 1024);
  if (body === 'too-large') return json(x, 413, { error: 'Request too large' });
  let r: Partial<ZipRequest>;
  try {
    r = JSON.parse(body.toString('utf8')) as Partial<ZipRequest>;
  } catch {
    return json(x, 400, { error: 'Invalid JSON' });
  }
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  if (typeof r.account !== 'string' || typeof r.container !== 'string' || !strings(r.names) || !strings(r.prefixes) || typeof r.title !== 'string') {
    return json(x, 400, { error: 'account, container, names, prefixes and title are required' });
  }
  return json(x, 200, { id: zips.prepare(r as ZipRequest) });
}

async function sendZip(x: Exchange, ctx: UiContext, id: string): Promise<void> {
  const request = zips.take(id);
  if (!request) return json(x, 404, { error: 'This download link was used or has expired: download again' });
  await streamZip(x, request, ctx.zipSource, SECURITY);
}

/**
 * The contract over HTTP for the browser build (`coffer serve --ui`): the renderer's files, an RPC
 * endpoint, server-sent events and an upload endpoint. As safe as the desktop app: a session
 * token from the printed URL becomes an HttpOnly SameSite=Strict cookie, and requests from other
 * origins or hosts are refused.
 */
export async function handleUi(x: Exchange, ctx: UiContext, streams: EventStreams): Promise<void> {
  if (!trustedRequest(x, ctx.port())) return json(x, 403, { error: 'Forbidden origin or host' });
  const rel = x.rawPath.slice(UI_PREFIX.length);
  if (x.method === 'GET' && tokenMatches(x.param('token'), ctx.sessionToken)) {
    return x.send(302, {
      ...SECURITY,
      'Set-Cookie': `${COOKIE}=${ctx.sessionToken}; HttpOnly; SameSite=Strict; Path=${UI_PREFIX}; Max-Age=${COOKIE_MAX_AGE_S}`,
      Location: `${UI_PREFIX}/`,
    });
  }
  if (!hasSession(x, ctx.sessionToken)) return json(x, 401, { error: 'Open the URL printed by coffer serve --ui' });
  if (rel === '/rpc' && x.method === 'POST') {
    const body = await readSmallBody(x.req, 4 * 1024 * 1024);
    if (body === 'too-large') return json(x, 413, { error: 'Request too large' });
    let request: { method?: unknown; arg?: unknown };
    try {
      request = JSON.parse(body.toString('utf8')) as typeof request;
    } catch {
      return json(x, 400, { error: 'Invalid JSON' });
    }
    return json(x, 200, await ctx.rpc.call(String(request.method), request.arg ?? {}));
  }
  if (rel === '/events' && x.method === 'GET') return events(x, ctx, streams);
  if (rel === '/upload' && x.method === 'POST') return upload(x, ctx);
  if (rel === '/download' && x.method === 'GET') return download(x, ctx);
  if (rel === '/zip' && x.method === 'POST') return prepareZip(x);
  if (rel.startsWith('/zip/') && x.method === 'GET') return sendZip(x, ctx, rel.slice('/zip/'.length));
  if (x.method === 'GET') return serveStatic(x, ctx, rel);
  return json(x, 405, { error: 'Method not allowed' });
}
