import { CofferError } from '../../../../src-shared/errors.js';
import { xTimestamp } from '../../common/dates.js';
import type { HeaderValues } from '../../common/exchange.js';
import { plainError } from '../errors.js';
import { formatAccountAcl } from '../account-acl.js';
import { listingHeaders, renderContainers } from '../listing-format.js';
import { metaProblem, metaResponseHeaders } from '../metadata.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';

/** Account metadata only owners see (Swift's swift_owner_headers): the TempURL keys. */
const OWNER_META = new Set(['temp-url-key', 'temp-url-key-2']);

/** The account's headers; its ACL and TempURL keys only for those acting as its owner (Swift's swift_owner). */
function accountHeaders(call: NativeCall): HeaderValues {
  const a = call.ctx.engine.getAccount(call.account);
  const meta = call.owner ? a.meta : Object.fromEntries(Object.entries(a.meta).filter(([k]) => !OWNER_META.has(k.toLowerCase())));
  const policy = 'X-Account-Storage-Policy-Default-Placement';
  return {
    'X-Account-Container-Count': a.usage.containers,
    'X-Account-Object-Count': a.usage.objects,
    'X-Account-Bytes-Used': a.usage.bytes,
    'X-Account-Bytes-Used-Actual': a.usage.bytesActual,
    [`${policy}-Container-Count`]: a.usage.containers,
    [`${policy}-Object-Count`]: a.usage.objects,
    [`${policy}-Bytes-Used`]: a.usage.bytes,
    [`${policy}-Bytes-Used-Actual`]: a.usage.bytesActual,
    'X-Timestamp': xTimestamp(a.created * 1000),
    ...(a.quota.maxBytes >= 0 ? { 'X-Account-Meta-Quota-Bytes': a.quota.maxBytes } : {}),
    ...(a.quota.maxObjects >= 0 ? { 'X-Account-Meta-Quota-Count': a.quota.maxObjects } : {}),
    ...metaResponseHeaders('Account', meta),
    ...(call.owner && a.acl ? { 'X-Account-Access-Control': formatAccountAcl(a.acl) } : {}),
  };
}

/** HEAD account: its headers, with the Content-Type its listing would have (as Swift answers it). */
export function headAccount(call: NativeCall<NativeOpOf<'HeadAccount'>>): void {
  reply(call.x, 204, { ...accountHeaders(call), ...listingHeaders(call.op.type) });
}

/** GET account: the container listing with account headers (N1). */
export function listAccount(call: NativeCall<NativeOpOf<'ListAccount'>>): void {
  const { x, ctx } = call;
  const { type, limit, marker, endMarker, prefix, reverse, delimiter } = call.op.listing;
  const format = type.format;
  const entries = ctx.engine.listAccountEntries(call.account, {
    ...(limit !== undefined ? { limit } : {}),
    ...(marker ? { marker } : {}),
    ...(endMarker ? { endMarker } : {}),
    ...(prefix ? { prefix } : {}),
    ...(delimiter ? { delimiter } : {}),
    reverse,
  });
  const headers = { ...accountHeaders(call), ...baseHeaders(x, type.contentType), ...listingHeaders(type) };
  if (entries.length === 0 && format === 'plain') return x.send(204, headers);
  x.send(200, headers, renderContainers(format, call.account, entries));
}

/**
 * POST account: merge metadata (`X-Remove-Account-Meta-*` or an empty value removes), set or clear
 * the account ACL. Quotas are the administrator's; the ACL is the account's own to set (an admin by
 * the ACL changes metadata, never who else holds rights).
 */
export async function postAccount(call: NativeCall<NativeOpOf<'PostAccount'>>): Promise<void> {
  const { x, ctx } = call;
  const change = call.op.change;
  const acl = call.op.acl;
  if (acl !== undefined && call.who.account !== call.account) throw new CofferError('AccessDenied');
  const merged = { ...ctx.engine.getAccount(call.account).meta };
  for (const k of change.remove) delete merged[k];
  Object.assign(merged, change.set);
  const problem = metaProblem('Account', merged);
  if (problem) throw plainError(400, problem);
  if (change.remove.length || Object.keys(change.set).length) await ctx.engine.updateAccountMeta(call.account, change);
  if (acl !== undefined) await ctx.engine.setAccountAcl(call.account, acl ?? undefined);
  reply(x, 204);
}
