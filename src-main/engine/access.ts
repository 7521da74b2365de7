import type { Engine } from './engine.js';
import type { ContainerInfo } from './types.js';

/** Who is asking: an authenticated account, or nobody (anonymous). */
export interface Identity {
  account?: string;
}

export type Action = 'read-object' | 'list' | 'write-object' | 'admin';

interface ReadAcl {
  anyReferrer: boolean;
  listings: boolean;
  accounts: string[];
}

function parseReadAcl(acl: string | undefined): ReadAcl {
  const out: ReadAcl = { anyReferrer: false, listings: false, accounts: [] };
  for (const raw of (acl ?? '').split(',')) {
    const item = raw.trim().replace(/^\.(ref|referer|referrer)\s*:/, '.r:');
    if (item === '.r:*') out.anyReferrer = true;
    else if (item === '.rlistings') out.listings = true;
    else if (item && !item.startsWith('.')) out.accounts.push(item);
  }
  return out;
}

function writeAccounts(acl: string | undefined): string[] {
  return (acl ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('.'));
}

type PolicyAction = 's3:GetObject' | 's3:ListBucket';

/**
 * What a bucket policy grants everyone (`Principal: "*"`): the public-read forms GUI clients
 * write. An explicit Deny for everyone wins over an Allow; a broken document grants nothing.
 */
export function policyGrantsPublic(policy: string | null, action: PolicyAction): boolean {
  if (!policy) return false;
  try {
    const doc = JSON.parse(policy) as { Statement?: unknown };
    const statements = ([] as unknown[]).concat(doc.Statement ?? []);
    const applies = (s: unknown) => {
      const st = s as { Principal?: unknown; Action?: unknown };
      const p = st.Principal as { AWS?: unknown } | string | undefined;
      const everyone = p === '*' || (typeof p === 'object' && ([] as unknown[]).concat(p?.AWS ?? []).includes('*'));
      const actions = ([] as unknown[]).concat(st.Action ?? []);
      return everyone && actions.some((a) => a === action || a === 's3:*' || a === '*');
    };
    const effect = (s: unknown) => (s as { Effect?: string }).Effect;
    if (statements.some((s) => effect(s) === 'Deny' && applies(s))) return false;
    return statements.some((s) => effect(s) === 'Allow' && applies(s));
  } catch {
    return false;
  }
}

/**
 * The one authorisation rule of both front ends: owners may do anything; others only what the
 * container's ACLs (native `X-Container-Read/Write`, S3 canned public-read) or its bucket policy
 * grant. An object's own public-read flag is checked by the caller for object reads.
 * The native front end gives `.r:*` containers the same anonymous reads.
 */
export function allowed(c: ContainerInfo, who: Identity, action: Action): boolean {
  if (who.account !== undefined && who.account === c.owner) return true;
  if (action === 'admin') return false;
  const read = parseReadAcl(c.acl.read);
  const named = who.account !== undefined && read.accounts.includes(who.account);
  // S3 bucket public-read (c.publicRead) permits listing only; object reads follow the object
  // ACL, a native `.r:*` read ACL, or the bucket policy (§26.4).
  if (action === 'read-object') return named || read.anyReferrer || policyGrantsPublic(c.policy, 's3:GetObject');
  if (action === 'list') return named || c.publicRead || (read.anyReferrer && read.listings) || policyGrantsPublic(c.policy, 's3:ListBucket');
  return who.account !== undefined && writeAccounts(c.acl.write).includes(who.account);
}

/** One access question: who asks to do what on which container (and, for a read, the object's own public flag). */
export interface ContainerQuestion {
  who: Identity;
  container: ContainerInfo;
  action: Action;
  /**
   * The account whose path named the container (the native API names one in every path). The
   * tenant's accounts share one container namespace: a container reached through an account's
   * path must be that account's own, or the caller must be that account and be granted the
   * container by an ACL. Otherwise a TempURL or a token of one account could act on another's
   * container by naming it under its own path.
   */
  through?: string | undefined;
  /** Whether the object a read is for is public on its own (S3 object ACL): asked only when nothing else grants the read. */
  objectPublic?: (() => boolean) | undefined;
}

/** The access questions of both APIs: a container's, an account's own operations, or any signed-in caller (who is then asked per container). */
export type AccessQuestion = ContainerQuestion | { who: Identity; account: string } | { who: Identity; signedIn: true };

/**
 * The one access decision of both front ends (and of a copy's source): an account's own
 * operations are its own alone; on a container, the container's rules (`allowed`), reached
 * through the right account, else an object made public on its own, read through its owner's path.
 */
export function decide(q: AccessQuestion): boolean {
  if ('signedIn' in q) return q.who.account !== undefined;
  if ('account' in q) return q.who.account !== undefined && q.who.account === q.account;
  const c = q.container;
  const ownPath = q.through === undefined || c.owner === q.through;
  if ((ownPath || q.who.account === q.through) && allowed(c, q.who, q.action)) return true;
  return q.action === 'read-object' && ownPath && q.objectPublic !== undefined && q.objectPublic();
}

/** The object's own public flag, read lazily for `decide`; false when it is not there. */
export function objectPublicFlag(engine: Engine, c: ContainerInfo, key: string, versionId?: string): () => boolean {
  return () => {
    try {
      return engine.headObject({ tenant: c.tenant, container: c.name }, key, versionId).publicRead;
    } catch {
      return false;
    }
  };
}

/** A large object's segments are read as its reader: the check the engine asks for each segment container. */
export function segmentReader(who: Identity): (c: ContainerInfo) => boolean {
  return (c) => allowed(c, who, 'read-object');
}

/**
 * What anyone may do without credentials, by the rules the server answers anonymous requests
 * with: list the container, read its objects. The app's "public" summaries are this decision.
 */
export function publicAccess(c: ContainerInfo): { list: boolean; read: boolean } {
  return { list: allowed(c, {}, 'list'), read: allowed(c, {}, 'read-object') };
}

/** Whether anyone may read this object without credentials: the container's rules or its own public flag. */
export function objectIsPublic(c: ContainerInfo, objectPublicRead: boolean): boolean {
  return decide({ who: {}, container: c, action: 'read-object', objectPublic: () => objectPublicRead });
}
