// The browser build's page, as far as src-renderer/api/transport.ts uses it, under Node: a
// fetch and an EventSource that behave as Chromium's do for a page at `origin` holding the session
// cookie its printed link set. Relative URLs resolve against the page; a same-origin request
// carries the cookie (credentials 'same-origin' or 'include'; an EventSource always, as it is
// same-origin here); a POST carries the page's Origin, as browsers send it. The event stream is
// read as the HTML standard's EventSource reads it (fields, multi-line data, comments, the
// default 'message' type). Left out: reconnecting after the stream ends (it stays closed), and
// anything cross-origin.
import type { WebApis } from '../../src-renderer/api/transport.js';

export interface Page extends WebApis {
  /** Closes every event stream the page opened, as closing the tab does. */
  close(): void;
}

export function page(origin: string, cookie: string): Page {
  const base = `${origin}/`;
  const sameOrigin = (url: URL) => url.origin === new URL(origin).origin;

  const pageFetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), base);
    const headers = new Headers(init.headers);
    const credentials = init.credentials ?? 'same-origin';
    if (sameOrigin(url) && credentials !== 'omit') headers.set('Cookie', cookie);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') headers.set('Origin', new URL(origin).origin);
    return fetch(url, { ...init, headers });
  };

  const open = new Set<PageEventSource>();

  class PageEventSource extends EventTarget {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSED = 2;
    readonly CONNECTING = 0;
    readonly OPEN = 1;
    readonly CLOSED = 2;
    readonly url: string;
    readonly withCredentials: boolean;
    readyState = 0;
    onopen: ((e: Event) => unknown) | null = null;
    onmessage: ((e: MessageEvent) => unknown) | null = null;
    onerror: ((e: Event) => unknown) | null = null;
    private readonly controller = new AbortController();

    constructor(url: string | URL, init?: EventSourceInit) {
      super();
      this.url = new URL(String(url), base).href;
      this.withCredentials = init?.withCredentials ?? false;
      open.add(this);
      void this.read();
    }

    close(): void {
      this.readyState = 2;
      this.controller.abort();
      open.delete(this);
    }

    private fire(event: Event): void {
      const handler = event.type === 'open' ? this.onopen : event.type === 'error' ? this.onerror : event.type === 'message' ? this.onmessage : null;
      (handler as ((e: Event) => unknown) | null)?.call(this, event);
      this.dispatchEvent(event);
    }

    private async read(): Promise<void> {
      try {
        const res = await pageFetch(this.url, { headers: { Accept: 'text/event-stream' }, credentials: this.withCredentials ? 'include' : 'same-origin', signal: this.controller.signal });
        if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream') || !res.body) {
          // A browser fails the connection for good on these.
          this.readyState = 2;
          open.delete(this);
          this.fire(new Event('error'));
          return;
        }
        this.readyState = 1;
        this.fire(new Event('open'));
        const decoder = new TextDecoder();
        let buffer = '';
        let type = '';
        let data: string[] = [];
        let lastEventId = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          const lines = buffer.split(/\r\n|\r|\n/);
          buffer = lines.pop() ?? '';
          for (const line of lines) {
            if (line === '') {
              if (data.length > 0 && this.readyState !== 2) {
                this.fire(new MessageEvent(type || 'message', { data: data.join('\n'), lastEventId, origin: new URL(this.url).origin }));
              }
              type = '';
              data = [];
              continue;
            }
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            let value = colon < 0 ? '' : line.slice(colon + 1);
            if (value.startsWith(' ')) value = value.slice(1);
            if (field === 'event') type = value;
            else if (field === 'data') data.push(value);
            else if (field === 'id' && !value.includes('\0')) lastEventId = value;
          }
        }
      } catch {
        // Aborted by close(), or the connection failed.
      }
      if (this.readyState !== 2) {
        this.readyState = 2;
        open.delete(this);
        this.fire(new Event('error'));
      }
    }
  }

  return {
    fetch: pageFetch as typeof fetch,
    EventSource: PageEventSource as unknown as typeof EventSource,
    close() {
      for (const source of [...open]) source.close();
    },
  };
}
