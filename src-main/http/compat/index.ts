import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import { mayLearnAbsence, objectGrantsOf, type ContainerInfo, type ContainerQuestion, type ContainerRef, type Identity } from '../../engine/index.js';
import type { Exchange } from '../common/exchange.js';
import { execute, type Protocol } from '../common/executor.js';
import { clientGone } from '../common/framing.js';
import { S3Error, s3 } from './errors.js';
import * as acl from './handlers/acl.js';
import { getObjectAttributes } from './handlers/attributes.js';
import * as bucket from './handlers/bucket.js';
import { copyObject, uploadPartCopy } from './handlers/copy.js';
import { deleteObjects } from './handlers/delete-objects.js';
import * as cors from './handlers/cors.js';
import * as lifecycle from './handlers/lifecycle.js';
import * as list from './handlers/list.js';
import * as mp from './handlers/multipart.js';
import * as object from './handlers/object.js';
import * as tagging from './handlers/tagging.js';
import * as objectLock from './handlers/object-lock.js';
import { postObject } from './handlers/post-object.js';
import { bucketRef } from './bucket-ref.js';
import { headService, listBuckets } from './handlers/service.js';
import { sendError, type BucketCall, type CompatContext, type S3Call } from './respond.js';
import { ACCESS, isServiceOp, type BucketOpName, type OpOf, type S3Operation, type ServiceOpName } from './operation.js';
import { parseS3 } from './parse.js';
import { policyFacts } from './policy-facts.js';
import { parseAddress, type S3Address } from './router.js';
import { verifySigV2 } from './sigv2.js';
import { verifyHeaderAuth, verifyPresigned, type SigV4Context } from './sigv4.js';

export type { CompatContext } from './respond.js';

/** Operations on the caller's account (or on no bucket yet): no container, no access question. */
const SERVICE: { [N in ServiceOpName]: (call: S3Call<OpOf<N>>) => unknown } = {
  ListBuckets: listBuckets,
  HeadService: headService,
  CreateBucket: bucket.createBucket,
  NotImplemented: () => {
    throw new CofferError('NotSupported');
  },
  MethodNotAllowed: () => {
    throw s3.methodNotAllowed();
  },
};

/** Every bucket and object operation and its handler; what each needs is `ACCESS`. Exhaustive by type. */
const HANDLERS: { [N in BucketOpName]: (call: BucketCall<OpOf<N>>) => unknown } = {
  DeleteBucket: bucket.deleteBucket,
  HeadBucket: bucket.headBucket,
  GetBucketLocation: bucket.getBucketLocation,
  GetBucketVersioning: bucket.getBucketVersioning,
  PutBucketVersioning: bucket.putBucketVersioning,
  GetBucketAcl: acl.getBucketAcl,
  PutBucketAcl: acl.putBucketAcl,
  GetBucketPolicy: acl.getBucketPolicy,
  PutBucketPolicy: acl.putBucketPolicy,
  DeleteBucketPolicy: acl.deleteBucketPolicy,
  GetBucketPolicyStatus: acl.getBucketPolicyStatus,
  GetBucketLifecycle: lifecycle.getBucketLifecycle,
  PutBucketLifecycle: lifecycle.putBucketLifecycle,
  DeleteBucketLifecycle: lifecycle.deleteBucketLifecycle,
  GetBucketCors: cors.getBucketCors,
  PutBucketCors: cors.putBucketCors,
  DeleteBucketCors: cors.deleteBucketCors,
  PreflightCors: cors.preflightCors,
  ListObjects: list.listObjectsV1,
  ListObjectsV2: list.listObjectsV2,
  ListObjectVersions: list.listObjectVersions,
  ListMultipartUploads: list.listMultipartUploads,
  DeleteObjects: deleteObjects,
  NotConfigured: bucket.notConfigured,
  PostObject: postObject,
  PutObject: object.putObject,
  CopyObject: copyObject,
  GetObject: object.getObject,
  HeadObject: object.getObject,
  DeleteObject: object.deleteObject,
  GetObjectAcl: acl.getObjectAcl,
  PutObjectAcl: acl.putObjectAcl,
  GetObjectTagging: tagging.getObjectTagging,
  GetObjectAttributes: getObjectAttributes,
  PutObjectTagging: tagging.putObjectTagging,
  DeleteObjectTagging: tagging.deleteObjectTagging,
  GetBucketTagging: tagging.getBucketTagging,
  PutBucketTagging: tagging.putBucketTagging,
  DeleteBucketTagging: tagging.deleteBucketTagging,
  CreateMultipartUpload: mp.createMultipartUpload,
  UploadPart: mp.uploadPart,
  UploadPartCopy: uploadPartCopy,
  CompleteMultipartUpload: mp.completeMultipartUpload,
  AbortMultipartUpload: mp.abortMultipartUpload,
  ListParts: mp.listParts,
  GetObjectLockConfiguration: objectLock.getObjectLockConfiguration,
  PutObjectLockConfiguration: objectLock.putObjectLockConfiguration,
  GetObjectRetention: objectLock.getObjectRetention,
  PutObjectRetention: objectLock.putObjectRetention,
  GetObjectLegalHold: objectLock.getObjectLegalHold,
  PutObjectLegalHold: objectLock.putObjectLegalHold,
};

