import type { Engine } from './engine.js';
import { effectiveGrants, grantsPermit, type Grant, type Permission } from './acl.js';
import { evaluatePolicy, type ConditionContext, type PolicyVerdict } from './policy.js';
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

/**
 * What a request does to a container: read an object, list, write objects, administer (owner
 * only, unless its policy allows the operation), or read and write the bucket's or an object's ACL.
 */
export type Action = 'read-object' | 'list' | 'write-object' | 'admin' | 'read-acl' | 'write-acl' | 'read-object-acl' | 'write-object-acl';

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

/** What the bucket ACL's grants give for a container-level action (object reads and object ACLs are the object's own). */
const BUCKET_PERMISSION: Partial<Record<Action, Permission>> = { list: 'READ', 'write-object': 'WRITE', 'read-acl': 'READ_ACP', 'write-acl': 'WRITE_ACP' };
/** What an object's own ACL gives: its reads, and the reading and writing of its ACL. */
const OBJECT_PERMISSION: Partial<Record<Action, Permission>> = { 'read-object': 'READ', 'read-object-acl': 'READ_ACP', 'write-object-acl': 'WRITE_ACP' };
/** The policy action a question stands for when its front end names none (the native API). */
const DEFAULT_POLICY_ACTION: Partial<Record<Action, string>> = {
  'read-object': 's3:GetObject',
  list: 's3:ListBucket',
  'write-object': 's3:PutObject',
  'read-acl': 's3:GetBucketAcl',
  'write-acl': 's3:PutBucketAcl',
  'read-object-acl': 's3:GetObjectAcl',
  'write-object-acl': 's3:PutObjectAcl',
};
const OBJECT_ACTIONS = new Set<Action>(['read-object', 'write-object', 'read-object-acl', 'write-object-acl']);
/** The owner always keeps these, whatever its policy denies (AWS's root user can always repair a policy). */
const OWNER_KEEPS = new Set(['s3:getbucketpolicy', 's3:putbucketpolicy', 's3:deletebucketpolicy']);

/** What the request is as a bucket policy sees it; the front end knows the S3 action, the key and the condition keys. */
export interface PolicyFacts {
  action?: string | undefined;
  key?: string | undefined;
  context?: ConditionContext | undefined;
}

function policyVerdict(c: ContainerInfo, who: Identity, action: Action, facts: PolicyFacts | undefined): PolicyVerdict {
  const name = facts?.action ?? DEFAULT_POLICY_ACTION[action];
  if (!c.policy || !name) return undefined;
  // An object action asked without its key (a segment container's check, the "public" summary)
  // is asked of the bucket's objects as a whole: `bucket/*` matches, `bucket/some/prefix/*` not.
  const key = facts?.key ?? (OBJECT_ACTIONS.has(action) ? '' : undefined);
  return evaluatePolicy(c.policy, { action: name, bucket: c.name, key, account: who.account, context: facts?.context ?? {} });
}

/**
 * The container's own rules for a request: its policy (an applying Deny wins, even over the
 * owner, but for the owner's policy operations), then ownership, an applying Allow, the S3 ACL's
 * grants and the native ACLs (`X-Container-Read/Write`). 'none': the container grants nothing;
 * the object's own ACL may still.
 */
function containerVerdict(c: ContainerInfo, who: Identity, action: Action, facts?: PolicyFacts): 'allow' | 'deny' | 'none' {
  const owner = who.account !== undefined && who.account === c.owner;
  const policy = policyVerdict(c, who, action, facts);
  if (policy === 'deny' && !(owner && OWNER_KEEPS.has((facts?.action ?? '').toLowerCase()))) return 'deny';
  if (owner) return 'allow';
  if (policy === 'allow' && !OWNER_KEEPS.has((facts?.action ?? '').toLowerCase())) return 'allow';
  const permission = BUCKET_PERMISSION[action];
  if (permission && grantsPermit(c.grants, who.account, permission)) return 'allow';
  const read = parseReadAcl(c.acl.read);
  const named = namesCaller(read.accounts, who);
  // S3 bucket READ permits listing only; object reads follow the object ACL, a native `.r:*`
  // read ACL, or the bucket policy (§26.4).
  if (action === 'read-object') return named || read.anyReferrer ? 'allow' : 'none';
  if (action === 'list') return named || (read.anyReferrer && read.listings) ? 'allow' : 'none';
  if (action === 'write-object') return namesCaller(writeGrantees(c.acl.write), who) ? 'allow' : 'none';
  return 'none';
}

