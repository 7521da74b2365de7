import { isCofferError } from '../../../src-shared/errors.js';
import { type ContainerRef, Engine } from '../../engine/index.js';
import { allowed, type Action, type Identity } from '../common/access.js';
import type { Exchange } from '../common/exchange.js';
import { clientGone } from '../common/framing.js';
import { refuseEncryption } from './encryption.js';
import { S3Error, s3 } from './errors.js';
import * as acl from './handlers/acl.js';
import * as bucket from './handlers/bucket.js';
import { copyObject, uploadPartCopy } from './handlers/copy.js';
import { deleteObjects } from './handlers/delete-objects.js';
import * as list from './handlers/list.js';
import * as mp from './handlers/multipart.js';
import * as object from './handlers/object.js';
import { headService, listBuckets } from './handlers/service.js';
import { sendError, type BucketCall, type CompatContext, type S3Call } from './respond.js';
import { parseAddress, selectOperation, type S3Address, type S3Operation } from './router.js';
import { verifySigV2 } from './sigv2.js';
import { verifyHeaderAuth, verifyPresigned, type SigV4Context } from './sigv4.js';

export type { CompatContext } from './respond.js';

type Handler = { need?: Action; run: (call: BucketCall) => unknown } | { service: (call: S3Call) => unknown };

const own = (run: (call: BucketCall) => unknown): Handler => ({ need: 'admin', run });

/** Every operation, what it needs on the bucket, and who handles it. Exhaustive by type. */
const HANDLERS: Record<S3Operation, Handler> = {
  ListBuckets: { service: listBuckets },
  HeadService: { service: headService },
  CreateBucket: { service: bucket.createBucket },
  DeleteBucket: own(bucket.deleteBucket),
  HeadBucket: { need: 'list', run: bucket.headBucket },
  GetBucketLocation: own(bucket.getBucketLocation),
  GetBucketVersioning: own(bucket.getBucketVersioning),
  PutBucketVersioning: own(bucket.putBucketVersioning),
  GetBucketAcl: own(acl.getBucketAcl),
  PutBucketAcl: own(acl.putBucketAcl),
  GetBucketPolicy: own(acl.getBucketPolicy),
  PutBucketPolicy: own(acl.putBucketPolicy),
  DeleteBucketPolicy: own(acl.deleteBucketPolicy),
  GetBucketPolicyStatus: own(acl.getBucketPolicyStatus),
  ListObjects: { need: 'list', run: list.listObjectsV1 },
  ListObjectsV2: { need: 'list', run: list.listObjectsV2 },
  ListObjectVersions: own(list.listObjectVersions),
  ListMultipartUploads: own(list.listMultipartUploads),
  DeleteObjects: { need: 'write-object', run: deleteObjects },
  NotConfigured: own(bucket.notConfigured),
  PutObject: { need: 'write-object', run: object.putObject },
  CopyObject: { need: 'write-object', run: copyObject },
  GetObject: { need: 'read-object', run: object.getObject },
  HeadObject: { need: 'read-object', run: object.getObject },
  DeleteObject: { need: 'write-object', run: object.deleteObject },
  GetObjectAcl: own(acl.getObjectAcl),
  PutObjectAcl: own(acl.putObjectAcl),
  GetObjectTagging: { need: 'read-object', run: bucket.notConfigured },
  CreateMultipartUpload: { need: 'write-object', run: mp.createMultipartUpload },
  UploadPart: { need: 'write-object', run: mp.uploadPart },
  UploadPartCopy: { need: 'write-object', run: uploadPartCopy },
  CompleteMultipartUpload: { need: 'write-object', run: mp.completeMultipartUpload },
  AbortMultipartUpload: { need: 'write-object', run: mp.abortMultipartUpload },
  ListParts: { need: 'write-object', run: mp.listParts },
  NotImplemented: {
    service: () => {
      throw s3.notImplemented();
    },
  },
  MethodNotAllowed: {
    service: () => {
      throw s3.methodNotAllowed();
    },
  },
};

