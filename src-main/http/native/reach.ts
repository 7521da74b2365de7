import { CofferError } from '../../../src-shared/errors.js';
import { Engine } from '../../engine/engine.js';
import type { ContainerInfo } from '../../engine/types.js';
import { decide, objectPublicFlag, type Action } from '../common/access.js';
import type { NativeCall } from './respond.js';

/** Denied: 401 for anonymous callers, 403 for authenticated ones (§1.3). */
export function refusal(call: NativeCall): CofferError {
  return new CofferError(call.who.account === undefined ? 'AuthFailed' : 'AccessDenied');
}

export const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The container `name` under `account`'s storage URL, once the caller may do `action` there
 * (`object`: the object a read is for, which may be public on its own). Refused before anything
 * about the name is told: only the account itself learns that one of its containers is missing.
 */
export function reachContainer(call: NativeCall, account: string, name: string, action: Action, object?: string): ContainerInfo {
  let c: ContainerInfo;
  try {
    c = call.ctx.engine.getContainerForRequest(Engine.ref(account, name));
  } catch (err) {
    if (call.who.account !== account) throw refusal(call);
    throw err;
  }
  const objectPublic = object !== undefined ? objectPublicFlag(call.ctx.engine, c, object) : undefined;
  if (decide({ who: call.who, container: c, action, through: account, objectPublic })) return c;
  throw refusal(call);
}