/**
 * The one authorisation rule of both front ends on a container: owners may do anything their
 * policy does not deny; others what its policy, its S3 ACL or its native ACLs grant. An object's
 * own ACL is asked by `decide`.
 */
export function allowed(c: ContainerInfo, who: Identity, action: Action, facts?: PolicyFacts): boolean {
  return containerVerdict(c, who, action, facts) === 'allow';
}

/** One access question: who asks to do what on which container (and, for an object, its own ACL). */
export interface ContainerQuestion {
  who: Identity;
  container: ContainerInfo;
  action: Action;
  /** The request as the bucket policy reads it (S3 front end); without it, the action's usual S3 name. */
  facts?: PolicyFacts | undefined;
  /**
   * The account whose path named the container (the native API names one in every path). The
   * tenant's accounts share one container namespace: a container reached through an account's
   * path must be that account's own, or the caller must be that account and be granted the
   * container by an ACL. Otherwise a TempURL or a token of one account could act on another's
   * container by naming it under its own path.
   */
  through?: string | undefined;
  /**
   * The ACL of the object a request is for (S3 object ACL), undefined when there is no such
   * object: asked only when the container grants nothing.
   */
  objectGrants?: (() => Grant[] | undefined) | undefined;
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
 * are its own, or what its ACL grants (tempauth); on a container, the container's rules, reached
 * through the right account, else what the ACL of the account owning it grants (through its own
 * path), else the object's own ACL, read through its owner's path. For an object that is not
 * there, a caller who may list the bucket is let through to learn so (404); others are refused
 * (403), as AWS answers.
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
  if (ownPath || q.who.account === q.through) {
    const verdict = containerVerdict(c, q.who, q.action, q.facts);
    if (verdict !== 'none') return verdict === 'allow';
  }
  if (ownPath && q.who.account !== undefined && q.accountAcl !== undefined && roleAllows(accountRole(q.accountAcl(), q.who), q.action)) return true;
  const permission = OBJECT_PERMISSION[q.action];
  if (!permission || !ownPath || !q.objectGrants) return false;
  const grants = q.objectGrants();
  if (grants) return grantsPermit(grants, q.who.account, permission);
  return mayLearnAbsence(q);
}

/**
 * Whether the caller may be told an object is not there (404) rather than refused (403): AWS
 * tells those who may list the bucket (s3:ListBucket) only.
 */
export function mayLearnAbsence(q: ContainerQuestion): boolean {
  const ownPath = q.through === undefined || q.container.owner === q.through;
  if (!ownPath && q.who.account !== q.through) return false;
  return allowed(q.container, q.who, 'list', { action: 's3:ListBucket', context: q.facts?.context });
}

/** The object's own ACL, read lazily for `decide`; undefined when it is not there. */
export function objectGrantsOf(engine: Engine, c: ContainerInfo, key: string, versionId?: string): () => Grant[] | undefined {
  return () => {
    try {
      const info = engine.headObject({ tenant: c.tenant, container: c.name }, key, versionId);
      return effectiveGrants(c.owner, info.grants, info.publicRead);
    } catch {
      return undefined;
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
  return decide({ who: {}, container: c, action: 'read-object', objectGrants: () => effectiveGrants(c.owner, undefined, objectPublicRead) });
}
