import { createHmac, timingSafeEqual } from 'node:crypto';
import { Engine } from '../../../engine/index.js';
import { httpDate } from '../../common/dates.js';
import type { HeaderValues } from '../../common/exchange.js';
import { decodeStrict } from '../../common/url.js';
import { NativeError } from '../errors.js';
import type { ObjectPath, TempUrlParams } from '../operation.js';
import type { NativeContext, TempUrlReach } from '../respond.js';

/** What /info publishes and what is accepted (§12.2): Swift's methods; RGW's digests (SHA-1 included). */
export const TEMPURL = {
  methods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
  allowed_digests: ['sha1', 'sha256', 'sha512'],
  incoming_remove_headers: ['x-timestamp', 'x-open-expired'],
  incoming_allow_headers: [] as string[],
  outgoing_remove_headers: ['x-object-meta-*'],
  outgoing_allow_headers: ['x-object-meta-public-*'],
};

type Digest = 'sha1' | 'sha256' | 'sha512';
const HEX_LENGTHS: Record<number, Digest> = { 40: 'sha1', 64: 'sha256', 128: 'sha512' };

/** `temp_url_expires`: epoch seconds or `YYYY-MM-DDTHH:MM:SSZ`; 0 when malformed. */
function parseExpires(v: string): number {
  if (/^\d+$/.test(v)) return Number(v);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(v)) return 0;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? 0 : ms / 1000;
}

