import type { ContainerInfo } from '../../engine/index.js';

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

/**
 * The native API names an account in every path, and the tenant's accounts share one container
 * namespace: a container reached through an account's path must be that account's own, or the
 * caller must be that account and be granted the container by an ACL. Otherwise a TempURL or a
 * token of one account could act on another's container by naming it under its own path.
 */
export function allowedThrough(c: ContainerInfo, who: Identity, pathAccount: string, action: Action): boolean {
  return (c.owner === pathAccount || who.account === pathAccount) && allowed(c, who, action);
}

/** A large object's segments are read as its reader: the check the engine asks for each segment container. */
export function segmentReader(who: Identity): (c: ContainerInfo) => boolean {
  return (c) => allowed(c, who, 'read-object');
}
