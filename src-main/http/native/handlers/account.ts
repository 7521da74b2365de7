import { xTimestamp } from '../../common/dates.js';
import type { HeaderValues } from '../../common/exchange.js';
import { CONTENT_TYPES, listingFormat, renderContainers } from '../listing-format.js';
import { readLimit } from '../limits.js';
import { headerProblem, metaProblem, metaResponseHeaders, readMetaHeaders } from '../metadata.js';
import { baseHeaders, fail, reply, type NativeCall } from '../respond.js';

function accountHeaders(call: NativeCall): HeaderValues {
  const a = call.ctx.engine.getAccount(call.account);
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
    ...metaResponseHeaders('Account', a.meta),
  };
}

/** HEAD account: its headers, with the Content-Type its listing would have (as Swift answers it). */
export function headAccount(call: NativeCall): void {
  reply(call.x, 204, { ...accountHeaders(call), 'Content-Type': CONTENT_TYPES[listingFormat(call.x)] });
}

/** GET account: the container listing with account headers (N1). */
export function listAccount(call: NativeCall): void {
  const { x, ctx } = call;
  const format = listingFormat(x);
  const limit = readLimit(x);
  if (typeof limit === 'object') return fail(x, limit.status, limit.body);
  const containers = ctx.engine.listContainers(call.account, {
    ...(limit !== undefined ? { limit } : {}),
    ...(x.param('marker') ? { marker: x.param('marker') } : {}),
    ...(x.param('end_marker') ? { endMarker: x.param('end_marker') } : {}),
    ...(x.param('prefix') ? { prefix: x.param('prefix') } : {}),
    reverse: ['true', '1', 'yes', 'on'].includes((x.param('reverse') ?? '').toLowerCase()),
  });
  const headers = { ...accountHeaders(call), ...baseHeaders(x, CONTENT_TYPES[format]) };
  if (containers.length === 0 && format === 'plain') return x.send(204, headers);
  x.send(200, headers, renderContainers(format, call.account, containers));
}

/** POST account: merge metadata (`X-Remove-Account-Meta-*` or an empty value removes). Quotas are admin-only. */
export async function postAccount(call: NativeCall): Promise<void> {
  const { x, ctx } = call;
  const tooLong = headerProblem(x.req.headers);
  if (tooLong) return fail(x, 400, tooLong);
  const change = readMetaHeaders(x.req.headers, 'Account');
  if (change.invalidUtf8) return fail(x, 400, 'Metadata must be valid UTF-8');
  if ('quota-bytes' in change.set || 'quota-count' in change.set) {
    return fail(x, 403, 'Quotas are set by the administrator (coffer quota set)');
  }
  const merged = { ...ctx.engine.getAccount(call.account).meta };
  for (const k of change.remove) delete merged[k];
  Object.assign(merged, change.set);
  const problem = metaProblem('Account', merged);
  if (problem) return fail(x, 400, problem);
  await ctx.engine.updateAccountMeta(call.account, change);
  reply(x, 204);
}
