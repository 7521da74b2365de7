import { CofferError } from '../../../src-shared/errors.js';
import { containerNameProblem } from '../../../src-shared/names.js';
import type { EngineContext } from '../context.js';
import { cidBytes } from '../index/keys.js';
import { requireAccount } from './accounts.js';
import { abortAllUploads } from './multipart.js';
import { couldBeContainer } from './name-limits.js';
import { releaseBlobs } from './release.js';
import { checkTags } from './tagging.js';
import { requireHeaderSafeMeta } from './put-object.js';
import { accountUsageKey, addContainerCount, containerUsageKey, readUsage, requireValidQuota } from './usage.js';
export { containerInfoForRequest } from './container-info.js';
import {
  UNLIMITED,
  type ContainerInfo,
  type ContainerRecord,
  type ContainerRef,
  type Quota,
  type Tag,
  type VersioningState,
} from '../types.js';

export const containerKey = (tenant: string, name: string) => `${tenant}/${name}`;

export function findContainer(ctx: EngineContext, ref: ContainerRef): ContainerRecord | undefined {
  // A name past the limit was never stored, and its key may not fit the index.
  if (!couldBeContainer(ref)) return undefined;
  return ctx.store.getShared(ctx.store.containers, containerKey(ref.tenant, ref.container));
}

export function requireContainer(ctx: EngineContext, ref: ContainerRef): ContainerRecord {
  const rec = findContainer(ctx, ref);
  if (!rec) throw new CofferError('NoSuchContainer', `Container ${ref.container} does not exist`);
  return rec;
}

export function containerInfo(ctx: EngineContext, rec: ContainerRecord): ContainerInfo {
  const u = readUsage(ctx.store, containerUsageKey(rec.cid));
  const { cid: _cid, mtime, ...rest } = rec;
  return { ...rest, lastModified: mtime, usage: { objects: u.objects, bytes: u.bytes, bytesActual: u.bytesActual } };
}

export interface MetaPatch {
  set?: Record<string, string>;
  remove?: string[];
}

export function applyMetaPatch(meta: Record<string, string>, patch: MetaPatch | undefined): Record<string, string> {
  if (!patch) return meta;
  if (patch.set) requireHeaderSafeMeta(patch.set);
  const out = { ...meta };
  for (const k of patch.remove ?? []) delete out[k.toLowerCase()];
  for (const [k, v] of Object.entries(patch.set ?? {})) out[k.toLowerCase()] = v;
  return out;
}

export interface ContainerSettings {
  meta?: MetaPatch;
  publicRead?: boolean;
  acl?: { read?: string | null; write?: string | null };
  policy?: string | null;
  versioning?: VersioningState;
  quota?: Partial<Quota>;
  storagePolicy?: string;
  /** S3 bucket tags: a new tag set (checked), or null to remove it. */
  tags?: Tag[] | null;
}

function applySettings(rec: ContainerRecord, s: ContainerSettings, now: number): ContainerRecord {
  requireValidQuota(s.quota);
  if (s.versioning === 'unversioned' && rec.versioning !== 'unversioned') {
    throw new CofferError('InvalidArgument', 'Versioning cannot be turned off once enabled; suspend it instead');
  }
  const acl = { ...rec.acl };
  for (const k of ['read', 'write'] as const) {
    const v = s.acl?.[k];
    if (v === null) delete acl[k];
    else if (v !== undefined) acl[k] = v;
  }
  if (s.tags) checkTags(s.tags, 'bucket');
  const next: ContainerRecord = {
    ...rec,
    mtime: now,
    meta: applyMetaPatch(rec.meta, s.meta),
    publicRead: s.publicRead ?? rec.publicRead,
    acl,
    policy: s.policy === undefined ? rec.policy : s.policy,
    versioning: s.versioning ?? rec.versioning,
    quota: { ...rec.quota, ...s.quota },
    storagePolicy: s.storagePolicy ?? rec.storagePolicy,
  };
  if (s.tags !== undefined) {
    if (s.tags === null) delete next.tags;
    else next.tags = s.tags.map((t) => ({ key: t.key, value: t.value }));
  }
  return next;
}

const accountContainerKey = (account: string, name: string) => Buffer.from(`${account}\0${name}`, 'utf8');

