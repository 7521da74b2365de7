import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Engine } from '../../engine/index.js';

export const TOKEN_LIFETIME_S = 86_400;
const PREFIX = 'AUTH_tk';

interface TokenClaims {
  /** account id */
  a: string;
  /** v1 user (`<tenant>$<name>:<sub>`) */
  u: string;
  /** expiry, epoch seconds */
  e: number;
  /** which key it was issued for (a digest): a rotated key ends its tokens */
  k: string;
}

const digests = new Map<string, string>();
/** Digest of a Swift key, remembered: every token check needs the current key's digest. */
function keyDigest(secretKey: string): string {
  let d = digests.get(secretKey);
  if (d === undefined) {
    d = createHash('sha256').update(secretKey).digest('base64url').slice(0, 16);
    if (digests.size >= 1000) digests.clear();
    digests.set(secretKey, d);
  }
  return d;
}

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 32);
}

/**
 * Tokens are self-contained and signed with the store's secret, so they survive a restart and
 * need no table; a token stops working when it expires or when its Swift key is removed or changed.
 */
export function issueToken(secret: Buffer, account: string, user: string, userKey: string, nowMs = Date.now()): { token: string; expires: number } {
  const claims: TokenClaims = { a: account, u: user, e: Math.floor(nowMs / 1000) + TOKEN_LIFETIME_S, k: keyDigest(userKey) };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { token: `${PREFIX}${payload}.${sign(secret, payload)}`, expires: claims.e };
}

/**
 * Tokens whose signature was checked, with their claims: a client sends the same token with every
 * request, and the HMAC and JSON parse cost more than the rest of a small GET. Only the signature
 * check is remembered; expiry and the key lookup are done on every request. One table per
 * secret, since one process may serve several stores.
 */
const verifiedBySecret = new WeakMap<Buffer, Map<string, TokenClaims>>();
const MAX_VERIFIED = 1000;

function claimsOf(secret: Buffer, token: string): TokenClaims | undefined {
  let verified = verifiedBySecret.get(secret);
  if (!verified) verifiedBySecret.set(secret, (verified = new Map()));
  const known = verified.get(token);
  if (known) return known;
  const [payload, sig] = token.slice(PREFIX.length).split('.');
  if (!payload || !sig) return undefined;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return undefined;
  }
  if (verified.size >= MAX_VERIFIED) verified.clear();
  verified.set(token, claims);
  return claims;
}

/** The account and Swift user a token authenticates, or undefined when it is forged, expired or revoked. */
export function verifyToken(engine: Engine, secret: Buffer, token: string, nowMs = Date.now()): { account: string; user: string } | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const claims = claimsOf(secret, token);
  if (!claims || typeof claims.e !== 'number') return undefined;
  if (claims.e * 1000 <= nowMs) return undefined;
  const found = engine.findBySwiftUser(claims.u);
  return found?.account.id === claims.a && keyDigest(found.secretKey) === claims.k ? { account: claims.a, user: claims.u } : undefined;
}

export type V1AuthResult =
  | { ok: true; account: string; token: string; expires: number }
  /** `wrongKey`: the user exists and the key is not theirs (tempauth's realm is then "unknown"). */
  | { ok: false; status: 401; wrongKey?: boolean };

/** v1 auth (`GET /auth/1.0`): X-Auth-User / X-Auth-Key (or the X-Storage-User / -Pass spellings). */
export function authenticateV1(engine: Engine, secret: Buffer, user: string | undefined, key: string | undefined): V1AuthResult {
  if (!user || !key) return { ok: false, status: 401 };
  const found = engine.findBySwiftUser(user);
  // Unknown user or wrong key: the same 401 (Swift's tempauth), so a refusal does not tell which users exist.
  if (!found) return { ok: false, status: 401 };
  const a = Buffer.from(found.secretKey);
  const b = Buffer.from(key);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, status: 401, wrongKey: true };
  return { ok: true, account: found.account.id, ...issueToken(secret, found.account.id, user, found.secretKey) };
}
