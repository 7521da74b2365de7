import { CofferError } from '../../../src-shared/errors.js';
import { MAX_OBJECT_NAME_BYTES, objectNameProblem } from '../../../src-shared/names.js';
import { pickStandardHeaders } from '../../../src-shared/standard-headers.js';
import { typeFromName } from '../content-type.js';
import { grantsPublicRead, type Grant } from '../acl.js';
import type { LockSettings } from '../object-lock.js';
import type { EngineContext } from '../context.js';
import { objectKey } from '../index/keys.js';
import type { ContainerRecord, ContainerRef, ObjectInfo, StandardHeaders, SymlinkTarget, Tag } from '../types.js';
import { checkTags } from './tagging.js';
import { checkConditions, commitVersion, payloadOf, type NewVersion, type WriteConditions } from './commit.js';
import { findContainer } from './containers.js';
import { bytesOver, tooLongDetails } from './name-limits.js';
import { discardReceived, receiveBody, type Body, type ReceiveOptions } from './receive-body.js';
import { toInfo } from './read-object.js';
import { checkQuota, countedSize, deltaOf } from './usage.js';

export interface ObjectFields {
  contentType?: string;
  headers?: StandardHeaders;
  meta?: Record<string, string>;
  /** Epoch seconds after which the object behaves as deleted. */
  deleteAt?: number;
  publicRead?: boolean;
  /** S3 tags of the new version (checked against AWS's limits). */
  tags?: Tag[];
  /** An S3 ACL for the new version; sets `publicRead` from its grants. */
  grants?: Grant[];
  /** S3 Object Lock of the new version (only in a container with object lock). */
  lock?: LockSettings;
  /** Makes the new version a symlink (zero bytes) to this target. */
  link?: SymlinkTarget;
}

/** Object fields as a front end reads them from a request: metadata and standard headers always there. */
export type RequestFields = ObjectFields & Required<Pick<ObjectFields, 'meta' | 'headers'>>;

export interface PutOptions extends ObjectFields, ReceiveOptions, WriteConditions {}

export function requireValidName(name: string): void {
  const problem = objectNameProblem(name);
  if (!problem) return;
  const size = bytesOver(name, MAX_OBJECT_NAME_BYTES);
  throw new CofferError('InvalidObjectName', problem, size === undefined ? {} : tooLongDetails(size));
}

/** The type a name's extension says, else application/octet-stream. */
export function guessContentType(name: string): string {
  return typeFromName(name) ?? 'application/octet-stream';
}

export function lowerKeys(meta: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta ?? {})) out[k.toLowerCase()] = v;
  return out;
}

/**
 * The latest expiry: Swift caps X-Delete-At at 9999999999 (November 2286), so its expirer's
 * queue names keep ten digits; the expiry queue here holds it as a 64-bit number of seconds.
 */
export const MAX_DELETE_AT = 9_999_999_999;

export function checkDeleteAt(deleteAt: number | undefined): void {
  if (deleteAt === undefined) return;
  if (!Number.isSafeInteger(deleteAt)) throw new CofferError('InvalidArgument', 'Non-integer X-Delete-At');
  if (deleteAt > MAX_DELETE_AT) throw new CofferError('InvalidArgument', `X-Delete-At later than ${MAX_DELETE_AT}`);
  if (deleteAt * 1000 <= Date.now()) throw new CofferError('InvalidArgument', 'X-Delete-At in past');
}

/** Control characters (tab aside) cannot go out in a response header, so they never get stored. */
const HEADER_UNSAFE = /[\x00-\x08\x0a-\x1f\x7f]/;
const HEADER_UNSAFE_MESSAGE = 'Metadata and header values cannot contain control characters such as CR or LF';

/** For metadata that reaches the engine other than through an HTTP header (the app, the CLI). */
export function requireHeaderSafeMeta(meta: Record<string, string>): void {
  for (const k in meta) if (HEADER_UNSAFE.test(k) || HEADER_UNSAFE.test(meta[k]!)) throw new CofferError('InvalidArgument', HEADER_UNSAFE_MESSAGE);
}

function checkHeaderSafe(f: ObjectFields): void {
  const unsafe = (t: unknown) => typeof t === 'string' && HEADER_UNSAFE.test(t);
  let bad = unsafe(f.contentType);
  for (const k in f.headers) bad ||= unsafe(f.headers[k as keyof StandardHeaders]);
  if (bad) throw new CofferError('InvalidArgument', HEADER_UNSAFE_MESSAGE);
  if (f.meta) requireHeaderSafeMeta(f.meta);
}

export function versionFields(name: string, f: ObjectFields, etag: string): NewVersion {
  checkHeaderSafe(f);
  const v: NewVersion = { etag, contentType: f.contentType || guessContentType(name), headers: pickStandardHeaders(f.headers), meta: lowerKeys(f.meta) };
  if (f.deleteAt !== undefined) v.deleteAt = f.deleteAt;
  if (f.grants) {
    v.grants = f.grants;
    if (grantsPublicRead(f.grants)) v.publicRead = true;
  } else if (f.publicRead) v.publicRead = true;
  if (f.tags?.length) {
    checkTags(f.tags, 'object');
    v.tags = f.tags;
  }
  if (f.lock?.retention) v.retention = { mode: f.lock.retention.mode, until: f.lock.retention.until };
  if (f.lock?.legalHold !== undefined) v.legalHold = f.lock.legalHold;
  if (f.link) v.link = f.link;
  return v;
}

/**
 * A declared size that a quota cannot take even if the write replaced the current object is
 * refused before the body is read (Swift's quota middleware does the same with Content-Length),
 * so the client is told before it sends the bytes (no 100 Continue). The commit checks again.
 */
function refuseIfOverQuota(ctx: EngineContext, c: ContainerRecord, name: string, size: number, quotaBytes: WriteConditions['quotaBytes']): void {
  const current = ctx.store.objects.get(objectKey(c.cid, name));
  checkQuota(ctx.store, c, deltaOf([size], current ? [countedSize(current)] : []), quotaBytes);
}

/** Stores an object from a stream: receive and verify the bytes, then commit them in one transaction. */
export async function putObject(ctx: EngineContext, ref: ContainerRef, name: string, body: Body, opts: PutOptions = {}): Promise<ObjectInfo> {
  requireValidName(name);
  checkDeleteAt(opts.deleteAt);
  const container = findContainer(ctx, ref);
  if (!container) throw new CofferError('NoSuchContainer', `Container ${ref.container} does not exist`);
  if (opts.size !== undefined) refuseIfOverQuota(ctx, container, name, opts.size, opts.quotaBytes);
  // A write whose condition already fails is refused before its body is read (the commit checks again).
  if (opts.ifMatch !== undefined || opts.ifNoneMatch !== undefined) checkConditions(ctx.store.objects.get(objectKey(container.cid, name)), opts, Date.now());
  const received = await receiveBody(ctx, body, opts);
  try {
    const fields = versionFields(name, opts, received.md5);
    if (Object.keys(received.checksums).length > 0) fields.checksums = received.checksums;
    const { container, record } = await commitVersion(ctx, ref, name, payloadOf(received), fields, opts);
    return toInfo(container, name, record, true);
  } catch (err) {
    await discardReceived(ctx, received);
    throw err;
  }
}
