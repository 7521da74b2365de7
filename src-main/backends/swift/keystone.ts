import { CofferError } from '../../../src-shared/errors.js';
import type { AuthSettings, EndpointInterface, IdOrName, SwiftAuth, SwiftSession } from './auth.js';
import { bodyMessage } from './errors.js';
import { header, readText, type Http } from './http.js';

type KeystoneAuth = Extract<SwiftAuth, { type: 'password' | 'application-credential' }>;

/** The identity URL as typed may end in `/v3`, `/v3/`, `/v2.0` or nothing: always `…/v3`. */
export function normaliseIdentityUrl(url: string): string {
  const base = url.trim().replace(/\/+$/, '').replace(/\/v2\.0$/, '');
  return /\/v3$/.test(base) ? base : `${base}/v3`;
}

function ref(v: IdOrName): { id: string } | { name: string } {
  return typeof v === 'string' ? { name: v } : v;
}

/** A user or project by id needs no domain; by name it does, `default` unless told otherwise. */
function scoped(v: IdOrName, domain: IdOrName | undefined): Record<string, unknown> {
  const r = ref(v);
  return 'id' in r ? r : { ...r, domain: domain === undefined ? { id: 'default' } : ref(domain) };
}

/** The `POST /v3/auth/tokens` body (§1.4) for password or application-credential auth. */
export function tokenRequestBody(auth: KeystoneAuth): unknown {
  if (auth.type === 'password') {
    return {
      auth: {
        identity: { methods: ['password'], password: { user: { ...scoped(auth.user, auth.userDomain), password: auth.password } } },
        ...(auth.project !== undefined ? { scope: { project: scoped(auth.project, auth.projectDomain) } } : {}),
      },
    };
  }
  // An application credential carries its own scope: a request with one is refused.
  if (auth.id) return { auth: { identity: { methods: ['application_credential'], application_credential: { id: auth.id, secret: auth.secret } } } };
  if (!auth.name || auth.user === undefined) {
    throw new CofferError('InvalidArgument', 'An application credential needs its id, or its name and its user');
  }
  return {
    auth: {
      identity: {
        methods: ['application_credential'],
        application_credential: { name: auth.name, user: scoped(auth.user, auth.userDomain), secret: auth.secret },
      },
    },
  };
}

interface CatalogEndpoint {
  interface?: string;
  region?: string;
  region_id?: string;
  url?: string;
}
interface CatalogService {
  type?: string;
  endpoints?: CatalogEndpoint[];
}

/** The object-store endpoint for this interface (and region, when one is asked for). */
export function pickEndpoint(catalog: CatalogService[] | undefined, iface: EndpointInterface, region?: string): string {
  const endpoints = (catalog ?? []).filter((s) => s.type === 'object-store').flatMap((s) => s.endpoints ?? []);
  const fit = endpoints.find((e) => e.interface === iface && (region === undefined || e.region_id === region || e.region === region) && e.url);
  if (fit?.url) return fit.url.replace(/\/+$/, '');
  const offered = endpoints.map((e) => `${e.interface ?? '?'}@${e.region_id ?? e.region ?? '?'}`).join(', ') || 'none';
  throw new CofferError(
    'InvalidArgument',
    `The identity service lists no object-store endpoint for interface ${iface}${region ? ` in region ${region}` : ''} (offered: ${offered})`,
  );
}

interface TokenBody {
  token?: {
    expires_at?: string;
    user?: { name?: string };
    project?: { name?: string };
    catalog?: CatalogService[];
  };
}

/** Keystone v3 sign-in: token from `X-Subject-Token`, storage URL from the catalog. */
export async function keystoneAuth(http: Http, s: AuthSettings, auth: KeystoneAuth): Promise<SwiftSession> {
  if (!s.authUrl) throw new CofferError('InvalidArgument', 'Keystone auth needs the identity URL');
  const endpoint = `${normaliseIdentityUrl(s.authUrl)}/auth/tokens`;
  const url = new URL(endpoint);
  const reply = await http.send({
    method: 'POST',
    origin: url.origin,
    path: url.pathname + url.search,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(tokenRequestBody(auth)),
    timeoutMs: s.timeoutMs,
  });
  const text = await readText(reply.body, 8 * 1024 * 1024);
  if (reply.status !== 201 && reply.status !== 200) {
    let said = bodyMessage(text);
    try {
      said = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? said;
    } catch {
      // Not JSON: keep the text.
    }
    const code = reply.status === 401 || reply.status === 403 ? 'AuthFailed' : 'RemoteError';
    throw new CofferError(code, `Keystone sign-in at ${endpoint} failed: ${reply.status}${said ? ` ${said}` : ''}`, { status: reply.status });
  }
  const token = header(reply.headers, 'x-subject-token');
  let body: TokenBody;
  try {
    body = JSON.parse(text) as TokenBody;
  } catch {
    throw new CofferError('RemoteError', `Keystone at ${endpoint} answered without a JSON token body`);
  }
  if (!token) throw new CofferError('RemoteError', `Keystone at ${endpoint} answered without X-Subject-Token`);
  const storageUrl = pickEndpoint(body.token?.catalog, s.interface ?? 'public', s.region);
  const expires = Date.parse(body.token?.expires_at ?? '');
  const who = [body.token?.user?.name, body.token?.project?.name].filter(Boolean).join(' / ');
  return { token, storageUrl, expiresAt: Number.isNaN(expires) ? null : expires, displayName: who || null };
}