interface Caller {
  who: Identity;
  signing: SigV4Context | undefined;
}

/** Who signed the request (§16.1): SigV4 header or query, SigV2 header or query, or nobody. */
function authenticate(x: Exchange, ctx: CompatContext, a: S3Address): Caller {
  const auth = x.header('authorization');
  if (auth?.startsWith('AWS4-HMAC-SHA256')) {
    const signing = verifyHeaderAuth(x, ctx.engine, auth);
    return { who: { account: signing.account }, signing };
  }
  if (auth?.startsWith('AWS ')) return { who: { account: verifySigV2(x, ctx.engine, a) }, signing: undefined };
  if (auth) throw new S3Error(400, 'InvalidArgument', 'Unsupported Authorization Type');
  if (x.has('X-Amz-Algorithm')) {
    const signing = verifyPresigned(x, ctx.engine);
    return { who: { account: signing.account }, signing };
  }
  if (x.has('AWSAccessKeyId')) return { who: { account: verifySigV2(x, ctx.engine, a) }, signing: undefined };
  return { who: {}, signing: undefined };
}

/**
 * A form upload's bucket before its form is read: unsigned as far as the executor knows, so a
 * name two tenants hold would be the empty tenant's and missing. It is then any holder's, for
 * the executor's CORS grant alone: the handler resolves the bucket again by the form's signer.
 */
function formBucketRef(ctx: CompatContext, a: S3Address): ContainerRef {
  const ref = bucketRef(ctx.engine, a, {});
  if (ref.tenant !== '' || a.tenant !== undefined || ctx.engine.tenantsWithContainer(a.bucket!).includes('')) return ref;
  const holders = ctx.engine.tenantsWithContainer(a.bucket!);
  return holders.length > 0 ? { tenant: holders[0]!, container: a.bucket! } : ref;
}

/** The version an object request is for, whose own ACL may grant it. */
function versionOf(op: S3Operation): string | undefined {
  return 'versionId' in op ? op.versionId : undefined;
}

type Target = { ref: ContainerRef; bucket: ContainerInfo; question?: ContainerQuestion } | undefined;

/** Operations whose object's own ACL may grant them. */
const OBJECT_ACL_ACTIONS = new Set(['read-object', 'read-object-acl', 'write-object-acl']);

const protocols = new WeakMap<CompatContext, Protocol<S3Operation, Caller, Target>>();

/** The compatible API's side of the shared executor, built once per context. */
function protocol(ctx: CompatContext): Protocol<S3Operation, Caller, Target> {
  let p = protocols.get(ctx);
  if (!p) protocols.set(ctx, (p = makeProtocol(ctx)));
  return p;
}

