import { STATUS_CODES } from 'node:http';
import { isCofferError } from '../../../src-shared/errors.js';
import type { Engine } from '../../engine/engine.js';
import type { Identity } from '../common/access.js';
import type { Exchange, HeaderValues } from '../common/exchange.js';
import { NATIVE_ERRORS } from './errors.js';

export interface NativeContext {
  engine: Engine;
  secret: Buffer;
}

/** A parsed, authenticated native request on its way to a handler. */
export interface NativeCall {
  x: Exchange;
  ctx: NativeContext;
  who: Identity;
  /** The account named in the URL. */
  account: string;
}

export const TEXT = 'text/plain; charset=utf-8';

/** Headers on every native response: the request id twice (X-Trans-Id, X-Openstack-Request-Id). */
export function baseHeaders(x: Exchange, contentType = TEXT): HeaderValues {
  return { 'Content-Type': contentType, 'X-Trans-Id': x.id, 'X-Openstack-Request-Id': x.id };
}

export function reply(x: Exchange, status: number, headers: HeaderValues = {}, body: string | Buffer = ''): void {
  x.send(status, headers, body, baseHeaders(x));
}

/**
 * The realm of a 401: the account the path names (`AUTH_…`), as Swift's tempauth says it, else
 * `unknown`. Every 401 carries one (RFC 9110 11.6.1: a 401 must say how to authenticate).
 */
function realmOf(x: Exchange): string {
  const m = /\/(?:AUTH|KEY)_([^/?]*)/.exec(x.rawPath);
  let account: string | undefined;
  try {
    account = m ? decodeURIComponent(m[1]!) : undefined;
  } catch {
    account = undefined;
  }
  return headerSafe(account) ? `AUTH_${account}` : 'unknown';
}

/** Printable ASCII without quotes, at most an account name's length: it goes inside a quoted header value. */
function headerSafe(s: string | undefined): s is string {
  return s !== undefined && /^[\x21-\x7e]{1,256}$/.test(s) && !s.includes('"') && !s.includes('\\');
}

/** A v1 sign-in's realm: the account part of `account:user`, as tempauth names it. */
export function realmOfUser(user: string | undefined): string {
  const account = user?.split(':')[0];
  return headerSafe(account) ? account : 'unknown';
}

/** An error status with a short plain-text body (the status text when none is given). */
export function fail(x: Exchange, status: number, body?: string | null, headers: HeaderValues = {}): void {
  const challenge = status === 401 && !Object.keys(headers).some((h) => h.toLowerCase() === 'www-authenticate');
  reply(x, status, challenge ? { ...headers, 'Www-Authenticate': `Swift realm="${realmOf(x)}"` } : headers, body ?? STATUS_CODES[status] ?? '');
}

/** Renders any error: CofferErrors through the native table, anything else as 500. */
export function failWith(x: Exchange, err: unknown): void {
  if (!isCofferError(err)) throw err;
  const e = NATIVE_ERRORS[err.code];
  const body = e.body ?? err.message;
  const extra: HeaderValues = {};
  if (err.code === 'InvalidRange' && typeof err.details.size === 'number') extra['Content-Range'] = `bytes */${err.details.size}`;
  fail(x, e.status, body, extra);
}
