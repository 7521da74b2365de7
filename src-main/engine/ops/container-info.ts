import type { EngineContext } from '../context.js';
import { effectiveGrants, type Grant } from '../acl.js';
import type { ContainerInfo, ContainerRecord } from '../types.js';
import { containerUsageKey, currentObjects, readUsage } from './usage.js';

/**
 * `containerInfo` whose usage is read when first asked for (then kept): an HTTP request looks
 * its container up to check access and only HEAD uses the counters, at once. Not for callers
 * that keep the info while writes happen (they would see usage from the time of first access).
 * A class with plain fields, because an object literal with a spread and a getter cost ~6 µs per
 * request. `usage` and `grants` live on the prototype: a spread copy leaves them out (JSON keeps them).
 */
class RequestContainerInfo implements ContainerInfo {
  readonly name: string;
  readonly tenant: string;
  readonly owner: string;
  readonly created: number;
  readonly lastModified: number;
  readonly meta: Record<string, string>;
  readonly publicRead: boolean;
  readonly acl: { read?: string; write?: string };
  readonly policy: string | null;
  readonly versioning: ContainerRecord['versioning'];
  readonly quota: ContainerRecord['quota'];
  readonly storagePolicy: string;
  readonly tags: ContainerRecord['tags'];
  readonly lifecycle: ContainerRecord['lifecycle'];
  readonly cors: ContainerRecord['cors'];
  readonly archive: ContainerRecord['archive'];
  readonly objectLock: ContainerRecord['objectLock'];
  readonly #ctx: EngineContext;
  readonly #cid: number;
  #usage: ContainerInfo['usage'] | undefined;
  /** The ACL as stored; the effective one is made when asked for (most requests never do). */
  #grants: Grant[] | undefined;

  constructor(ctx: EngineContext, rec: ContainerRecord) {
    this.name = rec.name;
    this.tenant = rec.tenant;
    this.owner = rec.owner;
    this.created = rec.created;
    this.lastModified = rec.mtime;
    this.meta = rec.meta;
    this.publicRead = rec.publicRead;
    this.acl = rec.acl;
    this.#grants = rec.grants;
    this.policy = rec.policy;
    this.versioning = rec.versioning;
    this.quota = rec.quota;
    this.tags = rec.tags;
    this.storagePolicy = rec.storagePolicy;
    this.lifecycle = rec.lifecycle;
    this.cors = rec.cors;
    this.archive = rec.archive;
    this.objectLock = rec.objectLock;
    this.#ctx = ctx;
    this.#cid = rec.cid;
  }

  get usage(): ContainerInfo['usage'] {
    if (!this.#usage) {
      const u = readUsage(this.#ctx.store, containerUsageKey(this.#cid));
      this.#usage = { objects: u.objects, bytes: u.bytes, bytesActual: u.bytesActual, current: currentObjects(u) };
    }
    return this.#usage;
  }

  get grants(): Grant[] {
    return effectiveGrants(this.owner, this.#grants, this.publicRead);
  }

  toJSON(): ContainerInfo {
    return { ...this, usage: this.usage, grants: this.grants };
  }
}

export function containerInfoForRequest(ctx: EngineContext, rec: ContainerRecord): ContainerInfo {
  return new RequestContainerInfo(ctx, rec);
}
