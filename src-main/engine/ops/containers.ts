import { CofferError } from '../../../src-shared/errors.js';
import { containerNameProblem } from '../../../src-shared/names.js';
import { grantsPublicRead, withPublicRead, effectiveGrants, type Grant } from '../acl.js';
import type { EngineContext } from '../context.js';
import type { CorsRule } from '../cors.js';
import type { LifecycleRule } from '../lifecycle.js';
import { defaultRetentionProblem, lockError, type ObjectLockConfig } from '../object-lock.js';
import { cidBytes } from '../index/keys.js';
import { requireAccount } from './accounts.js';
import { abortAllUploads } from './multipart.js';
import { couldBeContainer } from './name-limits.js';
import { releaseBlobs } from './release.js';
import { checkTags } from './tagging.js';
import { requireHeaderSafeMeta } from './put-object.js';
import { accountUsageKey, addContainerCount, containerUsageKey, currentObjects, readUsage, requireValidQuota } from './usage.js';
export { containerInfoForRequest } from './container-info.js';
import {
  UNLIMITED,
  type ContainerInfo,
  type ContainerRecord,
  type ContainerRef,
  type LegacyArchive,
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
  const { cid: _cid, mtime, grants, ...rest } = rec;
  const usage = { objects: u.objects, bytes: u.bytes, bytesActual: u.bytesActual, current: currentObjects(u) };
  return { ...rest, grants: effectiveGrants(rec.owner, grants, rec.publicRead), lastModified: mtime, usage };
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
  /** An S3 ACL: sets the public flag too. Without it, `publicRead` adds or removes AllUsers READ from an ACL already set. */
  grants?: Grant[];
  acl?: { read?: string | null; write?: string | null };
  policy?: string | null;
  versioning?: VersioningState;
  quota?: Partial<Quota>;
  storagePolicy?: string;
  /** S3 bucket tags: a new tag set (checked), or null to remove it. */
  tags?: Tag[] | null;
  /** null removes the lifecycle configuration. */
  lifecycle?: LifecycleRule[] | null;
  /** null removes the CORS configuration. */
  cors?: CorsRule[] | null;
  /** Legacy versioned writes; null removes it. */
  archive?: LegacyArchive | null;
  /**
   * S3 Object Lock: enables it (a new container, or one whose versioning is enabled, as AWS
   * allows since 2023) and sets its default retention (none: no default). It is never disabled.
   */
  objectLock?: ObjectLockConfig;
}

/** Object lock's rules on a container's settings: versioning on for good, only a lock that is valid. */
function checkObjectLock(rec: ContainerRecord, s: ContainerSettings, creating: boolean): void {
  if (s.objectLock) {
    const d = s.objectLock.defaultRetention;
    const problem = d && defaultRetentionProblem(d);
    if (problem) throw lockError('InvalidArgument', problem);
    const versioned = creating || (s.versioning ?? rec.versioning) === 'enabled';
    if (!rec.objectLock && !versioned) {
      throw lockError('InvalidBucketState', "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration");
    }
  }
  if ((rec.objectLock || s.objectLock) && s.versioning !== undefined && s.versioning !== 'enabled' && !creating) {
    throw lockError('InvalidBucketState', 'An Object Lock configuration is present on this bucket, so the versioning state cannot be changed.');
  }
}

function applySettings(rec: ContainerRecord, s: ContainerSettings, now: number, creating = false): ContainerRecord {
  requireValidQuota(s.quota);
  checkObjectLock(rec, s, creating);
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
  let grants = s.grants ?? rec.grants;
  if (!s.grants && s.publicRead !== undefined && grants) grants = withPublicRead(grants, s.publicRead);
  const { lifecycle: _rules, cors: _cors, ...kept } = rec;
  const out: ContainerRecord = {
    ...kept,
    mtime: now,
    meta: applyMetaPatch(rec.meta, s.meta),
    publicRead: grants ? grantsPublicRead(grants) : (s.publicRead ?? rec.publicRead),
    acl,
    policy: s.policy === undefined ? rec.policy : s.policy,
    versioning: s.versioning ?? rec.versioning,
    quota: { ...rec.quota, ...s.quota },
    storagePolicy: s.storagePolicy ?? rec.storagePolicy,
    ...documentsOf(rec, s),
  };
  if (grants) out.grants = grants;
  if (s.objectLock) {
    out.objectLock = s.objectLock.defaultRetention ? { defaultRetention: { ...s.objectLock.defaultRetention } } : {};
    // A container made with object lock keeps versions from its first write.
    out.versioning = 'enabled';
  }
  if (s.archive) out.archive = s.archive;
  else if (s.archive === null) delete out.archive;
  if (s.tags !== undefined) {
    if (s.tags === null) delete out.tags;
    else out.tags = s.tags.map((t) => ({ key: t.key, value: t.value }));
  }
  return out;
}

/** The lifecycle and CORS rules after a change: kept, replaced, or gone (left out, never stored as undefined). */
function documentsOf(rec: ContainerRecord, s: ContainerSettings): { lifecycle?: LifecycleRule[]; cors?: CorsRule[] } {
  const lifecycle = s.lifecycle === undefined ? rec.lifecycle : s.lifecycle;
  const cors = s.cors === undefined ? rec.cors : s.cors;
  return { ...(lifecycle ? { lifecycle } : {}), ...(cors ? { cors } : {}) };
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
      // Swift's proxy words it so (max_containers_per_account).
      throw new CofferError('TooManyContainers', `Reached container limit of ${owner.maxContainers}`);
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
    const made = applySettings(fresh, settings, now, true);
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

/** The names of the account's containers the parameters select, in the listing's order (before `limit`). */
export function containerNames(ctx: EngineContext, account: string, p: ContainerListParams = {}): Buffer[] {
  requireAccount(ctx, account);
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
  return names;
}

/** One container of the account by name, with its usage; undefined when it went meanwhile. */
export function accountContainer(ctx: EngineContext, account: string, name: string): ContainerInfo | undefined {
  const owner = requireAccount(ctx, account);
  const rec = findContainer(ctx, { tenant: owner.tenant, container: name });
  return rec ? containerInfo(ctx, rec) : undefined;
}

/** The account's containers in name order (UTF-8 byte order), with their usage. Accounts hold at most a few thousand. */
export function listContainers(ctx: EngineContext, account: string, p: ContainerListParams = {}): ContainerInfo[] {
  const names = containerNames(ctx, account, p);
  return names
    .slice(0, p.limit ?? names.length)
    .map((n) => accountContainer(ctx, account, n.toString('utf8')))
    .filter((c): c is ContainerInfo => !!c);
}

/** Tenants that hold a container of this name (anonymous path-style requests name no tenant). */
export function tenantsWithContainer(ctx: EngineContext, name: string): string[] {
  const out: string[] = [];
  for (const { value } of ctx.store.containers.getRange({})) if (value.name === name) out.push(value.tenant);
  return out;
}
