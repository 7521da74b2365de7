import type { Engine } from './engine.js';
import type { AccountAcl, ContainerInfo } from './types.js';

/** Who is asking: an authenticated account, or nobody (anonymous). */
export interface Identity {
  account?: string;
  /**
   * The Swift user it signed in as, `<account>:<user>` (tempauth's name for it), which ACLs may
   * name; undefined for S3 keys and TempURLs, which act as their account.
   */
  user?: string;
}

export type Action = 'read-object' | 'list' | 'write-object' | 'admin';

/**
 * What an account-level request does: read the account (HEAD, list its containers), create a
 * container in it, or change the account itself (its metadata).
 */
export type AccountAction = 'read' | 'create-container' | 'update';

/**
 * Whether an ACL's list of identities names the caller. Tempauth's groups for a user are its
 * account, `<account>:<user>` and, for the account's admins (every Coffer user is its account's
 * admin), `AUTH_<account>`; keystoneauth adds the wildcards `*:<user>`, `<account>:*` and `*:*`
 * (with `*` read as `*:*`). A caller without a Swift user (S3 keys) is named by its account forms.
 */
export function namesCaller(items: readonly string[], who: Identity): boolean {
  const account = who.account;
  if (account === undefined) return false;
  const sub = who.user !== undefined && who.user.startsWith(`${account}:`) ? who.user.slice(account.length + 1) : undefined;
  return items.some(
    (item) =>
      item === account ||
      item === `AUTH_${account}` ||
      item === `${account}:*` ||
      item === '*:*' ||
      item === '*' ||
      (sub !== undefined && (item === who.user || item === `*:${sub}`)),
  );
}

/** The strongest role an account ACL gives the caller (tempauth checks admin, then read-write, then read-only). */
export function accountRole(acl: AccountAcl | undefined, who: Identity): keyof AccountAcl | undefined {
  if (!acl || who.account === undefined) return undefined;
  return (['admin', 'read-write', 'read-only'] as const).find((role) => namesCaller(acl[role] ?? [], who));
}

/**
 * Whether the caller acts as the account's owner there (Swift's `swift_owner`): the account
 * itself, or an identity its ACL makes admin. Owners see and set the privileged headers
 * (container ACLs, TempURL keys, the account ACL).
 */
export function actsAsOwner(who: Identity, account: string, acl: () => AccountAcl | undefined): boolean {
  if (who.account === undefined) return false;
  return who.account === account || accountRole(acl(), who) === 'admin';
}

/** What an account ACL role permits on the account's containers (tempauth: read-write everything there, read-only GET/HEAD). */
function roleAllows(role: keyof AccountAcl | undefined, action: Action): boolean {
  if (role === 'admin' || role === 'read-write') return true;
  return role === 'read-only' && (action === 'read-object' || action === 'list');
}

/** What an account ACL role permits on the account itself: read-write may also create containers; only admin changes the account. */
function roleAllowsOnAccount(role: keyof AccountAcl | undefined, action: AccountAction): boolean {
  if (role === 'admin') return true;
  if (role === 'read-write') return action !== 'update';
  return role === 'read-only' && action === 'read';
}

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

function writeGrantees(acl: string | undefined): string[] {
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
  const named = namesCaller(read.accounts, who);
  // S3 bucket public-read (c.publicRead) permits listing only; object reads follow the object
  // ACL, a native `.r:*` read ACL, or the bucket policy (§26.4).
  if (action === 'read-object') return named || read.anyReferrer || policyGrantsPublic(c.policy, 's3:GetObject');
  if (action === 'list') return named || c.publicRead || (read.anyReferrer && read.listings) || policyGrantsPublic(c.policy, 's3:ListBucket');
  return namesCaller(writeGrantees(c.acl.write), who);
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
  /** The ACL of the account `through` names (native), read only when the container's own rules grant nothing. */
  accountAcl?: (() => AccountAcl | undefined) | undefined;
}

/** An account-level request: `action` on `account`, which its ACL (native) may open to others. */
export interface AccountQuestion {
  who: Identity;
  account: string;
  /** Undefined: the account's own alone (S3's). */
  action?: AccountAction | undefined;
  accountAcl?: (() => AccountAcl | undefined) | undefined;
}

/** The access questions of both APIs: a container's, an account's, or any signed-in caller (who is then asked per container). */
export type AccessQuestion = ContainerQuestion | AccountQuestion | { who: Identity; signedIn: true };

/**
 * The one access decision of both front ends (and of a copy's source): an account's operations
 * are its own, or what its ACL grants (tempauth); on a container, the container's rules
 * (`allowed`), reached through the right account, else what the ACL of the account owning it
 * grants (through its own path), else an object made public on its own, read through its owner's path.
 */
export function decide(q: AccessQuestion): boolean {
  if ('signedIn' in q) return q.who.account !== undefined;
  if ('account' in q) {
    if (q.who.account === undefined) return false;
    if (q.who.account === q.account) return true;
    return q.action !== undefined && q.accountAcl !== undefined && roleAllowsOnAccount(accountRole(q.accountAcl(), q.who), q.action);
  }
  const c = q.container;
  const ownPath = q.through === undefined || c.owner === q.through;
  if ((ownPath || q.who.account === q.through) && allowed(c, q.who, q.action)) return true;
  if (ownPath && q.who.account !== undefined && q.accountAcl !== undefined && roleAllows(accountRole(q.accountAcl(), q.who), q.action)) return true;
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

/**
 * A large object's segments are read as its reader: the check the engine asks for each segment
 * container (its rules, else the ACL of the account owning it, when `aclOf` reads account ACLs:
 * Swift reads each segment as a request of the reader's own).
 */
export function segmentReader(who: Identity, aclOf?: (account: string) => AccountAcl | undefined): (c: ContainerInfo) => boolean {
  return (c) => decide({ who, container: c, action: 'read-object', accountAcl: aclOf ? () => aclOf(c.owner) : undefined });
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
