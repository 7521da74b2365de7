// Previews in the desktop app: the renderer reaches an object's bytes at
// coffer-object://object/?account=…&container=…&name=…, answered in main by the same replies as
// the browser build's /_coffer/download (ranges, inline, an inert sandboxed document). Bytes never
// cross IPC; the page streams them as it would from a server. No 'electron' import here, so the
// handler is tested under plain Node.
import { Readable } from 'node:stream';
import { bodyInFlight } from '../engine/index.js';
import { INLINE_CSP, objectReply, type ObjectReader } from '../http/ui/object-response.js';

export const OBJECT_SCHEME = 'coffer-object';

/**
 * A standard, secure scheme (an origin of its own), which <img>, <audio>, <video>, the PDF viewer
 * and fetch may load, streamed so media can seek. Registered before the app is ready.
 */
export const OBJECT_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true } as const;

/** Longest values taken: an account id, a container name, an object name (in UTF-16 units, above what any store allows). */
const LIMITS = { account: 512, container: 512, name: 2048 } as const;

const SECURITY = { 'Content-Security-Policy': INLINE_CSP, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };
/**
 * The app page is a file: URL, another origin: it may read the bytes and the range it got. Only
 * pages in the app's session reach this scheme, and the window can neither navigate nor open
 * others, so that page is the only one.
 */
const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges' };

function refuse(status: number, error: string): Response {
  return new Response(JSON.stringify({ error }), { status, headers: { ...SECURITY, ...CORS, 'Content-Type': 'application/json; charset=utf-8' } });
}

/** The handler main passes to `protocol.handle(OBJECT_SCHEME, …)`. */
export function objectProtocolHandler(objects: ObjectReader): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { ...CORS, 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': 'Range, If-Range' } });
    }
    if (request.method !== 'GET') return refuse(405, 'Method not allowed');
    const url = new URL(request.url);
    if (url.hostname !== 'object') return refuse(404, 'Not found');
    const [account, container, name] = (['account', 'container', 'name'] as const).map((k) => {
      const v = url.searchParams.get(k);
      return v && v.length <= LIMITS[k] ? v : undefined;
    });
    if (!account || !container || !name) return refuse(400, 'account, container and name are required');
    const reply = await objectReply(objects, { account, container, name }, { range: request.headers.get('range') ?? undefined, ifRange: request.headers.get('if-range') ?? undefined, inline: true });
    const headers = new Headers({ ...SECURITY, ...CORS });
    for (const [k, v] of Object.entries(reply.headers)) headers.set(k, String(v));
    if (typeof reply.body !== 'string') reply.body.once('close', bodyInFlight(reply.headers['Content-Length']));
    const body = typeof reply.body === 'string' ? reply.body : (Readable.toWeb(reply.body) as ReadableStream<Uint8Array>);
    return new Response(body, { status: reply.status, headers });
  };
}
