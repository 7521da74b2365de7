import { CofferError, isCofferError } from '../../../../src-shared/errors.js';
import { s3BucketNameProblem } from '../../../../src-shared/names.js';
import { resolveAcl } from '../../../engine/index.js';
import { el } from '../../common/xml.js';
import { checkedGrants } from './acl.js';
import { S3Error, s3 } from '../errors.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendEmpty, sendXml, type BucketCall, type S3Call } from '../respond.js';
import { readXml, text } from '../xml-input.js';

/** Path-style names the native API owns on this port (§0.2). */
const RESERVED = new Set(['swift', 'auth', 'info', 'admin', 'v1']);

export async function createBucket(call: S3Call<OpOf<'CreateBucket'>>): Promise<void> {
  const { x, ctx, op } = call;
  const { address } = op;
  const account = call.who.account;
  if (!account) throw new CofferError('AccessDenied');
  const name = address.bucket!;
  const problem = s3BucketNameProblem(name) ?? (RESERVED.has(name) ? `"${name}" is reserved on this server` : null);
  if (problem) throw new S3Error(400, 'InvalidBucketName', `The specified bucket is not valid: ${problem}`);
  const tenant = ctx.engine.getAccount(account).tenant;
  if (address.tenant !== undefined && address.tenant !== tenant) throw new CofferError('AccessDenied');
  const config = await readXml(x.req, op.document, true);
  if (config && !('CreateBucketConfiguration' in config)) throw s3.malformedXml();
  const acl = op.acl;
  const grants = acl === undefined ? undefined : checkedGrants(ctx.engine, resolveAcl(acl, account));
  try {
    // Object lock turns versioning on for good (the engine's rule).
    await ctx.engine.createContainer(account, name, { ...(grants === undefined ? {} : { grants }), ...(op.objectLock ? { objectLock: {} } : {}) });
  } catch (err) {
    // RGW answers 200 when the caller already owns the bucket (§20).
    if (!isCofferError(err, 'ContainerOwnedByYou')) throw err;
  }
  sendEmpty(x, 200, { Location: `/${name}` });
}

export async function deleteBucket(call: BucketCall): Promise<void> {
  await call.ctx.engine.deleteContainer(call.ref);
  sendEmpty(call.x, 204);
}

export function headBucket(call: BucketCall): void {
  const b = call.bucket;
  const owner = call.who.account === b.owner;
  const quota = owner ? call.ctx.engine.getAccount(b.owner).quota : undefined;
  sendEmpty(call.x, 200, {
    'X-RGW-Object-Count': b.usage.objects,
    'X-RGW-Bytes-Used': b.usage.bytes,
    'x-amz-bucket-region': call.ctx.region,
    ...(quota
      ? {
          'X-RGW-Quota-User-Size': quota.maxBytes,
          'X-RGW-Quota-User-Objects': quota.maxObjects,
          'X-RGW-Quota-Bucket-Size': b.quota.maxBytes,
          'X-RGW-Quota-Bucket-Objects': b.quota.maxObjects,
        }
      : {}),
  });
}

/** GetBucketLocation: empty for us-east-1 (what SDKs expect from a default region), else the region. */
export function getBucketLocation(call: BucketCall): void {
  const region = call.ctx.region === 'us-east-1' ? '' : call.ctx.region;
  sendXml(call.x, 200, s3Root('LocationConstraint', region ? [{ '#text': region }] : []));
}

export function getBucketVersioning(call: BucketCall): void {
  const v = call.bucket.versioning;
  const body = v === 'unversioned' ? [] : [el('Status', v === 'enabled' ? 'Enabled' : 'Suspended'), el('MfaDelete', 'Disabled')];
  sendXml(call.x, 200, s3Root('VersioningConfiguration', body));
}

export async function putBucketVersioning(call: BucketCall<OpOf<'PutBucketVersioning'>>): Promise<void> {
  const doc = await readXml(call.x.req, call.op.document);
  const status = text(doc?.VersioningConfiguration, 'Status');
  if (status !== 'Enabled' && status !== 'Suspended') throw s3.malformedXml();
  await call.ctx.engine.updateContainer(call.ref, { versioning: status === 'Enabled' ? 'enabled' : 'suspended' });
  sendEmpty(call.x, 200);
}

/** Sub-resources clients probe that this server does not configure (§20): "not configured", never a listing. */
export function notConfigured(call: BucketCall<OpOf<'NotConfigured'>>): void {
  const { x, op } = call;
  const answer = op.answer;
  switch (answer.kind) {
    case 'empty':
      return sendEmpty(x, 204);
    case 'logging':
      return sendXml(x, 200, s3Root('BucketLoggingStatus', []));
    case 'request-payment':
      return sendXml(x, 200, s3Root('RequestPaymentConfiguration', [el('Payer', 'BucketOwner')]));
    case 'missing':
      throw new S3Error(404, answer.code, answer.message);
    case 'not-implemented':
      throw new CofferError('NotSupported');
  }
}
