import { CANNED_ACLS, PERMISSIONS, type AclGroup, type AclSpec, type CannedAcl, type Grant, type Permission } from '../../engine/index.js';
import { headerOf, type RequestHeaders } from '../common/headers.js';
import { S3Error, s3 } from './errors.js';
import { text } from './xml-input.js';

const GROUP_PREFIX = 'http://acs.amazonaws.com/groups/';
const GROUP_URIS: Record<string, AclGroup> = {
  [`${GROUP_PREFIX}global/AllUsers`]: 'AllUsers',
  [`${GROUP_PREFIX}global/AuthenticatedUsers`]: 'AuthenticatedUsers',
  [`${GROUP_PREFIX}s3/LogDelivery`]: 'LogDelivery',
};

/** A group's URI as AWS writes it in ACL documents and grant headers. */
export function groupUri(group: AclGroup): string {
  return `${GROUP_PREFIX}${group === 'LogDelivery' ? 's3' : 'global'}/${group}`;
}

/** The grant headers, in the order AWS documents them. */
const GRANT_HEADERS: [string, Permission][] = [
  ['x-amz-grant-read', 'READ'],
  ['x-amz-grant-write', 'WRITE'],
  ['x-amz-grant-read-acp', 'READ_ACP'],
  ['x-amz-grant-write-acp', 'WRITE_ACP'],
  ['x-amz-grant-full-control', 'FULL_CONTROL'],
];

/** This server keeps no e-mail addresses: a grant by one resolves to nobody (AWS outside its e-mail regions). */
const unresolvableEmail = () =>
  new S3Error(400, 'UnresolvableGrantByEmailAddress', 'The e-mail address you provided does not match any account on record.');

function groupOf(uri: string): AclGroup {
  const group = GROUP_URIS[uri];
  if (!group) throw s3.invalidArgument('Invalid group uri', { ArgumentName: 'uri', ArgumentValue: uri });
  return group;
}

/** One grant header's value: `id="…", uri="…", emailAddress="…"`, comma-separated, quotes optional. */
function headerGrants(value: string, permission: Permission): Grant[] {
  const out: Grant[] = [];
  const item = /\s*([A-Za-z]+)\s*=\s*(?:"([^"]*)"|([^,]*?))\s*(?:,|$)/y;
  let rest = value.trim();
  while (rest) {
    item.lastIndex = 0;
    const m = item.exec(rest);
    if (!m || m[0] === '') throw s3.invalidArgument('Invalid grant header value', { ArgumentName: 'x-amz-grant', ArgumentValue: value });
    const kind = m[1]!.toLowerCase();
    const v = (m[2] ?? m[3] ?? '').trim();
    if (kind === 'id') out.push({ user: v, permission });
    else if (kind === 'uri') out.push({ group: groupOf(v), permission });
    else if (kind === 'emailaddress') throw unresolvableEmail();
    else throw s3.invalidArgument('Invalid grantee type', { ArgumentName: 'x-amz-grant', ArgumentValue: value });
    rest = rest.slice(m[0].length).trim();
  }
  return out;
}

/**
 * The ACL a request's headers ask for (§26.1): `x-amz-acl`, or the `x-amz-grant-*` headers, or
 * undefined when neither is there. Both at once is AWS's InvalidRequest.
 */
export function aclFromHeaders(headers: RequestHeaders): AclSpec | undefined {
  const acl = headerOf(headers, 'x-amz-acl');
  const given = GRANT_HEADERS.filter(([h]) => headerOf(headers, h) !== undefined);
  if (acl !== undefined && given.length) throw new S3Error(400, 'InvalidRequest', 'Specifying both Canned ACLs and Header Grants is not allowed');
  if (given.length) return { grants: given.flatMap(([h, permission]) => headerGrants(headerOf(headers, h)!, permission)) };
  if (acl === undefined) return undefined;
  if ((CANNED_ACLS as readonly string[]).includes(acl)) return { canned: acl as CannedAcl };
  if (acl === 'aws-exec-read') throw new S3Error(501, 'NotImplemented', 'The canned ACL aws-exec-read grants EC2, which this server does not have.');
  throw new S3Error(400, 'InvalidArgument', `Invalid canned ACL: ${acl}`);
}

const malformedAcl = (why = 'The XML you provided was not well-formed or did not validate against our published schema.') =>
  new S3Error(400, 'MalformedACLError', why);

/** An AccessControlPolicy document's grants, in the order written (AWS keeps it). */
export function aclFromDocument(doc: Record<string, unknown> | undefined): AclSpec {
  const policy = doc?.AccessControlPolicy as { AccessControlList?: { Grant?: unknown[] } | string } | undefined;
  const list = policy?.AccessControlList;
  if (list === undefined) throw malformedAcl();
  const grants = (typeof list === 'object' ? (list.Grant ?? []) : []).map((g): Grant => {
    const permission = text(g, 'Permission') as Permission;
    if (!PERMISSIONS.includes(permission)) throw malformedAcl();
    const grantee = (g as { Grantee?: unknown }).Grantee;
    const id = text(grantee, 'ID');
    const uri = text(grantee, 'URI');
    if (id) return { user: id, permission };
    if (uri) return { group: groupOf(uri), permission };
    if (text(grantee, 'EmailAddress')) throw unresolvableEmail();
    throw malformedAcl();
  });
  // rgw_acl_grants_max_num (§26.2).
  if (grants.length > 100) throw malformedAcl('The request contains more than 100 grants.');
  return { grants };
}
