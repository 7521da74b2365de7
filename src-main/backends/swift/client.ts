import { setTimeout as sleep } from 'node:timers/promises';
import { CofferError } from '../../../src-shared/errors.js';
import type { SessionCache } from './auth.js';
import { isTransient, networkError, retryableStatus, statusError, type ErrorTarget } from './errors.js';
import { encodeObjectPath, encodeSegment } from './headers.js';
import { drain, header, readText, type Body, type Http, type RawReply } from './http.js';

export interface SwiftRequest {
  method: string;
  container?: string;
  object?: string;
  /** Query parameters; '' renders a bare key (`?bulk-delete`). */
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string | number>;
  body?: Body;
  signal?: AbortSignal;
  /** May be sent again after a network error or 5xx. Default: GET, HEAD, DELETE. Needs a replayable body. */
  idempotent?: boolean;
  /** Statuses that count as success; default 2xx. */
  ok?: (status: number) => boolean;
  /** What a 404 means; default from the path. */
  target?: ErrorTarget;
  /** Prefix of error messages (`Upload of c/o`). */
  what?: string;
}

export interface ClientOptions {
  timeoutMs: number;
  /** Attempts in all for an idempotent request (first try included). */
  attempts: number;
  /** First backoff delay; doubles each retry, with jitter. */
  backoffMs: number;
}

function queryString(q: SwiftRequest['query']): string {
  if (!q) return '';
  const parts = Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => (v === '' ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`));
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The last storage URL taken apart: every request of a session goes under the same one. */
let lastBase: { storageUrl: string; origin: string; base: string } | undefined;

/** A storage URL's origin and its path without a trailing slash, as sent. */
function storageBase(storageUrl: string): { origin: string; base: string } {
  if (lastBase?.storageUrl !== storageUrl) {
    const url = new URL(storageUrl);
    const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(storageUrl)?.[0] ?? url.origin;
    lastBase = { storageUrl, origin: url.origin, base: storageUrl.slice(authority.length).replace(/[?#].*$/, '').replace(/\/+$/, '') };
  }
  return lastBase;
}

/** Replayable bodies can go out again after a 401 or a network error; a one-shot stream cannot. */
function replayable(body: Body | undefined): boolean {
  return body === undefined || typeof body === 'string' || Buffer.isBuffer(body) || typeof body === 'function';
}

/**
 * Authenticated requests against the storage URL: adds the token, signs in again once on 401
 * and retries, retries idempotent requests with exponential backoff on network errors and
 * 5xx/429/498, and turns failures into CofferErrors with the server's words kept.
 */
export class SwiftClient {
  constructor(
    readonly http: Http,
    readonly sessions: SessionCache,
    private readonly opts: ClientOptions,
  ) {}

  async storageUrl(): Promise<string> {
    return (await this.sessions.get()).storageUrl;
  }

  /** The raw path of a container or object under a storage URL (never normalised, `$` left as sent). */
  static pathOf(storageUrl: string, container?: string, object?: string): { origin: string; path: string } {
    const { origin, base } = storageBase(storageUrl);
    let path = base;
    if (container !== undefined) path += `/${encodeSegment(container)}`;
    if (object !== undefined) path += `/${encodeObjectPath(object)}`;
    return { origin, path };
  }

  async request(r: SwiftRequest): Promise<RawReply> {
    const canRetry = (r.idempotent ?? ['GET', 'HEAD', 'DELETE'].includes(r.method)) && replayable(r.body);
    const ok = r.ok ?? ((s: number) => s >= 200 && s < 300);
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const session = await this.sessions.get();
      const { origin, path } = SwiftClient.pathOf(session.storageUrl, r.container, r.object);
      let reply: RawReply;
      try {
        reply = await this.http.send({
          method: r.method,
          origin,
          path: path + queryString(r.query),
          headers: { ...r.headers, 'X-Auth-Token': session.token },
          ...(r.body !== undefined ? { body: r.body } : {}),
          ...(r.signal ? { signal: r.signal } : {}),
          timeoutMs: this.opts.timeoutMs,
        });
      } catch (err) {
        if (canRetry && isTransient(err) && attempt < this.opts.attempts) {
          await this.backoff(attempt, undefined, r.signal);
          continue;
        }
        throw networkError(err, r.signal);
      }
      if (reply.status === 401) {
        const text = await this.finish(reply);
        this.sessions.invalidate(session.token);
        // Once: a token that fails right after a fresh sign-in means the credentials no longer work.
        if (!renewed && this.sessions.renewable && replayable(r.body)) {
          renewed = true;
          attempt--;
          continue;
        }
        throw statusError(401, text, 'account', r.what ?? 'The server refused the credentials');
      }
      // A DELETE retried after a lost answer may find its work already done.
      if (ok(reply.status) || (r.method === 'DELETE' && reply.status === 404 && attempt > 1)) return reply;
      if (canRetry && retryableStatus(reply.status) && attempt < this.opts.attempts) {
        await this.finish(reply);
        await this.backoff(attempt, header(reply.headers, 'retry-after'), r.signal);
        continue;
      }
      throw await this.failure(reply, r);
    }
  }

  /** A request whose body is not needed: success drains it so the connection is reused. */
  async call(r: SwiftRequest): Promise<RawReply> {
    const reply = await this.request(r);
    await drain(reply.body);
    return reply;
  }

  /** A request with a JSON answer (listings, bulk reports). */
  async json<T>(r: SwiftRequest): Promise<{ reply: RawReply; data: T | undefined }> {
    const reply = await this.request({ ...r, headers: { Accept: 'application/json', ...r.headers } });
    const text = await readText(reply.body, 64 * 1024 * 1024);
    if (!text.trim()) return { reply, data: undefined };
    try {
      return { reply, data: JSON.parse(text) as T };
    } catch {
      throw new CofferError('RemoteError', `${r.what ?? 'The server'} answered with something that is not JSON: ${text.slice(0, 200)}`);
    }
  }

  /** Reads what is left of an answer we do not use, and stops an upload the server already refused. */
  private async finish(reply: RawReply): Promise<string> {
    const text = await readText(reply.body).catch(() => '');
    reply.abort();
    return text;
  }

  private async failure(reply: RawReply, r: SwiftRequest): Promise<CofferError> {
    const text = await this.finish(reply);
    const target: ErrorTarget = r.target ?? (r.object !== undefined ? 'object' : r.container !== undefined ? 'container' : 'account');
    let err = statusError(reply.status, text, target, r.what);
    // A bodiless (HEAD) or generic 404 for an object: the container may be the missing part.
    if (err.code === 'NoSuchKey' && r.container !== undefined) {
      const c = await this.request({ method: 'HEAD', container: r.container, ok: (s) => s < 300 || s === 404, signal: r.signal }).catch(() => undefined);
      if (c) await drain(c.body);
      if (c?.status === 404) err = statusError(404, text, 'container', r.what);
    }
    return err;
  }

  private async backoff(attempt: number, retryAfter: string | undefined, signal?: AbortSignal): Promise<void> {
    const asked = Number(retryAfter);
    const base = this.opts.backoffMs * 2 ** (attempt - 1);
    const ms = Number.isFinite(asked) && asked > 0 ? Math.min(asked * 1000, 30_000) : base / 2 + Math.random() * base;
    try {
      await sleep(ms, undefined, signal ? { signal } : undefined);
    } catch {
      throw new CofferError('Aborted', 'The transfer was cancelled');
    }
  }
}
