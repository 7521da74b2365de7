import type { RpcResult, Transport } from '../../src-shared/rpc/envelope';

/** What the preload puts on window.coffer in the desktop app. */
export interface DesktopBridge {
  platform: string;
  call(method: string, arg: unknown): Promise<RpcResult>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    coffer?: DesktopBridge;
  }
}

export function ipcTransport(bridge: DesktopBridge): Transport {
  return { call: (m, a) => bridge.call(m, a), subscribe: (e, l) => bridge.subscribe(e, l) };
}

/**
 * How the HTTP transport words a refused session, so the UI can tell it from a remote account
 * refusing its credentials (both travel as AuthFailed; the error vocabulary has no session code).
 */
export const SESSION_EXPIRED = 'Session expired or not valid';

/** What the HTTP transport uses of the page: its fetch and EventSource (a test under Node passes stand-ins). */
export interface WebApis {
  fetch: typeof fetch;
  EventSource: typeof EventSource;
}

/** Whether a parsed body is the contract's envelope: `{ok: true, value}` or `{ok: false, error: {code, message}}`. */
function isEnvelope(body: unknown): body is RpcResult {
  if (typeof body !== 'object' || body === null) return false;
  const { ok, error } = body as { ok?: unknown; error?: { code?: unknown; message?: unknown } | null };
  if (ok === true) return true;
  return ok === false && typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}

/**
 * What an answer of the server at /_coffer says, in the contract's envelope. The server answers
 * everything in it, failures too, with a status to match: a refused session (401) is AuthFailed
 * worded as SESSION_EXPIRED, any other envelope is the server's own result or error, with its code
 * and message. Only an answer without one (a proxy's or gateway's error page, an empty reply) means
 * the server was not reached: Unreachable, with the status.
 */
export async function readAnswer(res: Response): Promise<RpcResult> {
  if (res.status === 401) return { ok: false, error: { code: 'AuthFailed', message: `${SESSION_EXPIRED} (${res.status} ${res.statusText})` } };
  const body: unknown = await res.json().catch(() => undefined);
  // A success claimed by a failed status is not the server's: it says ok only with 2xx.
  if (isEnvelope(body) && (res.ok || !body.ok)) return body;
  return { ok: false, error: { code: 'Unreachable', message: `${res.status} ${res.statusText}`.trim() } };
}

/** A request that never got an answer (fetch rejected): the network, a stopped server, an aborted request. */
export function unreachable(err: unknown): RpcResult {
  return { ok: false, error: { code: 'Unreachable', message: err instanceof Error ? err.message : String(err) } };
}

/** The browser build: the contract over HTTP at /_coffer (session cookie set by the printed URL). */
export function httpTransport(base = '/_coffer', web: WebApis = globalThis): Transport {
  let source: EventSource | undefined;
  return {
    async call(method, arg) {
      let res: Response;
      try {
        res = await web.fetch(`${base}/rpc`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          credentials: 'same-origin',
          body: JSON.stringify({ method, arg }),
        });
      } catch (err) {
        return unreachable(err);
      }
      return readAnswer(res);
    },
    subscribe(event, listener) {
      source ??= new web.EventSource(`${base}/events`, { withCredentials: true });
      const handler = (e: MessageEvent<string>) => listener(JSON.parse(e.data));
      source.addEventListener(event, handler);
      return () => source?.removeEventListener(event, handler);
    },
  };
}

/** Chosen once at start: IPC when the preload bridge exists, HTTP otherwise. */
export function pickTransport(): Transport {
  return window.coffer ? ipcTransport(window.coffer) : httpTransport();
}
