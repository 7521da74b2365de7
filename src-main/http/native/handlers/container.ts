import { isCofferError } from '../../../../src-shared/errors.js';
import { Engine } from '../../../engine/engine.js';
import type { ContainerSettings } from '../../../engine/ops/containers.js';
import type { ContainerInfo } from '../../../engine/types.js';
import { httpDate, xTimestamp } from '../../common/dates.js';
import type { HeaderValues } from '../../common/exchange.js';
import { CONTENT_TYPES, listingFormat, renderObjects } from '../listing-format.js';
import { readLimit, truthy } from '../limits.js';
import { headerProblem, metaProblem, metaResponseHeaders, readMetaHeaders } from '../metadata.js';
import { baseHeaders, fail, failWith, reply, type NativeCall } from '../respond.js';

const QUOTA_KEYS = { 'quota-bytes': 'maxBytes', 'quota-count': 'maxObjects' } as const;

/** A container's headers; its ACLs only for its owner (Swift shows X-Container-Read/-Write to owners only). */
export function containerHeaders(c: ContainerInfo, owner: boolean): HeaderValues {
  return {
    'X-Container-Object-Count': c.usage.objects,
    'X-Container-Bytes-Used': c.usage.bytes,
    'X-Container-Bytes-Used-Actual': c.usage.bytesActual,
    'X-Timestamp': xTimestamp(c.created * 1000),
    'Last-Modified': httpDate(c.lastModified),
    'X-Storage-Policy': c.storagePolicy,
    'X-Storage-Class': 'STANDARD',
    ...(owner && c.acl.read ? { 'X-Container-Read': c.acl.read } : {}),
    ...(owner && c.acl.write ? { 'X-Container-Write': c.acl.write } : {}),
    ...(c.quota.maxBytes >= 0 ? { 'X-Container-Meta-Quota-Bytes': c.quota.maxBytes } : {}),
    ...(c.quota.maxObjects >= 0 ? { 'X-Container-Meta-Quota-Count': c.quota.maxObjects } : {}),
    ...metaResponseHeaders('Container', c.meta),
  };
}

/** One ACL item as Swift cleans it: trimmed, `.ref`/`.referer`/`.referrer` spelled `.r`, no spaces around `:` (§11.1). */
function cleanAclItem(raw: string): string {
  return raw.trim().replace(/^\.(r|ref|referer|referrer)\s*:\s*/, '.r:');
}

/** Why an ACL string is malformed (§11.1), or null. */
function aclProblem(acl: string, kind: 'read' | 'write'): string | null {
  for (const raw of acl.split(',')) {
    const item = cleanAclItem(raw);
    if (!item) continue;
    if (item.startsWith('.r:')) {
      if (kind === 'write') return 'Referrers not allowed in write ACL';
      if (item === '.r:' || item === '.r:-') return `No host/domain value after referrer designation in ACL: '${raw.trim()}'`;
    } else if (item.startsWith('.') && item !== '.rlistings') return `Unknown designator '${item}' in ACL`;
  }
  return null;
}

/** Container settings from PUT/POST headers: metadata, ACLs, quotas. */
function readSettings(call: NativeCall, existing?: ContainerInfo): ContainerSettings | string {
  const h = call.x.req.headers;
  const tooLong = headerProblem(h);
  if (tooLong) return tooLong;
  const change = readMetaHeaders(h, 'Container');
  if (change.invalidUtf8) return 'Metadata must be valid UTF-8';
  const settings: ContainerSettings = {};
  const quota: ContainerSettings['quota'] = {};
  for (const [key, field] of Object.entries(QUOTA_KEYS)) {
    if (change.remove.includes(key)) quota[field] = -1;
    const v = change.set[key];
    if (v === undefined) continue;
    if (!/^\d+$/.test(v)) return key === 'quota-bytes' ? 'Invalid bytes quota.' : 'Invalid count quota.';
    // Swift takes any digits (it keeps the string); past 2^53 a number is no longer exact, and no
    // store comes near that many bytes or objects, so the largest exact one stands for it.
    quota[field] = Math.min(Number(v), Number.MAX_SAFE_INTEGER);
    delete change.set[key];
  }
  change.remove = change.remove.filter((k) => !(k in QUOTA_KEYS));
  if (Object.keys(quota).length) settings.quota = quota;
  const merged = { ...(existing?.meta ?? {}) };
  for (const k of change.remove) delete merged[k];
  const problem = metaProblem('Container', Object.assign(merged, change.set));
  if (problem) return problem;
  settings.meta = change;
  const acl: ContainerSettings['acl'] = {};
  for (const kind of ['read', 'write'] as const) {
    const v = h[`x-container-${kind}`];
    if (typeof v === 'string') {
      const bad = aclProblem(v, kind);
      if (bad) return bad;
      acl[kind] = v.split(',').map(cleanAclItem).filter(Boolean).join(',') || null;
    }
    if (h[`x-remove-container-${kind}`] !== undefined) acl[kind] = null;
  }
  settings.acl = acl;
  return settings;
}