/** Who signed the request (§16.1): SigV4 header or query, SigV2 header or query, or nobody. */
function authenticate(x: Exchange, ctx: CompatContext, a: S3Address): { who: Identity; signing?: SigV4Context } {
  const auth = x.header('authorization');
  if (auth?.startsWith('AWS4-HMAC-SHA256')) {
    const signing = verifyHeaderAuth(x, ctx.engine, auth);
    return { who: { account: signing.account }, signing };
  }
  if (auth?.startsWith('AWS ')) return { who: { account: verifySigV2(x, ctx.engine, a) } };
  if (auth) throw new S3Error(400, 'InvalidArgument', 'Unsupported Authorization Type');
  if (x.has('X-Amz-Algorithm')) {
    const signing = verifyPresigned(x, ctx.engine);
    return { who: { account: signing.account }, signing };
  }
  if (x.has('AWSAccessKeyId')) return { who: { account: verifySigV2(x, ctx.engine, a) } };
  return { who: {} };
}

/** The bucket's namespace: `/tenant:bucket`, else the caller's tenant, else the one tenant holding that name. */
function bucketRef(call: S3Call): ContainerRef {
  const name = call.address.bucket!;
  if (call.address.tenant !== undefined) return { tenant: call.address.tenant, container: name };
  if (call.who.account) return Engine.ref(call.who.account, name);
  const owners = call.ctx.engine.tenantsWithContainer(name);
  return { tenant: owners.length === 1 ? owners[0]! : '', container: name };
}

function publicObject(call: BucketCall): boolean {
  try {
    return call.ctx.engine.headObject(call.ref, call.address.key!, call.x.param('versionId')).publicRead;
  } catch {
    return false;
  }
}

/**
 * Whether a request is signed for S3 (§0.2): such requests belong to the compatible API even on
 * paths the native API owns (`PUT /swift` must answer InvalidBucketName, not a Swift 401).
 */
export function carriesS3Auth(x: Exchange): boolean {
  const auth = x.header('authorization') ?? '';
  return auth.startsWith('AWS4-HMAC-SHA256') || auth.startsWith('AWS ') || x.has('X-Amz-Credential') || x.has('AWSAccessKeyId');
}

/** Entry point of the compatible API: address, authenticate, authorise, dispatch. */
export async function handleCompat(x: Exchange, ctx: CompatContext): Promise<void> {
  const parsed = parseAddress(x.rawPath, x.header('host'), ctx.domain);
  const address: S3Address = 'invalid' in parsed ? { style: 'path' } : parsed;
  try {
    if ('invalid' in parsed) throw new S3Error(400, parsed.invalid, parsed.invalid === 'InvalidURI' ? "Couldn't parse the specified URI." : 'The specified bucket is not valid.');
    if (!x.query) throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
    const op = selectOperation(x.method, address, x.query, (h) => x.header(h));
    const { who, signing } = authenticate(x, ctx, address);
    if (!who.account && address.style === 'virtual-host') throw s3.accessDenied('Anonymous requests must use path-style addressing');
    // After authentication (a forged request is still 403), before any handler stores a byte.
    refuseEncryption(x);
    // Built whole, without spreads: V8 copies spread objects slowly, and this runs on every request.
    const call: S3Call = { x, ctx, who, address, signing };
    const handler = HANDLERS[op];
    if ('service' in handler) return void (await handler.service(call));
    const ref = bucketRef(call);
    const info = ctx.engine.getContainerForRequest(ref);
    const bucketCall: BucketCall = { x, ctx, who, address, signing, ref, bucket: info };
    const permitted = allowed(info, who, handler.need ?? 'admin') || (handler.need === 'read-object' && publicObject(bucketCall));
    if (!permitted) throw s3.accessDenied();
    await handler.run(bucketCall);
  } catch (err) {
    // Sent already, or the client went away mid-request (not our bug, and nobody to answer).
    if (x.res.headersSent || clientGone(x.req, x.res)) {
      x.res.destroy();
      return;
    }
    // A bug must still answer in S3's vocabulary: SDKs retry InternalError; a text/plain 500 confuses them.
    if (!(err instanceof S3Error) && !isCofferError(err)) {
      ctx.log?.(`${x.id} internal error: ${(err as Error)?.stack ?? String(err)}`);
      return sendError({ x, address }, new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.'));
    }
    sendError({ x, address }, err);
  }
}
