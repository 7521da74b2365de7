import { CofferError } from '../../../src-shared/errors.js';
import { type ContainerInfo, Engine } from '../../engine/index.js';
import { allowedThrough, type Action } from '../common/access.js';
import type { NativeCall } from './respond.js';

/** Denied: 401 for anonymous callers, 403 for authenticated ones (§1.3). */
export function refusal(call: NativeCall): CofferError {
  return new CofferError(call.who.account === undefined ? 'AuthFailed' : 'AccessDenied');
}

export const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/** An object made public on its own (S3 object ACL public-read) can be read by anyone, through its owner's path. */
function publicObject(call: NativeCall, c: ContainerInfo, account: string, name: string): boolean {
  if (c.owner !== account) return false;
  try {
    return call.ctx.engine.headObject({ tenant: c.tenant, container: c.name }, name).publicRead;
  } catch {
    return false;
  }
}

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
  if (allowedThrough(c, call.who, account, action)) return c;
  if (action === 'read-object' && object !== undefined && publicObject(call, c, account, object)) return c;
  throw refusal(call);
}
