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

/** The browser build: the contract over HTTP at /_coffer (session cookie set by the printed URL). */
export function httpTransport(base = '/_coffer', web: WebApis = globalThis): Transport {
  let source: EventSource | undefined;
  return {
    async call(method, arg) {
      try {
        const res = await web.fetch(`${base}/rpc`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          credentials: 'same-origin',
          body: JSON.stringify({ method, arg }),
        });
        if (res.status === 401) return { ok: false, error: { code: 'AuthFailed', message: `${SESSION_EXPIRED} (${res.status} ${res.statusText})` } };
        if (!res.ok) return { ok: false, error: { code: 'Unreachable', message: `${res.status} ${res.statusText}` } };
        return (await res.json()) as RpcResult;
      } catch (err) {
        return { ok: false, error: { code: 'Unreachable', message: err instanceof Error ? err.message : String(err) } };
      }
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
