import { isCofferError } from '../../../../src-shared/errors.js';
import { Engine, type ContainerInfo, type ContainerSettings } from '../../../engine/index.js';
import { httpDate, xTimestamp } from '../../common/dates.js';
import type { HeaderValues } from '../../common/exchange.js';
import { NativeError, plainError } from '../errors.js';
import { listingHeaders, renderObjects } from '../listing-format.js';
import { metaResponseHeaders } from '../metadata.js';
import type { NativeOpOf } from '../operation.js';
import { containerMetaProblem } from '../params.js';
import { baseHeaders, reply, type NativeCall } from '../respond.js';

/** Container metadata only owners see (Swift's swift_owner_headers): the TempURL keys. */
const OWNER_META = new Set(['temp-url-key', 'temp-url-key-2']);

/** A container's headers; its ACLs and TempURL keys only for its owner (Swift shows those to swift_owner only). */
export function containerHeaders(c: ContainerInfo, owner: boolean): HeaderValues {
  const meta = owner ? c.meta : Object.fromEntries(Object.entries(c.meta).filter(([k]) => !OWNER_META.has(k.toLowerCase())));
  return {
    // Swift counts the current objects only: its versions live in another container.
    'X-Container-Object-Count': c.usage.current ?? c.usage.objects,
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
    ...(c.versioning !== 'unversioned' ? { 'X-Versions-Enabled': c.versioning === 'enabled' ? 'True' : 'False' } : {}),
    ...(c.archive ? { [c.archive.mode === 'stack' ? 'X-Versions-Location' : 'X-History-Location']: c.archive.container } : {}),
    ...metaResponseHeaders('Container', meta),
  };
}

const LEGACY_CONFLICT = 'Cannot enable object versioning on a container that is already using the legacy versioned writes feature.';

/** Swift keeps one versioning mode per container: X-Versions-Enabled is refused where an archive is set. */
function checkOneMode(settings: NativeOpOf<'PutContainer' | 'PostContainer'>['settings'], c: ContainerInfo | undefined): void {
  if (settings.versioning !== undefined && (c?.archive || settings.archive)) throw new NativeError(400, LEGACY_CONFLICT);
}

/** Whether the caller sees the container as its owner: acting as the owner of the account that owns it. */
function ownerView(call: NativeCall, c: ContainerInfo): boolean {
  return call.owner && c.owner === call.account;
}

/** The settings a request may change: ACLs are the owner's alone (Swift drops them from others' requests). */
function allowedSettings(call: NativeCall, settings: ContainerSettings): ContainerSettings {
  if (call.owner || settings.acl === undefined) return settings;
  const { acl: _dropped, ...rest } = settings;
  return rest;
}

export async function putContainer(call: NativeCall<NativeOpOf<'PutContainer'>>): Promise<void> {
  const { x, ctx } = call;
  const op = { ...call.op, settings: allowedSettings(call, call.op.settings) };
  const ref = Engine.ref(call.account, op.path.container);
  checkOneMode(op.settings, undefined);
  try {
    await ctx.engine.createContainer(call.account, op.path.container, op.settings);
    reply(x, 201);
  } catch (err) {
    if (!isCofferError(err, 'ContainerOwnedByYou')) throw err;
    const existing = ctx.engine.getContainer(ref);
    checkOneMode(op.settings, existing);
    const problem = containerMetaProblem(existing.meta, op.meta);
    if (problem) throw plainError(400, problem);
    await ctx.engine.updateContainer(ref, op.settings);
    reply(x, 202);
  }
}

export async function postContainer(call: NativeCall<NativeOpOf<'PostContainer'>>, c: ContainerInfo): Promise<void> {
  checkOneMode(call.op.settings, c);
  const problem = containerMetaProblem(c.meta, call.op.meta);
  if (problem) throw plainError(400, problem);
  await call.ctx.engine.updateContainer({ tenant: c.tenant, container: c.name }, allowedSettings(call, call.op.settings));
  reply(call.x, 204);
}

export async function deleteContainer(call: NativeCall<NativeOpOf<'DeleteContainer'>>, c: ContainerInfo): Promise<void> {
  try {
    await call.ctx.engine.deleteContainer({ tenant: c.tenant, container: c.name });
  } catch (err) {
    // Only versions left (no current object): Swift's object versioning says so.
    const ref = { tenant: c.tenant, container: c.name };
    if (isCofferError(err, 'ContainerNotEmpty') && c.versioning !== 'unversioned' && call.ctx.engine.listObjects(ref, { limit: 1 }).entries.length === 0) {
      throw new NativeError(409, 'Delete all versions before deleting container.');
    }
    throw err;
  }
  reply(call.x, 204);
}

/** HEAD container: its headers, with the Content-Type its listing would have (as Swift answers it). */
export function headContainer(call: NativeCall<NativeOpOf<'HeadContainer'>>, c: ContainerInfo): void {
  reply(call.x, 204, { ...containerHeaders(c, ownerView(call, c)), ...listingHeaders(call.op.type) });
}

/** GET container: the object listing (N4) with every parameter of §5. */
export function listContainer(call: NativeCall<NativeOpOf<'ListContainer'>>, c: ContainerInfo): void {
  const { x, ctx } = call;
  const p = call.op.listing;
  const format = p.type.format;
  const page = ctx.engine.listObjects(
    { tenant: c.tenant, container: c.name },
    {
      ...(p.limit !== undefined ? { limit: p.limit } : {}),
      ...(p.marker ? { marker: p.marker } : {}),
      ...(p.endMarker ? { endMarker: p.endMarker } : {}),
      ...(p.prefix !== undefined ? { prefix: p.prefix } : {}),
      // Given is given, empty or false: the combination rules (4.1.2) are the engine's.
      ...(p.delimiter !== undefined ? { delimiter: p.delimiter } : {}),
      ...(p.path !== undefined ? { path: p.path } : {}),
      ...(p.allowUnordered !== undefined ? { allowUnordered: p.allowUnordered } : {}),
      reverse: p.reverse,
    },
  );
  const headers = { ...containerHeaders(c, ownerView(call, c)), ...baseHeaders(x, p.type.contentType), ...listingHeaders(p.type) };
  if (page.entries.length === 0 && format === 'plain') return x.send(204, headers);
  x.send(200, headers, renderObjects(format, c.name, page.entries, call.op.path.account));
}
