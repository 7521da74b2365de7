import { policyGrantsPublic } from '../../../engine/index.js';
import { el, type XmlNode } from '../../common/xml.js';
import { S3Error } from '../errors.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type BucketCall } from '../respond.js';
import { readParamBody, readXml, text } from '../xml-input.js';

const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

function aclDocument(owner: { id: string; name: string }, publicRead: boolean): XmlNode {
  const grants = [
    el('Grant', [
      el('Grantee', [el('ID', owner.id), el('DisplayName', owner.name)], { 'xmlns:xsi': XSI, 'xsi:type': 'CanonicalUser' }),
      el('Permission', 'FULL_CONTROL'),
    ]),
  ];
  if (publicRead) grants.push(el('Grant', [el('Grantee', [el('URI', ALL_USERS)], { 'xmlns:xsi': XSI, 'xsi:type': 'Group' }), el('Permission', 'READ')]));
  return s3Root('AccessControlPolicy', [el('Owner', [el('ID', owner.id), el('DisplayName', owner.name)]), el('AccessControlList', grants)]);
}

/** The public flag an ACL request sets: from `x-amz-acl`, else from an AccessControlPolicy body. */
async function requestedAcl(call: BucketCall<OpOf<'PutBucketAcl' | 'PutObjectAcl'>>): Promise<boolean> {
  if (call.op.acl !== undefined) return call.op.acl;
  const doc = await readXml(call.x.req, call.op.document).catch((err: unknown) => {
    // Only a broken document is an ACL error; digest and signature failures keep their codes.
    if (err instanceof S3Error && err.code !== 'MalformedXML') throw err;
    throw new S3Error(400, 'MalformedACLError', 'The XML you provided was not well-formed or did not validate against our published schema.');
  });
  const list = (doc?.AccessControlPolicy as { AccessControlList?: { Grant?: unknown[] } } | undefined)?.AccessControlList;
  if (!list) throw new S3Error(400, 'MalformedACLError', 'The ACL document has no AccessControlList.');
  return (list.Grant ?? []).some((g) => {
    const permission = text(g, 'Permission');
    return text((g as { Grantee?: unknown }).Grantee, 'URI') === ALL_USERS && (permission === 'READ' || permission === 'FULL_CONTROL');
  });
}

function owner(call: BucketCall) {
  const a = call.ctx.engine.getAccount(call.bucket.owner);
  return { id: a.id, name: a.displayName };
}

export function getBucketAcl(call: BucketCall): void {
  sendXml(call.x, 200, aclDocument(owner(call), call.bucket.publicRead));
}

export async function putBucketAcl(call: BucketCall<OpOf<'PutBucketAcl'>>): Promise<void> {
  await call.ctx.engine.updateContainer(call.ref, { publicRead: await requestedAcl(call) });
  sendEmpty(call.x, 200);
}

export function getObjectAcl(call: BucketCall<OpOf<'GetObjectAcl'>>): void {
  const info = call.ctx.engine.headObject(call.ref, call.op.address.key!, call.op.versionId);
  sendXml(call.x, 200, aclDocument(owner(call), info.publicRead), info.versionId ? { 'x-amz-version-id': info.versionId } : {});
}

export async function putObjectAcl(call: BucketCall<OpOf<'PutObjectAcl'>>): Promise<void> {
  const publicRead = await requestedAcl(call);
  const key = call.op.address.key!;
  const info = call.ctx.engine.headObject(call.ref, key);
  await call.ctx.engine.updateObjectMeta(call.ref, key, { meta: info.meta, headers: info.headers, contentType: info.contentType, keepExpiry: true, publicRead });
  sendEmpty(call.x, 200);
}

export function getBucketPolicy(call: BucketCall): void {
  const policy = call.bucket.policy;
  if (!policy) throw new S3Error(404, 'NoSuchBucketPolicy', 'The bucket policy does not exist');
  call.x.send(200, { 'x-amz-request-id': call.x.id, 'x-amz-id-2': call.x.id, 'Content-Type': 'application/json' }, policy);
}

export async function putBucketPolicy(call: BucketCall<OpOf<'PutBucketPolicy'>>): Promise<void> {
  const body = (await readParamBody(call.x.req, call.op.document)).toString('utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new S3Error(400, 'MalformedPolicy', 'Policies must be valid JSON.');
  }
  const statements = (doc as { Statement?: unknown } | null)?.Statement;
  if (!statements || typeof doc !== 'object') throw new S3Error(400, 'MalformedPolicy', 'Missing required field Statement');
  await call.ctx.engine.updateContainer(call.ref, { policy: body });
  sendEmpty(call.x, 204);
}

export async function deleteBucketPolicy(call: BucketCall): Promise<void> {
  await call.ctx.engine.updateContainer(call.ref, { policy: null });
  sendEmpty(call.x, 204);
}

export function getBucketPolicyStatus(call: BucketCall): void {
  const open = policyGrantsPublic(call.bucket.policy, 's3:GetObject') || policyGrantsPublic(call.bucket.policy, 's3:ListBucket');
  sendXml(call.x, 200, s3Root('PolicyStatus', [el('IsPublic', open ? 'true' : 'false')]));
}
