import type { ContainerInfo } from '../../engine/types.js';

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

/** True when a bucket policy grants anonymous `s3:GetObject` (the public-read form). */
export function policyAllowsPublicRead(policy: string | null): boolean {
  if (!policy) return false;
  try {
    const doc = JSON.parse(policy) as { Statement?: unknown };
    const statements = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
    return statements.some((s) => {
      const st = s as { Effect?: string; Principal?: unknown; Action?: unknown };
      const principal = st.Principal === '*' || (st.Principal as { AWS?: unknown } | undefined)?.AWS === '*';
      const actions = ([] as unknown[]).concat(st.Action ?? []);
      return st.Effect === 'Allow' && principal && actions.some((a) => a === 's3:GetObject' || a === 's3:*' || a === '*');
    });
  } catch {
    return false;
  }
}

/**
 * The one authorisation rule of both front ends: owners may do anything; others only what the
 * container's ACLs (native `X-Container-Read/Write`, S3 canned public-read) or its bucket policy
 * grant. An object's own public-read flag is checked by the caller for object reads.
 */
export function allowed(c: ContainerInfo, who: Identity, action: Action): boolean {
  if (who.account !== undefined && who.account === c.owner) return true;
  if (action === 'admin') return false;
  const read = parseReadAcl(c.acl.read);
  const named = who.account !== undefined && read.accounts.includes(who.account);
  const publicRead = c.publicRead || read.anyReferrer;
  if (action === 'read-object') return named || publicRead || policyAllowsPublicRead(c.policy);
  if (action === 'list') return named || c.publicRead || (read.anyReferrer && read.listings);
  return who.account !== undefined && writeAccounts(c.acl.write).includes(who.account);
}
