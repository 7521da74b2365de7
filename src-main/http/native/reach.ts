import { CofferError } from '../../../src-shared/errors.js';
import { decide, Engine, objectGrantsOf, type Action, type ContainerInfo, type Identity } from '../../engine/index.js';
import type { NativeCall, NativeContext } from './respond.js';

/** Denied: 401 for anonymous callers, 403 for authenticated ones (§1.3). */
export function refusal(who: Identity): CofferError {
  return new CofferError(who.account === undefined ? 'AuthFailed' : 'AccessDenied');
}

/** The container `name` under `account`'s storage URL; its absence is told only to that account. */
export function reach(ctx: NativeContext, who: Identity, account: string, name: string): ContainerInfo {
  try {
    return ctx.engine.getContainerForRequest(Engine.ref(account, name));
  } catch (err) {
    if (who.account !== account) throw refusal(who);
    throw err;
  }
}

/**
 * The container `name` under `account`'s storage URL, once the access module lets the caller do
 * `action` there (`object`: the object a read is for, which may be public on its own). For the
 * operations that reach more than one container (a copy's two ends).
 */
export function reachContainer(call: NativeCall, account: string, name: string, action: Action, object?: string): ContainerInfo {
  const c = reach(call.ctx, call.who, account, name);
  const objectGrants = object !== undefined ? objectGrantsOf(call.ctx.engine, c, object) : undefined;
  if (decide({ who: call.who, container: c, action, through: account, objectGrants, accountAcl: () => call.ctx.engine.accountAcl(account), facts: object !== undefined ? { key: object } : undefined })) return c;
  throw refusal(call.who);
}
