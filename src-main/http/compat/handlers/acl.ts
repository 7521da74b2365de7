import { isCofferError } from '../../../../src-shared/errors.js';
import { effectiveGrants, parsePolicy, policyIsPublic, type Engine, resolveAcl, type AclSpec, type Grant } from '../../../engine/index.js';
import { el, type XmlNode } from '../../common/xml.js';
import { aclFromDocument, groupUri } from '../acl-input.js';
import { S3Error } from '../errors.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readParamBody, readXml } from '../xml-input.js';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** An account's canonical id and display name (the id is the account id, as ListBuckets' Owner). */
function person(call: BucketCall, id: string): XmlNode[] {
  try {
    return [el('ID', id), el('DisplayName', call.ctx.engine.getAccount(id).displayName)];
  } catch {
    // A grantee removed since: listed by id alone.
    return [el('ID', id)];
  }
}

function aclDocument(call: BucketCall, owner: string, grants: Grant[]): XmlNode {
  const listed = grants.map((g) =>
    el('Grant', [
      'user' in g
        ? el('Grantee', person(call, g.user), { 'xmlns:xsi': XSI, 'xsi:type': 'CanonicalUser' })
        : el('Grantee', [el('URI', groupUri(g.group))], { 'xmlns:xsi': XSI, 'xsi:type': 'Group' }),
      el('Permission', g.permission),
    ]),
  );
  return s3Root('AccessControlPolicy', [el('Owner', person(call, owner)), el('AccessControlList', listed)]);
}

/** The grants, once every account they name is known: a grant to an id no account has is AWS's InvalidArgument. */
export function checkedGrants(engine: Engine, grants: Grant[]): Grant[] {
  for (const g of grants) {
    if (!('user' in g)) continue;
    try {
      engine.getAccount(g.user);
    } catch (err) {
      if (!isCofferError(err, 'NoSuchAccount')) throw err;
      throw new S3Error(400, 'InvalidArgument', 'Invalid id', { ArgumentName: 'CanonicalUser/ID', ArgumentValue: g.user });
    }
  }
  return grants;
}

/** The grants an ACL request (headers, or else an AccessControlPolicy body) or an upload's ACL headers stand for. */
export function grantsOf(call: BucketCall, spec: AclSpec): Grant[] {
  return checkedGrants(call.ctx.engine, resolveAcl(spec, call.bucket.owner));
}

/** An upload's or a copy's ACL: the one asked for, else (`orPrivate`) the default, as a copy does not take its source's. */
export function uploadGrants(call: BucketCall, spec: AclSpec | undefined, orPrivate = false): Grant[] | undefined {
  if (spec) return grantsOf(call, spec);
  return orPrivate ? grantsOf(call, { canned: 'private' }) : undefined;
}

async function requestedGrants(call: BucketCall<OpOf<'PutBucketAcl' | 'PutObjectAcl'>>): Promise<Grant[]> {
  if (call.op.acl !== undefined) return grantsOf(call, call.op.acl);
  const doc = await readXml(call.x.req, call.op.document).catch((err: unknown) => {
    // Only a broken document is an ACL error; digest and signature failures keep their codes.
    if (err instanceof S3Error && err.code !== 'MalformedXML') throw err;
    throw new S3Error(400, 'MalformedACLError', 'The XML you provided was not well-formed or did not validate against our published schema.');
  });
  return grantsOf(call, aclFromDocument(doc));
}

export function getBucketAcl(call: BucketCall): void {
  sendXml(call.x, 200, aclDocument(call, call.bucket.owner, call.bucket.grants));
}

export async function putBucketAcl(call: BucketCall<OpOf<'PutBucketAcl'>>): Promise<void> {
  await call.ctx.engine.updateContainer(call.ref, { grants: await requestedGrants(call) });
  sendEmpty(call.x, 200);
}

/** GetObjectAcl: the addressed version's ACL (objects are owned by their bucket's owner here); AWS names no version in the answer. */
export function getObjectAcl(call: BucketCall<OpOf<'GetObjectAcl'>>): void {
  const info = call.ctx.engine.headObject(call.ref, call.op.address.key!, call.op.versionId);
  const owner = call.bucket.owner;
  sendXml(call.x, 200, aclDocument(call, owner, effectiveGrants(owner, info.grants, info.publicRead)));
}

/** PutObjectAcl: sets the addressed version's ACL in place; its Last-Modified stays. */
export async function putObjectAcl(call: BucketCall<OpOf<'PutObjectAcl'>>): Promise<void> {
  const key = call.op.address.key!;
  // The object must exist before the body is read: NoSuchKey wins over a malformed document.
  call.ctx.engine.headObject(call.ref, key, call.op.versionId);
  const grants = await requestedGrants(call);
  await call.ctx.engine.setObjectAcl(call.ref, key, call.op.versionId, { grants });
  sendEmpty(call.x, 200);
}

export function getBucketPolicy(call: BucketCall): void {
  const policy = call.bucket.policy;
  if (!policy) throw new S3Error(404, 'NoSuchBucketPolicy', 'The bucket policy does not exist');
  call.x.send(200, { 'x-amz-request-id': call.x.id, 'x-amz-id-2': call.x.id, 'Content-Type': 'application/json' }, policy);
}

export async function putBucketPolicy(call: BucketCall<OpOf<'PutBucketPolicy'>>): Promise<void> {
  const body = (await readParamBody(call.x.req, call.op.document)).toString('utf8');
  // The engine's reading of a policy is the one its decisions use: what it cannot read is refused.
  const parsed = parsePolicy(body, call.bucket.name);
  if (typeof parsed === 'string') throw new S3Error(400, 'MalformedPolicy', parsed);
  await call.ctx.engine.updateContainer(call.ref, { policy: body });
  sendEmpty(call.x, 204);
}

export async function deleteBucketPolicy(call: BucketCall): Promise<void> {
  await call.ctx.engine.updateContainer(call.ref, { policy: null });
  sendEmpty(call.x, 204);
}

export function getBucketPolicyStatus(call: BucketCall): void {
  const open = policyIsPublic(call.bucket.policy, call.bucket.name);
  sendXml(call.x, 200, s3Root('PolicyStatus', [el('IsPublic', open ? 'true' : 'false')]));
}
