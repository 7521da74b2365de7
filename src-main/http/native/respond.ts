import { isCofferError } from '../../../src-shared/errors.js';
import type { Engine, Identity } from '../../engine/index.js';
import type { Exchange, HeaderValues } from '../common/exchange.js';
import { HTML, NativeError, nativeErrorOf, statusPage } from './errors.js';
import type { NativeOperation } from './operation.js';

export interface NativeContext {
  engine: Engine;
  secret: Buffer;
}

/** A parsed, authenticated native request on its way to a handler: its operation carries every parameter. */
/** Where a TempURL's links may lead: its signing account, and with a container's key only that container. */
export interface TempUrlReach {
  account: string;
  container?: string;
}

export interface NativeCall<O extends NativeOperation = NativeOperation> {
  x: Exchange;
  ctx: NativeContext;
  who: Identity;
  /** The account named in the URL. */
  account: string;
  /**
   * Whether the caller acts as that account's owner (Swift's swift_owner: the account itself, an
   * admin by its ACL, or its TempURL): only owners see and set the privileged headers.
   */
  owner: boolean;
  op: O;
  /** Last say over the headers of a 200/206 read (a TempURL sets Content-Disposition, hides metadata). */
  adjust: ((headers: HeaderValues) => HeaderValues) | undefined;
  /** A TempURL's reach, where the request came with one: the links it follows may not lead further. */
  tempUrlReach?: TempUrlReach | undefined;
}

/**
 * Headers on every native response: the request id twice (X-Trans-Id, X-Openstack-Request-Id),
 * and Swift's type for answers without a document of their own (201, 202, 204, its error pages).
 */
export function baseHeaders(x: Exchange, contentType = HTML): HeaderValues {
  return { 'Content-Type': contentType, 'X-Trans-Id': x.id, 'X-Openstack-Request-Id': x.id };
}

/** An answer; one without a body of its own carries Swift's page of its status (202 Accepted, errors). */
export function reply(x: Exchange, status: number, headers: HeaderValues = {}, body: string | Buffer | null = null): void {
  // Swift writes no page in answer to a HEAD (swob returns before it): its Content-Length is 0.
  x.send(status, headers, body ?? (x.method === 'HEAD' ? '' : statusPage(status)), baseHeaders(x));
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

/** An error status with its body (Swift's page of the status when it has none of its own). */
function fail(x: Exchange, err: NativeError): void {
  const { status, body, headers } = err;
  const challenge = status === 401 && !Object.keys(headers).some((h) => h.toLowerCase() === 'www-authenticate');
  reply(x, status, challenge ? { ...headers, 'Www-Authenticate': `Swift realm="${realmOf(x)}"` } : headers, body);
}

/** Renders an error, the native API's one way: a NativeError as it says, a CofferError through the table; anything else is thrown on. */
export function sendError(x: Exchange, err: unknown): void {
  if (err instanceof NativeError) return fail(x, err);
  if (!isCofferError(err)) throw err;
  const extra: Record<string, string> = {};
  if (err.code === 'InvalidRange' && typeof err.details.size === 'number') extra['Content-Range'] = `bytes */${err.details.size}`;
  fail(x, nativeErrorOf(err, extra));
}