function makeProtocol(ctx: CompatContext): Protocol<S3Operation, Caller, Target> {
  return {
    parse: (x) => parseS3({ method: x.method, rawPath: x.rawPath, rawQuery: x.rawQuery, query: x.query, headers: x.req.headers, domain: ctx.domain }),
    authenticate: (x, op) => {
      // A preflight is a browser's question, never signed (not even on a presigned URL): nobody asks it.
      if (op.name === 'PreflightCors') return { who: {}, signing: undefined };
      // A form upload is signed in its form (its policy), read by its handler; virtual hosts allowed.
      if (op.name === 'PostObject') return { who: {}, signing: undefined };
      const caller = authenticate(x, ctx, op.address);
      if (!caller.who.account && op.address.style === 'virtual-host') throw s3.accessDenied('Anonymous requests must use path-style addressing');
      // After authentication (a forged request is still 403), before any handler stores a byte.
      if (op.encryption) throw op.encryption;
      return caller;
    },
    resolve: (op, { who }, x) => {
      if (isServiceOp(op.name)) return { target: undefined, question: undefined };
      const ref = op.name === 'PostObject' ? formBucketRef(ctx, op.address) : bucketRef(ctx.engine, op.address, who);
      const bucket = ctx.engine.getContainerForRequest(ref);
      const action = ACCESS[op.name as BucketOpName];
      if (action === 'none') return { target: { ref, bucket }, question: undefined };
      const objectGrants = OBJECT_ACL_ACTIONS.has(action) ? objectGrantsOf(ctx.engine, bucket, op.address.key!, versionOf(op)) : undefined;
      const question: ContainerQuestion = { who, container: bucket, action, facts: policyFacts(x, op, bucket), objectGrants };
      return { target: { ref, bucket, question }, question };
    },
    refusal: () => new CofferError('AccessDenied'),
    run: (x, op, { who, signing }, target) => {
      // Built whole, without spreads: V8 copies spread objects slowly, and this runs on every request.
      if (!target) return (SERVICE[op.name as ServiceOpName] as (call: S3Call) => unknown)({ x, ctx, who, signing, op }) as Promise<void>;
      const call: BucketCall = { x, ctx, who, signing, op, ref: target.ref, bucket: target.bucket };
      if (target.bucket.cors && op.corsOrigin) cors.addCorsGrant(x, target.bucket.cors, op.corsOrigin);
      const handler = HANDLERS[op.name as BucketOpName] as (call: BucketCall) => Promise<void> | void;
      const question = target.question;
      if (!question || !OBJECT_ACL_ACTIONS.has(question.action)) return handler(call);
      // A missing key is news only to those who may list the bucket; others are refused (AWS).
      const hide = (err: unknown): never => {
        if (isCofferError(err, 'NoSuchKey') && !mayLearnAbsence(question)) throw new CofferError('AccessDenied');
        throw err;
      };
      try {
        const ran = handler(call);
        return ran instanceof Promise ? ran.catch(hide) : ran;
      } catch (err) {
        return hide(err);
      }
    },
    renderError: (x, op, err) => {
      // Sent already, or the client went away mid-request (not our bug, and nobody to answer).
      if (x.res.headersSent || clientGone(x.req, x.res)) return void x.res.destroy();
      const parsed = op?.address ?? parseAddress(x.rawPath, x.header('host'), ctx.domain);
      const address: S3Address = 'invalid' in parsed ? { style: 'path' } : parsed;
      // A bug must still answer in S3's vocabulary: SDKs retry InternalError; a text/plain 500 confuses them.
      if (!(err instanceof S3Error) && !isCofferError(err)) {
        ctx.log?.(`${x.id} internal error: ${(err as Error)?.stack ?? String(err)}`);
        return sendError({ x, address }, new CofferError('InternalError'));
      }
      sendError({ x, address }, err);
    },
  };
}

/**
 * Whether a request is signed for S3 (§0.2): such requests belong to the compatible API even on
 * paths the native API owns (`PUT /swift` must answer InvalidBucketName, not a Swift 401).
 */
export function carriesS3Auth(x: Exchange): boolean {
  const auth = x.header('authorization') ?? '';
  return auth.startsWith('AWS4-HMAC-SHA256') || auth.startsWith('AWS ') || x.has('X-Amz-Credential') || x.has('AWSAccessKeyId');
}

/** Entry point of the compatible API: parse, authenticate, decide, run, render, through the shared executor. */
export async function handleCompat(x: Exchange, ctx: CompatContext): Promise<void> {
  await execute(x, protocol(ctx));
}
