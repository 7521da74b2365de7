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

/** An error status with a short plain-text body (the status text when none is given). */
export function fail(x: Exchange, status: number, body?: string | null, headers: HeaderValues = {}): void {
  reply(x, status, headers, body ?? STATUS_CODES[status] ?? '');
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