/** Hex of the signature and its digest: `<hex>` (digest by length) or `<digest>:<base64url>`. */
function parseSignature(sig: string): { digest: Digest; hex: string } | undefined {
  const colon = sig.indexOf(':');
  if (colon < 0) {
    const digest = HEX_LENGTHS[sig.length];
    return digest && /^[0-9a-fA-F]+$/.test(sig) ? { digest, hex: sig.toLowerCase() } : undefined;
  }
  const digest = sig.slice(0, colon) as Digest;
  const b64 = sig.slice(colon + 1);
  if (!TEMPURL.allowed_digests.includes(digest) || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(b64)) return undefined;
  return { digest, hex: Buffer.from(b64.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('hex') };
}

/**
 * Keys that may sign for this object: the account's, then its container's (Swift; RGW ignores the
 * latter), the container's only when it is the account's own: a key set on a container belongs
 * to that container's account.
 */
export function keysFor(ctx: NativeContext, account: string, container: string): string[] {
  return scopedKeysFor(ctx, account, container).map((k) => k.key);
}

/** The keys that may sign for an object, each with its scope: the account's keys reach the account, a container's its container. */
function scopedKeysFor(ctx: NativeContext, account: string, container: string): { key: string; scope: 'account' | 'container' }[] {
  const names = ['temp-url-key', 'temp-url-key-2'];
  const accountMeta = ctx.engine.findAccount(account)?.meta ?? {};
  let containerMeta: Record<string, string> = {};
  try {
    const c = ctx.engine.getContainer(Engine.ref(account, container));
    if (c.owner === account) containerMeta = c.meta;
  } catch {
    // No container: only account keys can sign (a PUT will then fail with 404).
  }
  const scoped = (meta: Record<string, string>, scope: 'account' | 'container') =>
    names.flatMap((n) => (meta[n] ? [{ key: meta[n], scope }] : []));
  return [...scoped(accountMeta, 'account'), ...scoped(containerMeta, 'container')];
}

/**
 * The paths a signature may cover: `/v1/AUTH_<account>/<container>/<object>` as requested,
 * with and without the `/swift` prefix (RGW tries both), or their `prefix:` forms.
 */
function signedPaths(rawPath: string, object: string, prefix: string | undefined): string[] {
  const decoded = decodeStrict(rawPath) ?? rawPath;
  const bare = decoded.startsWith('/swift/') ? decoded.slice('/swift'.length) : decoded;
  const path = prefix === undefined ? bare : `${bare.slice(0, bare.length - object.length)}${prefix}`;
  const forms = [path, `/swift${path}`];
  return prefix === undefined ? forms : forms.map((p) => `prefix:${p}`);
}

export interface Grant {
  expires: number;
  filename: string | undefined;
  inline: boolean;
  /**
   * How far the URL reaches through symlinks (Swift's tempurl authorizes each subrequest): the
   * signing account, and with a container's key only that container.
   */
  reach: TempUrlReach;
}


/** The grant a request's TempURL signature gives, or undefined when it gives none (401). */
export function verifyTempUrl(ctx: NativeContext, method: string, rawPath: string, target: ObjectPath, params: TempUrlParams): Grant | undefined {
  if (!TEMPURL.methods.includes(method)) return undefined;
  const sig = parseSignature(params.sig);
  const expires = parseExpires(params.expires);
  if (!sig || !TEMPURL.allowed_digests.includes(sig.digest) || expires * 1000 < Date.now()) return undefined;
  const prefix = params.prefix;
  if (prefix !== undefined && !target.object.startsWith(prefix)) return undefined;
  const given = Buffer.from(sig.hex, 'hex');
  // HEAD may use a URL signed for GET, PUT or POST: it reveals no more than those would.
  const methods = method === 'HEAD' ? ['HEAD', 'GET', 'POST', 'PUT'] : [method];
  for (const { key, scope } of scopedKeysFor(ctx, target.account, target.container)) {
    for (const path of signedPaths(rawPath, target.object, prefix)) {
      for (const method of methods) {
        const mac = createHmac(sig.digest, key).update(`${method}\n${expires}\n${path}`).digest();
        if (mac.length === given.length && timingSafeEqual(mac, given)) {
          const reach = scope === 'account' ? { account: target.account } : { account: target.account, container: target.container };
          return { expires, filename: params.filename, inline: params.inline, reach };
        }
      }
    }
  }
  return undefined;
}

/** Python's `urllib.parse.quote`: every byte but unreserved characters and `safe` percent-encoded. */
function pyQuote(s: string, safe: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => {
      const ch = String.fromCharCode(b);
      return /[A-Za-z0-9_.~-]/.test(ch) || (b < 0x80 && safe.includes(ch)) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

function disposition(type: string, filename: string): string {
  return `${type}; filename="${pyQuote(filename, ' /')}"; filename*=UTF-8''${pyQuote(filename, '/')}`;
}

/**
 * Swift's TempURL response rules (§12.2): Content-Disposition from `inline`/`filename`, else the
 * stored one, else an attachment named after the object; `Expires` at the URL's expiry; user
 * metadata hidden except `X-Object-Meta-Public-*`.
 */
export function tempUrlHeaders(grant: Grant, object: string) {
  return (h: HeaderValues): HeaderValues => {
    const out: HeaderValues = {};
    let stored: string | undefined;
    for (const [k, v] of Object.entries(h)) {
      const lower = k.toLowerCase();
      if (lower === 'content-disposition') stored = String(v);
      else if (!lower.startsWith('x-object-meta-') || lower.startsWith('x-object-meta-public-')) out[k] = v;
    }
    const name = object.replace(/\/+$/, '').split('/').pop() ?? object;
    const value = grant.inline
      ? grant.filename !== undefined ? disposition('inline', grant.filename) : 'inline'
      : grant.filename !== undefined ? disposition('attachment', grant.filename) : (stored ?? disposition('attachment', name));
    return { ...out, 'Content-Disposition': value.replace(/\n/g, '%0A'), Expires: httpDate(grant.expires * 1000) };
  };
}

/** As Swift's tempurl answers a URL that grants nothing: its 401 names no account (realm "unknown"). */
export function tempUrlInvalid(): NativeError {
  return new NativeError(401, '401 Unauthorized: Temp URL invalid\n', { 'Www-Authenticate': 'Swift realm="unknown"' });
}