export async function createContainer(
  ctx: EngineContext,
  account: string,
  name: string,
  settings: ContainerSettings = {},
): Promise<ContainerInfo> {
  const problem = containerNameProblem(name);
  if (problem) throw new CofferError('InvalidContainerName', problem);
  const rec = await ctx.store.write(() => {
    const owner = requireAccount(ctx, account);
    const existing = findContainer(ctx, { tenant: owner.tenant, container: name });
    if (existing?.owner === account) throw new CofferError('ContainerOwnedByYou', `You already own container ${name}`);
    if (existing) throw new CofferError('ContainerExists', `Container ${name} already exists`);
    const count = readUsage(ctx.store, accountUsageKey(account)).containers ?? 0;
    if (owner.maxContainers >= 0 && count >= owner.maxContainers) {
      throw new CofferError('TooManyContainers', `Account ${account} already has ${count} containers`);
    }
    const now = Date.now();
    const fresh: ContainerRecord = {
      cid: ctx.store.nextCounter('cid'),
      tenant: owner.tenant,
      name,
      owner: account,
      created: now,
      mtime: now,
      meta: {},
      publicRead: false,
      acl: {},
      policy: null,
      versioning: 'unversioned',
      quota: { ...UNLIMITED },
      storagePolicy: 'default-placement',
    };
    const made = applySettings(fresh, settings, now);
    ctx.store.containers.putSync(containerKey(owner.tenant, name), made);
    ctx.store.meta.putSync(`cid:${made.cid}`, containerKey(owner.tenant, name));
    ctx.store.accountContainers.putSync(accountContainerKey(account, name), made.cid);
    addContainerCount(ctx.store, account, 1);
    return made;
  });
  return containerInfo(ctx, rec);
}

export async function updateContainer(ctx: EngineContext, ref: ContainerRef, settings: ContainerSettings): Promise<ContainerInfo> {
  const rec = await ctx.store.write(() => {
    const updated = applySettings(requireContainer(ctx, ref), settings, Date.now());
    ctx.store.containers.putSync(containerKey(updated.tenant, updated.name), updated);
    return updated;
  });
  return containerInfo(ctx, rec);
}

function hasAnyKey(db: EngineContext['store']['objects'], cid: number): boolean {
  const start = cidBytes(cid);
  const end = cidBytes(cid + 1);
  for (const _ of db.getKeys({ start, end, limit: 1 })) return true;
  return false;
}

/** Deletes an empty container (no objects, versions or delete markers); aborts its unfinished uploads. */
export async function deleteContainer(ctx: EngineContext, ref: ContainerRef): Promise<void> {
  const released = await ctx.store.write(() => {
    const rec = requireContainer(ctx, ref);
    if (hasAnyKey(ctx.store.objects, rec.cid) || hasAnyKey(ctx.store.versions, rec.cid)) {
      throw new CofferError('ContainerNotEmpty', `Container ${rec.name} is not empty`);
    }
    const blobs = abortAllUploads(ctx, rec);
    ctx.store.containers.removeSync(containerKey(rec.tenant, rec.name));
    ctx.store.meta.removeSync(`cid:${rec.cid}`);
    ctx.store.accountContainers.removeSync(accountContainerKey(rec.owner, rec.name));
    ctx.store.setUsage(containerUsageKey(rec.cid), undefined);
    addContainerCount(ctx.store, rec.owner, -1);
    return blobs;
  });
  await releaseBlobs(ctx, released);
}

export interface ContainerListParams {
  prefix?: string;
  marker?: string;
  endMarker?: string;
  limit?: number;
  reverse?: boolean;
}

/** The account's containers in name order (UTF-8 byte order), with their usage. Accounts hold at most a few thousand. */
export function listContainers(ctx: EngineContext, account: string, p: ContainerListParams = {}): ContainerInfo[] {
  const owner = requireAccount(ctx, account);
  const base = Buffer.from(`${account}\0`, 'utf8');
  const cmp = (name: Buffer, s: string) => Buffer.compare(name, Buffer.from(s, 'utf8'));
  const prefix = Buffer.from(p.prefix ?? '', 'utf8');
  const names: Buffer[] = [];
  for (const key of ctx.store.accountContainers.getKeys({ start: base, end: Buffer.concat([base, Buffer.of(0xff)]) })) {
    const name = key.subarray(base.length);
    if (!name.subarray(0, prefix.length).equals(prefix)) continue;
    const [after, before] = p.reverse ? [p.endMarker, p.marker] : [p.marker, p.endMarker];
    if (after !== undefined && cmp(name, after) <= 0) continue;
    if (before !== undefined && cmp(name, before) >= 0) continue;
    names.push(name);
  }
  if (p.reverse) names.reverse();
  return names
    .slice(0, p.limit ?? names.length)
    .map((n) => findContainer(ctx, { tenant: owner.tenant, container: n.toString('utf8') }))
    .filter((rec): rec is ContainerRecord => !!rec)
    .map((rec) => containerInfo(ctx, rec));
}

/** Tenants that hold a container of this name (anonymous path-style requests name no tenant). */
export function tenantsWithContainer(ctx: EngineContext, name: string): string[] {
  const out: string[] = [];
  for (const { value } of ctx.store.containers.getRange({})) if (value.name === name) out.push(value.tenant);
  return out;
}
