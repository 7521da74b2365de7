import { timingSafeEqual } from 'node:crypto';
import type { Exchange } from '../common/exchange.js';

export const COOKIE = 'coffer_session';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieToken(x: Exchange): string | undefined {
  for (const part of (x.header('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

export function hasSession(x: Exchange, token: string): boolean {
  const got = cookieToken(x);
  return got !== undefined && same(got, token);
}

export function tokenMatches(given: string | undefined, token: string): boolean {
  return given !== undefined && same(given, token);
}

/**
 * DNS rebinding: a page on evil.example that resolves to 127.0.0.1 still sends `Host: evil.example`.
 * CSRF: another site's page posting here sends its own Origin. Both are refused.
 */
export function trustedRequest(x: Exchange, port: number): boolean {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const host = x.header('host')?.toLowerCase();
  if (!host || !hosts.includes(host)) return false;
  // Browsers send Origin on every POST; a request without one is not from a web page.
  const origin = x.header('origin');
  if (origin === undefined) return true;
  return hosts.some((h) => origin === `http://${h}`);
}
