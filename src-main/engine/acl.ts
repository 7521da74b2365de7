/**
 * S3 access control lists as the engine keeps them: a list of grants on a container or on one
 * version of an object. A record without grants has the ACL its public flag implies (the owner's
 * FULL_CONTROL, plus AllUsers READ when public), so stores written before grants existed, and the
 * native API's public switch, read the same. Where a record has grants, its public flag is kept
 * in step with them (AllUsers READ or FULL_CONTROL), so the listing paths that read the flag alone
 * stay right.
 */

export type Permission = 'FULL_CONTROL' | 'WRITE' | 'WRITE_ACP' | 'READ' | 'READ_ACP';
export const PERMISSIONS: readonly Permission[] = ['FULL_CONTROL', 'WRITE', 'WRITE_ACP', 'READ', 'READ_ACP'];

/** S3's predefined groups (their URIs end in these names). */
export type AclGroup = 'AllUsers' | 'AuthenticatedUsers' | 'LogDelivery';

/** One grant: to an account (its canonical id is the account id) or to a group. */
export type Grant = { user: string; permission: Permission } | { group: AclGroup; permission: Permission };

export type CannedAcl =
  | 'private'
  | 'public-read'
  | 'public-read-write'
  | 'authenticated-read'
  | 'bucket-owner-read'
  | 'bucket-owner-full-control'
  | 'log-delivery-write';
export const CANNED_ACLS: readonly CannedAcl[] = [
  'private', 'public-read', 'public-read-write', 'authenticated-read', 'bucket-owner-read', 'bucket-owner-full-control', 'log-delivery-write',
];

/** What a request asks an ACL to be: a canned name (resolved once the owners are known) or explicit grants. */
export type AclSpec = { canned: CannedAcl } | { grants: Grant[] };

/**
 * A canned ACL's grants, owner first, as AWS lists them. `bucketOwner` is the container's owner
 * for the object forms (bucket-owner-*), where the object's owner may be another account.
 */
export function cannedGrants(canned: CannedAcl, owner: string, bucketOwner = owner): Grant[] {
  const own: Grant = { user: owner, permission: 'FULL_CONTROL' };
  switch (canned) {
    case 'private':
      return [own];
    case 'public-read':
      return [own, { group: 'AllUsers', permission: 'READ' }];
    case 'public-read-write':
      return [own, { group: 'AllUsers', permission: 'READ' }, { group: 'AllUsers', permission: 'WRITE' }];
    case 'authenticated-read':
      return [own, { group: 'AuthenticatedUsers', permission: 'READ' }];
    case 'bucket-owner-read':
      return bucketOwner === owner ? [own] : [own, { user: bucketOwner, permission: 'READ' }];
    case 'bucket-owner-full-control':
      return bucketOwner === owner ? [own] : [own, { user: bucketOwner, permission: 'FULL_CONTROL' }];
    case 'log-delivery-write':
      return [own, { group: 'LogDelivery', permission: 'WRITE' }, { group: 'LogDelivery', permission: 'READ_ACP' }];
  }
}

export function resolveAcl(spec: AclSpec, owner: string, bucketOwner = owner): Grant[] {
  return 'canned' in spec ? cannedGrants(spec.canned, owner, bucketOwner) : spec.grants;
}

/** The grants a record stands for: its own, else those its public flag implies. */
export function effectiveGrants(owner: string, grants: Grant[] | undefined, publicRead: boolean | undefined): Grant[] {
  return grants ?? cannedGrants(publicRead ? 'public-read' : 'private', owner);
}

const isAllUsers = (g: Grant) => 'group' in g && g.group === 'AllUsers';

/** Whether anyone may read: AllUsers holds READ or FULL_CONTROL. */
export function grantsPublicRead(grants: Grant[]): boolean {
  return grants.some((g) => isAllUsers(g) && (g.permission === 'READ' || g.permission === 'FULL_CONTROL'));
}

/** The grants with AllUsers READ added or taken away: the public switch applied to an explicit ACL. */
export function withPublicRead(grants: Grant[], on: boolean): Grant[] {
  const rest = grants.filter((g) => !(isAllUsers(g) && g.permission === 'READ'));
  return on ? [...rest, { group: 'AllUsers', permission: 'READ' }] : rest;
}

/** Whether the grants give `account` (undefined: anonymous) the permission, FULL_CONTROL included. */
export function grantsPermit(grants: readonly Grant[], account: string | undefined, wanted: Permission): boolean {
  return grants.some((g) => {
    if (g.permission !== wanted && g.permission !== 'FULL_CONTROL') return false;
    if ('user' in g) return account !== undefined && g.user === account;
    return g.group === 'AllUsers' || (g.group === 'AuthenticatedUsers' && account !== undefined);
  });
}
