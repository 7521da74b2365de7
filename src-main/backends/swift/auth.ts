import { CofferError } from '../../../src-shared/errors.js';
import { bodyMessage } from './errors.js';
import { drain, header, readText, type Http } from './http.js';
import { keystoneAuth } from './keystone.js';

/** A plain string is a name; Keystone takes users, projects and domains by name or by id. */
export type IdOrName = string | { id: string } | { name: string };
export type EndpointInterface = 'public' | 'internal' | 'admin';

/** How a remote Swift account signs in. Field names follow the app's connection settings. */
export type SwiftAuth =
  /** TempAuth / RGW v1: `GET {authUrl}` with X-Auth-User and X-Auth-Key. */
  | { type: 'v1'; user: string; key: string }
  /** Keystone v3 password, scoped to a project. Domains default to the `default` domain. */
  | { type: 'password'; user: IdOrName; userDomain?: IdOrName; password: string; project?: IdOrName; projectDomain?: IdOrName }
  /** Keystone v3 application credential: by id, or by name with its user. */
  | { type: 'application-credential'; id?: string; name?: string; user?: IdOrName; userDomain?: IdOrName; secret: string }
  /** A token someone else obtained, with its storage URL; it cannot be renewed. */
  | { type: 'token'; token: string; storageUrl: string };

export interface AuthSettings {
  /** v1: the auth URL (`…/auth/v1.0`); Keystone: the identity URL, with or without `/v3`. */
  authUrl?: string;
  auth: SwiftAuth;
  /** Keystone catalog choice: region id (any when absent) and interface (default public). */
  region?: string;
  interface?: EndpointInterface;
  timeoutMs: number;
}

/** What a sign-in yields; the app may keep it and hand it back to skip the next sign-in. */
export interface SwiftSession {
  token: string;
  storageUrl: string;
  /** Epoch ms; null when the server did not say. */
  expiresAt: number | null;
  /** Who signed in (user, or user and project), for display. */
  displayName?: string | null;
}

/** Assumed lifetime when the server gives none (TempAuth and RGW default to a day); renewed well before. */
const DEFAULT_LIFETIME_MS = 23 * 3600_000;
/** Renew this long before the stated expiry, so a request never leaves with a dying token. */
const RENEW_MARGIN_MS = 60_000;

async function v1Auth(http: Http, s: AuthSettings, auth: Extract<SwiftAuth, { type: 'v1' }>): Promise<SwiftSession> {
  if (!s.authUrl) throw new CofferError('InvalidArgument', 'v1 auth needs an auth URL');
  const url = new URL(s.authUrl);
  // A bare host means the usual TempAuth path; RGW answers anything under /auth.
  const path = url.pathname === '/' || url.pathname === '' ? '/auth/v1.0' : url.pathname;
  const reply = await http.send({
    method: 'GET',
    origin: url.origin,
    path: path + url.search,
    headers: { 'X-Auth-User': auth.user, 'X-Auth-Key': auth.key },
    timeoutMs: s.timeoutMs,
  });
  // TempAuth answers 200, RGW 204 (§1.2): both are success.
  if (reply.status !== 200 && reply.status !== 204) {
    const body = bodyMessage(await readText(reply.body));
    // RGW says 403 for an unknown user, TempAuth 401: both mean the credentials are wrong.
    const code = reply.status === 401 || reply.status === 403 ? 'AuthFailed' : 'RemoteError';
    throw new CofferError(code, `Sign-in at ${s.authUrl} failed: ${reply.status}${body ? ` ${body}` : ''}`, { status: reply.status });
  }
  await drain(reply.body);
  const storageUrl = header(reply.headers, 'x-storage-url');
  const token = header(reply.headers, 'x-auth-token') ?? header(reply.headers, 'x-storage-token');
  if (!storageUrl || !token) throw new CofferError('RemoteError', `Sign-in at ${s.authUrl} returned no storage URL or token`);
  const expires = Number(header(reply.headers, 'x-auth-token-expires'));
  const expiresAt = Number.isFinite(expires) && expires > 0 ? Date.now() + expires * 1000 : Date.now() + DEFAULT_LIFETIME_MS;
  return { token, storageUrl, expiresAt, displayName: auth.user };
}

/**
 * Holds the token for one remote account: signs in when needed (one sign-in at a time, however
 * many requests wait), renews before expiry, and forgets a token the server rejected so the next
 * request signs in again.
 */
export class SessionCache {
  private current: SwiftSession | undefined;
  private pending: Promise<SwiftSession> | undefined;

  constructor(
    private readonly http: Http,
    private readonly settings: AuthSettings,
    seed?: SwiftSession,
  ) {
    const a = settings.auth;
    this.current = a.type === 'token' ? { token: a.token, storageUrl: a.storageUrl, expiresAt: null, displayName: null } : seed;
  }

  /** Whether a rejected token can be replaced by signing in again (not for a pre-issued token). */
  get renewable(): boolean {
    return this.settings.auth.type !== 'token';
  }

  /** The last session obtained, if any (to persist it). */
  peek(): SwiftSession | undefined {
    return this.current;
  }

  async get(): Promise<SwiftSession> {
    const c = this.current;
    if (c && (c.expiresAt === null || c.expiresAt - RENEW_MARGIN_MS > Date.now() || !this.renewable)) return c;
    this.pending ??= this.signIn().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Drops `token` if it is still the current one (concurrent 401s cause one sign-in, not many). */
  invalidate(token: string): void {
    if (this.current?.token === token && this.renewable) this.current = undefined;
  }

  private async signIn(): Promise<SwiftSession> {
    const a = this.settings.auth;
    let session: SwiftSession;
    if (a.type === 'v1') session = await v1Auth(this.http, this.settings, a);
    else if (a.type === 'token') session = { token: a.token, storageUrl: a.storageUrl, expiresAt: null };
    else session = await keystoneAuth(this.http, this.settings, a);
    this.current = session;
    return session;
  }
}
