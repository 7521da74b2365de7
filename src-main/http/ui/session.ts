import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../common/exchange.js';

export const COOKIE = 'coffer_session';
/**
 * The session outlives the browser's own session too (400 days, the most Chromium keeps), so a
 * bookmarked folder opens after the browser restarts; deleting the secret file ends every session.
 */
export const COOKIE_MAX_AGE_S = 400 * 24 * 3600;
const SECRET_FILE = 'ui-session.key';
const SECRET_SHAPE = /^[\w-]{32,}$/;

/**
 * The browser build's session secret, one per data directory and kept there (mode 0600), so the
 * printed link, bookmarks and open tabs stay valid across restarts. A missing or unreadable
 * value is replaced; a file others could read is made private again.
 */
export function loadSessionSecret(dataDir: string): string {
  const file = join(dataDir, SECRET_FILE);
  try {
    const value = readFileSync(file, 'utf8').trim();
    if (SECRET_SHAPE.test(value)) {
      if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return value;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = randomBytes(24).toString('base64url');
  // Written whole under another name first: a crash never leaves a half-written secret.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${value}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return value;
}

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
