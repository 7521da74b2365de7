import { decodeStrict } from '../common/url.js';

/** What a native-API path addresses, after the `/swift` prefix, `v1` and the account segment. */
export type NativeTarget =
  | { kind: 'auth' }
  | { kind: 'info' }
  | { kind: 'account'; account: string }
  | { kind: 'container'; account: string; container: string }
  | { kind: 'object'; account: string; container: string; object: string }
  | { kind: 'invalid'; status: 400 | 404 | 412; body: string | null };

/** Is this raw path one the native API serves (the rest of the port is the compatible API)? */
export function isNativePath(rawPath: string): boolean {
  return (
    /^\/swift(\/|$)/.test(rawPath) ||
    /^\/v1(\.0)?\/(AUTH_|KEY_)/.test(rawPath) ||
    // `//v1/AUTH_…` is the native API's to refuse (Swift: 404), not an S3 bucket named "".
    /^\/\/+v1(\.0)?\//.test(rawPath) ||
    /^\/auth(\/|$)/.test(rawPath) ||
    rawPath === '/info' ||
    rawPath === '/swift/info'
  );
}

/**
 * Parses a native path: strip `/swift`, then `v1` (or `v1.0`), then the account segment with its
 * `AUTH_`/`KEY_` prefix; the first remaining segment is the container and everything after it,
 * slashes included, is the object name. The path is percent-decoded once; invalid UTF-8 and NUL
 * bytes are refused (412, as Swift does).
 */
export function parseNativePath(rawPath: string): NativeTarget {
  const path = decodeStrict(rawPath);
  // Swift's proxy (check_utf8): one answer for both.
  if (path === undefined || path.includes('\0')) return { kind: 'invalid', status: 412, body: 'Invalid UTF8 or contains NULL' };
  // Swift's proxy finds no version segment in `//v1/…` (an empty first segment): 404.
  if (path.startsWith('//')) return { kind: 'invalid', status: 404, body: null };
  const rest = path.startsWith('/swift/') || path === '/swift' ? path.slice('/swift'.length) : path;
  if (rest === '/info' || rest === '/info/') return { kind: 'info' };
  if (/^\/auth(\/|$)/.test(rest)) return { kind: 'auth' };
  const m = /^\/v1(?:\.0)?\/(?:AUTH_|KEY_)([^/]*)(?:\/(.*))?$/s.exec(rest);
  if (!m) return { kind: 'invalid', status: 412, body: 'Bad URL' };
  const account = m[1]!;
  if (!account) return { kind: 'invalid', status: 412, body: 'Bad URL' };
  const tail = m[2] ?? '';
  if (tail === '') return { kind: 'account', account };
  const slash = tail.indexOf('/');
  const container = slash < 0 ? tail : tail.slice(0, slash);
  const object = slash < 0 ? '' : tail.slice(slash + 1);
  if (!container) return { kind: 'invalid', status: 412, body: 'Bad URL' };
  if (object === '') return { kind: 'container', account, container };
  return { kind: 'object', account, container, object };
}
