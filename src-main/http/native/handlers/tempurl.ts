import { createHmac, timingSafeEqual } from 'node:crypto';
import { Engine } from '../../../engine/engine.js';
import { httpDate } from '../../common/dates.js';
import type { Exchange, HeaderValues } from '../../common/exchange.js';
import { decodeStrict } from '../../common/url.js';
import type { NativeTarget } from '../router.js';
import type { ContainerInfo } from '../../../engine/types.js';
import { fail, type NativeCall, type NativeContext } from '../respond.js';
import { deleteObject, getObject, postObject, putObject } from './object.js';

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
/** Headers that would let a signed upload point at data the URL does not grant (Swift's list, plus copies). */
const DISALLOWED = ['x-object-manifest', 'x-symlink-target', 'x-copy-from'];

export function hasTempUrl(x: Exchange): boolean {
  return x.has('temp_url_sig') || x.has('temp_url_expires');
}

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
function keysFor(ctx: NativeContext, account: string, container: string): string[] {
  const names = ['temp-url-key', 'temp-url-key-2'];
  const accountMeta = ctx.engine.findAccount(account)?.meta ?? {};
  let containerMeta: Record<string, string> = {};
  try {
    const c = ctx.engine.getContainer(Engine.ref(account, container));
    if (c.owner === account) containerMeta = c.meta;
  } catch {
    // No container: only account keys can sign (a PUT will then fail with 404).
  }
  return [...names.map((n) => accountMeta[n]), ...names.map((n) => containerMeta[n])].filter((k): k is string => !!k);
}

/**
 * The paths a signature may cover: `/v1/AUTH_<account>/<container>/<object>` as requested,
 * with and without the `/swift` prefix (RGW tries both), or their `prefix:` forms.
 */
function signedPaths(x: Exchange, object: string, prefix: string | undefined): string[] {
  const decoded = decodeStrict(x.rawPath) ?? x.rawPath;
  const bare = decoded.startsWith('/swift/') ? decoded.slice('/swift'.length) : decoded;
  const path = prefix === undefined ? bare : `${bare.slice(0, bare.length - object.length)}${prefix}`;
  const forms = [path, `/swift${path}`];
  return prefix === undefined ? forms : forms.map((p) => `prefix:${p}`);
}

export interface Grant {
  expires: number;
  filename: string | undefined;
  inline: boolean;
}

/** The grant a request's TempURL signature gives, or undefined when it gives none (401). */
export function verifyTempUrl(x: Exchange, ctx: NativeContext, target: Extract<NativeTarget, { kind: 'object' }>): Grant | undefined {
  if (!TEMPURL.methods.includes(x.method)) return undefined;
  const sig = parseSignature(x.param('temp_url_sig') ?? '');
  const expires = parseExpires(x.param('temp_url_expires') ?? '');
  if (!sig || !TEMPURL.allowed_digests.includes(sig.digest) || expires * 1000 < Date.now()) return undefined;
  const prefix = x.param('temp_url_prefix');
  if (prefix !== undefined && !target.object.startsWith(prefix)) return undefined;
  const given = Buffer.from(sig.hex, 'hex');
  // HEAD may use a URL signed for GET, PUT or POST: it reveals no more than those would.
  const methods = x.method === 'HEAD' ? ['HEAD', 'GET', 'POST', 'PUT'] : [x.method];
  for (const key of keysFor(ctx, target.account, target.container)) {
    for (const path of signedPaths(x, target.object, prefix)) {
      for (const method of methods) {
        const mac = createHmac(sig.digest, key).update(`${method}\n${expires}\n${path}`).digest();
        if (mac.length === given.length && timingSafeEqual(mac, given)) {
          return { expires, filename: x.param('filename'), inline: x.has('inline') };
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
function adjustHeaders(grant: Grant, object: string) {
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

export function tempUrlInvalid(x: Exchange): void {
  // As Swift's tempurl: its 401 names no account (realm "unknown").
  fail(x, 401, '401 Unauthorized: Temp URL invalid\n', { 'Www-Authenticate': 'Swift realm="unknown"' });
}

/**
 * The one object operation a verified TempURL allows, once the container was reached as its
 * signing account would reach it with a token. Only the plain operations: Swift drops every
 * other query parameter of a TempURL request.
 */
export function tempUrlObject(call: NativeCall, c: ContainerInfo, name: string, grant: Grant): Promise<void> {
  const { x } = call;
  if (x.method !== 'GET' && x.method !== 'HEAD') {
    const bad = DISALLOWED.find((h) => x.header(h) !== undefined);
    if (bad) return Promise.resolve(fail(x, 400, `The header '${bad.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase())}' is not allowed in this tempurl`));
  }
  switch (x.method) {
    case 'GET':
    case 'HEAD':
      return getObject(call, c, name, { adjust: adjustHeaders(grant, name) });
    case 'PUT':
      return putObject(call, c, name);
    case 'POST':
      return postObject(call, c, name);
    default:
      return deleteObject(call, c, name);
  }
}
