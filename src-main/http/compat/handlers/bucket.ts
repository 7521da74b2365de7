import { isCofferError } from '../../../../src-shared/errors.js';
import { s3BucketNameProblem } from '../../../../src-shared/names.js';
import { el } from '../../common/xml.js';
import { S3Error, s3 } from '../errors.js';
import { s3Root, sendEmpty, sendXml, type BucketCall, type S3Call } from '../respond.js';
import { readXml, text } from '../xml-input.js';
import { cannedAcl } from './acl.js';

/** Path-style names the native API owns on this port (§0.2). */
const RESERVED = new Set(['swift', 'auth', 'info', 'admin', 'v1']);

export async function createBucket(call: S3Call): Promise<void> {
  const { x, ctx, address } = call;
  const account = call.who.account;
  if (!account) throw s3.accessDenied();
  const name = address.bucket!;
  const problem = s3BucketNameProblem(name) ?? (RESERVED.has(name) ? `"${name}" is reserved on this server` : null);
  if (problem) throw new S3Error(400, 'InvalidBucketName', `The specified bucket is not valid: ${problem}`);
  const tenant = ctx.engine.getAccount(account).tenant;
  if (address.tenant !== undefined && address.tenant !== tenant) throw s3.accessDenied();
  const config = await readXml(x, true);
  if (config && !('CreateBucketConfiguration' in config)) throw s3.malformedXml();
  const acl = cannedAcl(x);
  try {
    await ctx.engine.createContainer(account, name, acl === undefined ? {} : { publicRead: acl });
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

export async function putBucketVersioning(call: BucketCall): Promise<void> {
  const doc = await readXml(call.x);
  const status = text(doc?.VersioningConfiguration, 'Status');
  if (status !== 'Enabled' && status !== 'Suspended') throw s3.malformedXml();
  await call.ctx.engine.updateContainer(call.ref, { versioning: status === 'Enabled' ? 'enabled' : 'suspended' });
  sendEmpty(call.x, 200);
}

const MISSING: Record<string, [string, string]> = {
  cors: ['NoSuchCORSConfiguration', 'The CORS configuration does not exist'],
  lifecycle: ['NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist'],
  tagging: ['NoSuchTagSet', 'The TagSet does not exist'],
  website: ['NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration'],
  encryption: ['ServerSideEncryptionConfigurationNotFoundError', 'The server side encryption configuration was not found'],
  'object-lock': ['ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket'],
  publicAccessBlock: ['NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found'],
  ownershipControls: ['OwnershipControlsNotFoundError', 'The bucket ownership controls were not found'],
};

/** Sub-resources clients probe that this server does not configure (§20): "not configured", never a listing. */
export function notConfigured(call: BucketCall | S3Call): void {
  const { x } = call;
  // An object's tags (it has none): the object must exist, as AWS answers NoSuchKey otherwise.
  if (x.has('tagging') && call.address.key !== undefined && 'ref' in call) call.ctx.engine.headObject(call.ref, call.address.key, x.param('versionId'));
  if (x.method === 'DELETE') return sendEmpty(x, 204);
  if (x.has('logging')) return sendXml(x, 200, s3Root('BucketLoggingStatus', []));
  if (x.has('requestPayment')) return sendXml(x, 200, s3Root('RequestPaymentConfiguration', [el('Payer', 'BucketOwner')]));
  if (x.has('tagging') && call.address.key !== undefined) return sendXml(x, 200, s3Root('Tagging', [el('TagSet', [])]));
  const sub = Object.keys(MISSING).find((k) => x.has(k));
  if (!sub) throw s3.notImplemented();
  const [code, message] = MISSING[sub]!;
  throw new S3Error(404, code, message);
}