export async function putContainer(call: NativeCall, container: string): Promise<void> {
  const { x, ctx } = call;
  if (x.header('x-versions-location') !== undefined || x.header('x-history-location') !== undefined) {
    return fail(x, 412, 'Legacy versioning (X-Versions-Location) is not enabled; use S3 bucket versioning');
  }
  const policy = x.header('x-storage-policy');
  if (policy !== undefined && policy.toLowerCase() !== 'default-placement') return fail(x, 400, 'InvalidLocationConstraint');
  const settings = readSettings(call);
  if (typeof settings === 'string') return fail(x, 400, settings);
  try {
    await ctx.engine.createContainer(call.account, container, settings);
    reply(x, 201);
  } catch (err) {
    if (!isCofferError(err, 'ContainerOwnedByYou')) return failWith(x, err);
    const again = readSettings(call, ctx.engine.getContainer(Engine.ref(call.account, container)));
    if (typeof again === 'string') return fail(x, 400, again);
    await ctx.engine.updateContainer(Engine.ref(call.account, container), again);
    reply(x, 202);
  }
}

export async function postContainer(call: NativeCall, c: ContainerInfo): Promise<void> {
  const settings = readSettings(call, c);
  if (typeof settings === 'string') return fail(call.x, 400, settings);
  await call.ctx.engine.updateContainer({ tenant: c.tenant, container: c.name }, settings);
  reply(call.x, 204);
}

export async function deleteContainer(call: NativeCall, c: ContainerInfo): Promise<void> {
  await call.ctx.engine.deleteContainer({ tenant: c.tenant, container: c.name });
  reply(call.x, 204);
}

/** HEAD container: its headers, with the Content-Type its listing would have (as Swift answers it). */
export function headContainer(call: NativeCall, c: ContainerInfo): void {
  reply(call.x, 204, { ...containerHeaders(c, call.who.account === c.owner), 'Content-Type': CONTENT_TYPES[listingFormat(call.x)] });
}

/** GET container: the object listing (N4) with every parameter of §5. */
export function listContainer(call: NativeCall, c: ContainerInfo): void {
  const { x, ctx } = call;
  const format = listingFormat(x);
  const limit = readLimit(x);
  if (typeof limit === 'object') return fail(x, limit.status, limit.body);
  const p = (name: string) => x.param(name);
  const page = ctx.engine.listObjects(
    { tenant: c.tenant, container: c.name },
    {
      ...(limit !== undefined ? { limit } : {}),
      ...(p('marker') ? { marker: p('marker') } : {}),
      ...(p('end_marker') ? { endMarker: p('end_marker') } : {}),
      ...(p('prefix') !== undefined ? { prefix: p('prefix') } : {}),
      ...(p('delimiter') ? { delimiter: p('delimiter') } : {}),
      ...(p('path') !== undefined ? { path: p('path') } : {}),
      reverse: truthy(p('reverse')),
      allowUnordered: truthy(p('allow_unordered')),
    },
  );
  const headers = { ...containerHeaders(c, call.who.account === c.owner), ...baseHeaders(x, CONTENT_TYPES[format]) };
  if (page.entries.length === 0 && format === 'plain') return x.send(204, headers);
  x.send(200, headers, renderObjects(format, c.name, page.entries));
}
