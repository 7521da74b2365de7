import { CofferError } from '../../../src-shared/errors.js';
import type { Action, Identity } from '../common/access.js';
import type { Exchange } from '../common/exchange.js';
import { authenticateV1, verifyToken } from './auth.js';
import * as account from './handlers/account.js';
import * as container from './handlers/container.js';
import { copyByCopyFrom, copyByDestination } from './handlers/copy.js';
import { info } from './handlers/info.js';
import { objectRequest } from './handlers/object-routes.js';
import { bulkDelete } from './handlers/bulk.js';
import { hasTempUrl, tempUrlInvalid, tempUrlObject, verifyTempUrl } from './handlers/tempurl.js';
import { isRead, reachContainer, refusal } from './reach.js';
import { parseNativePath, type NativeTarget } from './router.js';
import { fail, failWith, realmOfUser, reply, type NativeCall, type NativeContext } from './respond.js';

function storageUrl(x: Exchange, accountId: string): string {
  return `http://${x.header('host') ?? '127.0.0.1'}/swift/v1/AUTH_${accountId}`;
}

/** v1 auth as Swift's tempauth answers it: GET only, 200 with the storage URL and a token, 401 naming the user's account as realm. */
function v1Auth(x: Exchange, ctx: NativeContext): void {
  if (x.method !== 'GET') return fail(x, 405, null, { Allow: 'GET' });
  const user = x.header('x-auth-user') ?? x.header('x-storage-user');
  const key = x.header('x-auth-key') ?? x.header('x-storage-pass');
  const r = authenticateV1(ctx.engine, ctx.secret, user, key);
  // tempauth's realms: the user's account, except for a wrong key or a user without an account part.
  if (!r.ok) return fail(x, r.status, null, { 'Www-Authenticate': `Swift realm="${r.wrongKey || !user?.includes(':') ? 'unknown' : realmOfUser(user)}"` });
  reply(x, 200, {
    'X-Storage-Url': storageUrl(x, r.account),
    'X-Auth-Token': r.token,
    'X-Storage-Token': r.token,
    'X-Auth-Token-Expires': Math.max(0, r.expires - Math.floor(Date.now() / 1000)),
  });
}

function objectAction(method: string): Action {
  return isRead(method) ? 'read-object' : 'write-object';
}

async function route(call: NativeCall, target: ReturnType<typeof parseNativePath>): Promise<void> {
  const { x } = call;
  const m = x.method;
  if (target.kind === 'account') {
    // Bulk delete checks each path itself: a write ACL may allow deleting in someone's container.
    if ((m === 'POST' || m === 'DELETE') && x.has('bulk-delete')) return bulkDelete(call);
    if (call.who.account !== call.account) throw refusal(call);
    if (m === 'HEAD') return account.headAccount(call);
    if (m === 'GET') return account.listAccount(call);
    if (m === 'POST') return account.postAccount(call);
    return fail(x, 405, null, { Allow: 'GET, HEAD, POST' });
  }
  if (target.kind !== 'container' && target.kind !== 'object') return fail(x, 400);
  if (target.kind === 'container') {
    if (m === 'PUT') {
      if (call.who.account !== call.account) throw refusal(call);
      return container.putContainer(call, target.container);
    }
    const c = reachContainer(call, call.account, target.container, isRead(m) ? 'list' : 'admin');
    if (m === 'HEAD') return container.headContainer(call, c);
    if (m === 'GET') return container.listContainer(call, c);
    if (m === 'POST') return container.postContainer(call, c);
    if (m === 'DELETE') return container.deleteContainer(call, c);
    return fail(x, 405, null, { Allow: 'DELETE, GET, HEAD, POST, PUT' });
  }
  const name = target.object;
  // Copies check both ends themselves, source before destination for COPY, as for X-Copy-From.
  if (m === 'COPY') return copyByDestination(call, target.container, name);
  if (m === 'PUT' && x.header('x-copy-from') !== undefined) return copyByCopyFrom(call, target.container, name);
  const c = reachContainer(call, call.account, target.container, objectAction(m), name);
  return objectRequest(call, c, name);
}

/** A TempURL request: a valid signature acts as its account would with a token, on this one object. */
async function tempUrl(x: Exchange, ctx: NativeContext, target: NativeTarget): Promise<void> {
  const grant = target.kind === 'object' ? verifyTempUrl(x, ctx, target) : undefined;
  if (!grant || target.kind !== 'object') return tempUrlInvalid(x);
  const call: NativeCall = { x, ctx, who: { account: target.account }, account: target.account };
  const c = reachContainer(call, target.account, target.container, objectAction(x.method), target.object);
  return tempUrlObject(call, c, target.object, grant);
}

/** Entry point of the native API: auth, capabilities, then account/container/object operations. */
export async function handleNative(x: Exchange, ctx: NativeContext): Promise<void> {
  const target = parseNativePath(x.rawPath);
  try {
    if (target.kind === 'invalid') return fail(x, target.status, target.body);
    if (!x.query) return fail(x, 400, 'Invalid query string');
    if (target.kind === 'auth') return v1Auth(x, ctx);
    if (target.kind === 'info') return info({ x, ctx });
    if (hasTempUrl(x)) return await tempUrl(x, ctx, target);
    const token = x.header('x-auth-token') ?? x.header('x-storage-token');
    const who: Identity = {};
    if (token) {
      const accountId = verifyToken(ctx.engine, ctx.secret, token);
      if (!accountId) return fail(x, 401);
      who.account = accountId;
    }
    if (!ctx.engine.hasAccount(target.account)) {
      return who.account === undefined ? fail(x, 401) : fail(x, who.account === target.account ? 404 : 403);
    }
    await route({ x, ctx, who, account: target.account }, target);
  } catch (err) {
    if (err instanceof CofferError) return failWith(x, err);
    throw err;
  }
}
