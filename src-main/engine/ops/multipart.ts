import { randomBytes } from 'node:crypto';
import { CofferError, isCofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { cidBytes, nameOf, objectKey, partKey, partsOfUpload, uploadIdOf, uploadKey } from '../index/keys.js';
import type { PartRecord, UploadRecord } from '../index/store.js';
import { multipartEtag } from '../blobs/hashing.js';
import { roundUp4k, type ContainerRecord, type ContainerRef, type ObjectInfo } from '../types.js';
import { commitVersion, type WriteConditions } from './commit.js';
import { requireContainer } from './containers.js';
import { checkDeleteAt, requireValidName, versionFields, type ObjectFields } from './put-object.js';
import { toInfo } from './read-object.js';
import { discardReceived, receiveBody, type Body, type ReceiveOptions } from './receive-body.js';
import { releaseBlobs } from './release.js';
import { requireFindableName } from './name-limits.js';
import { checkQuota } from './usage.js';
import type { Removals } from './versioning.js';
import { checkCompletionChecksum, checkListedPartChecksums, objectChecksum, type UploadChecksum } from './multipart-checksums.js';
import type { ChecksumAlgorithm, Checksums } from '../types.js';

export interface UploadInfo {
  uploadId: string;
  name: string;
  initiated: number;
  checksum?: UploadChecksum;
}

export interface PartInfo {
  partNumber: number;
  size: number;
  etag: string;
  lastModified: number;
  checksums: PartRecord['checksums'];
}

function newUploadId(ctx: EngineContext): string {
  // Time-ordered, so uploads of one name list in the order they were started.
  return ctx.nowMicros().toString(16).padStart(14, '0') + randomBytes(9).toString('hex');
}

function requireUpload(ctx: EngineContext, c: ContainerRecord, name: string, uploadId: string): UploadRecord {
  requireFindableName(name, 'NoSuchUpload');
  const rec = /^[0-9a-f]{32}$/.test(uploadId) ? ctx.store.uploads.get(uploadKey(c.cid, name, uploadId)) : undefined;
  if (!rec) throw new CofferError('NoSuchUpload', 'The specified multipart upload does not exist.');
  return rec;
}

export async function createUpload(ctx: EngineContext, ref: ContainerRef, name: string, fields: ObjectFields = {}, checksum?: UploadChecksum): Promise<UploadInfo> {
  requireValidName(name);
  checkDeleteAt(fields.deleteAt);
  const uploadId = newUploadId(ctx);
  const v = versionFields(name, fields, '');
  const rec: UploadRecord = {
    uploadId,
    initiated: Date.now(),
    contentType: v.contentType,
    headers: v.headers,
    meta: v.meta,
    ...(v.publicRead ? { publicRead: true } : {}),
    ...(v.tags ? { tags: v.tags } : {}),
    ...(checksum ? { checksumAlgorithm: checksum.algorithm, checksumType: checksum.type } : {}),
    ...(v.grants ? { grants: v.grants } : {}),
    ...(v.retention ? { retention: v.retention } : {}),
    ...(v.legalHold !== undefined ? { legalHold: v.legalHold } : {}),
  };
  await ctx.store.write(() => {
    const c = requireContainer(ctx, ref);
    ctx.store.uploads.putSync(uploadKey(c.cid, name, uploadId), rec);
  });
  return { uploadId, name, initiated: rec.initiated, ...(checksum ? { checksum } : {}) };
}

/** The Object Lock an upload asked for when it was made (what its completed object gets, besides its container's default). */
export function uploadLock(ctx: EngineContext, ref: ContainerRef, name: string, uploadId: string): Pick<UploadRecord, 'retention' | 'legalHold'> {
  const upload = requireUpload(ctx, requireContainer(ctx, ref), name, uploadId);
  return { ...(upload.retention ? { retention: upload.retention } : {}), ...(upload.legalHold !== undefined ? { legalHold: upload.legalHold } : {}) };
}

export async function uploadPart(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  uploadId: string,
  partNumber: number,
  body: Body,
  opts: ReceiveOptions = {},
): Promise<PartInfo> {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > ctx.options.maxPartNumber) {
    throw new CofferError('InvalidArgument', `Part number must be an integer between 1 and ${ctx.options.maxPartNumber}`);
  }
  const upload = requireUpload(ctx, requireContainer(ctx, ref), name, uploadId);
  // A part checksum of another algorithm than the upload's is refused, as AWS does: the object's
  // checksum is built from the parts' checksums of the upload's algorithm.
  const sent = [...(Object.keys(opts.expectedChecksums ?? {}) as ChecksumAlgorithm[]), ...(opts.checksumAlgorithms ?? [])];
  const other = upload.checksumAlgorithm && sent.find((a) => a !== upload.checksumAlgorithm);
  if (other) {
    throw new CofferError('ChecksumTypeMismatch', `Checksum Type mismatch occurred, expected checksum Type: ${upload.checksumAlgorithm}, actual checksum Type: ${other}`);
  }
  // The upload's checksum is kept for every part, sent or not: completion builds the object's from them.
  const algorithms = upload.checksumAlgorithm ? [...(opts.checksumAlgorithms ?? []), upload.checksumAlgorithm] : opts.checksumAlgorithms;
  const received = await receiveBody(ctx, body, { ...opts, ...(algorithms ? { checksumAlgorithms: algorithms } : {}), allowInline: false });
  const part: PartRecord = {
    partNumber,
    size: received.size,
    etag: received.md5,
    mtime: Date.now(),
    blob: received.blob!,
    ...(Object.keys(received.checksums).length ? { checksums: received.checksums } : {}),
  };
  try {
    const replaced = await ctx.store.write(() => {
      const container = requireContainer(ctx, ref);
      requireUpload(ctx, container, name, uploadId);
      // A part that could never fit is refused now, as RGW does, not after it filled the disk (§29.2).
      checkQuota(ctx.store, container, { objects: 0, bytes: part.size, bytesActual: roundUp4k(part.size) });
      const key = partKey(uploadId, partNumber);
      const old = ctx.store.parts.get(key);
      if (old) ctx.store.intents.putSync(old.blob, { kind: 'gc', created: Date.now() });
      ctx.store.parts.putSync(key, part);
      ctx.store.intents.removeSync(part.blob);
      return old ? [old.blob] : [];
    });
    await releaseBlobs(ctx, replaced);
  } catch (err) {
    await discardReceived(ctx, received);
    throw err;
  }
  return { partNumber, size: part.size, etag: part.etag, lastModified: part.mtime, checksums: part.checksums };
}

function partsOf(ctx: EngineContext, uploadId: string): PartRecord[] {
  return [...ctx.store.parts.getRange(partsOfUpload(uploadId))].map((e) => e.value);
}

export function listParts(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  uploadId: string,
  p: { partNumberMarker?: number; maxParts?: number } = {},
): { upload: UploadRecord; parts: PartInfo[]; truncated: boolean } {
  const upload = requireUpload(ctx, requireContainer(ctx, ref), name, uploadId);
  const all = partsOf(ctx, uploadId).filter((x) => x.partNumber > (p.partNumberMarker ?? 0));
  const max = Math.min(p.maxParts ?? 1000, 1000);
  const parts = all.slice(0, max).map((x) => ({
    partNumber: x.partNumber,
    size: x.size,
    etag: x.etag,
    lastModified: x.mtime,
    checksums: x.checksums,
  }));
  return { upload, parts, truncated: all.length > max };
}

/** Deletes the upload's records and returns its part blobs (inside a write transaction). */
function dropUpload(ctx: EngineContext, c: ContainerRecord, name: string, uploadId: string, keep: Set<string> = new Set()): string[] {
  const blobs: string[] = [];
  const now = Date.now();
  for (const { key, value } of ctx.store.parts.getRange(partsOfUpload(uploadId))) {
    ctx.store.parts.removeSync(key);
    if (keep.has(value.blob)) continue;
    ctx.store.intents.putSync(value.blob, { kind: 'gc', created: now });
    blobs.push(value.blob);
  }
  ctx.store.uploads.removeSync(uploadKey(c.cid, name, uploadId));
  return blobs;
}

/**
 * Aborts an upload. One already completed, whose object is still the current version of the
 * name, is aborted already: nothing to do (AWS answers 204, as Swift's s3api, written against it,
 * does while the object made by the upload is there); once that version is replaced or deleted
 * the upload is simply unknown (NoSuchUpload).
 */
export async function abortUpload(ctx: EngineContext, ref: ContainerRef, name: string, uploadId: string): Promise<void> {
  const blobs = await ctx.store.write(() => {
    const c = requireContainer(ctx, ref);
    try {
      requireUpload(ctx, c, name, uploadId);
    } catch (err) {
      // A name past the limits (requireUpload's NoSuchUpload says so) has no object to look up.
      const current = isCofferError(err) && err.details.nameBytes === undefined ? ctx.store.objects.get(objectKey(c.cid, name)) : undefined;
      if (current && !current.deleteMarker && current.uploadId === uploadId) return [];
      throw err;
    }
    return dropUpload(ctx, c, name, uploadId);
  });
  await releaseBlobs(ctx, blobs);
}

/** Inside a write transaction: aborts every unfinished upload of a container being deleted. */
export function abortAllUploads(ctx: EngineContext, c: ContainerRecord): string[] {
  const blobs: string[] = [];
  for (const key of ctx.store.uploads.getKeys({ start: cidBytes(c.cid), end: cidBytes(c.cid + 1) })) {
    blobs.push(...dropUpload(ctx, c, nameOf(key), uploadIdOf(key)));
  }
  return blobs;
}

export interface CompletedPart {
  partNumber: number;
  /** The part's ETag as returned by uploadPart (quotes allowed). */
  etag: string;
  /** Checksums the completion lists for the part (checked against the part's). */
  checksums?: Checksums;
}

/**
 * The parts a completion names, in order: part numbers must not go down (InvalidPartOrder), and a
 * number listed more than once (a part resent, listed again) counts once, with its last ETag,
 * as RGW does (it keeps the list in a map by part number).
 */
function partList(listed: CompletedPart[]): CompletedPart[] {
  if (listed.length === 0) throw new CofferError('InvalidPart', 'You must specify at least one part');
  const out: CompletedPart[] = [];
  for (const p of listed) {
    const last = out.at(-1);
    if (last && p.partNumber < last.partNumber) throw new CofferError('InvalidPartOrder', 'The list of parts was not in ascending order.');
    if (last && p.partNumber === last.partNumber) out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

const bareEtag = (etag: string) => etag.replace(/"/g, '').toLowerCase();

/**
 * A completion retried after it succeeded (its answer lost on the way) gets the same answer, as
 * AWS gives it: the upload is gone, but the current version of the name was made by it from the
 * same parts. Once that version is replaced or deleted, the upload is simply not there (AWS: 404
 * NoSuchUpload after a delete). Conditions are not checked again: the first request passed them.
 */
function previousCompletion(ctx: EngineContext, c: ContainerRecord, name: string, uploadId: string, parts: CompletedPart[]): ObjectInfo {
  const current = ctx.store.objects.get(objectKey(c.cid, name));
  const same = current && !current.deleteMarker && current.uploadId === uploadId && current.etag === multipartEtag(parts.map((p) => bareEtag(p.etag)));
  if (!same) throw new CofferError('NoSuchUpload', 'The specified multipart upload does not exist.');
  return toInfo(c, name, current, true);
}

/**
 * Joins the listed parts into one object without copying bytes: the new version's data is the
 * parts' blobs in order. Parts not listed are discarded in the same transaction; the conditions
 * (If-Match / If-None-Match) are checked in it too.
 */
export async function completeUpload(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  uploadId: string,
  requested: CompletedPart[],
  /** A whole-object checksum sent with the completion. */
  expected?: Checksums,
  cond: WriteConditions = {},
): Promise<ObjectInfo> {
  const listed = partList(requested);
  const c0 = requireContainer(ctx, ref);
  requireFindableName(name, 'NoSuchUpload');
  const upload = /^[0-9a-f]{32}$/.test(uploadId) ? ctx.store.uploads.get(uploadKey(c0.cid, name, uploadId)) : undefined;
  if (!upload) return previousCompletion(ctx, c0, name, uploadId, listed);
  const stored = new Map(partsOf(ctx, uploadId).map((p) => [p.partNumber, p]));
  const parts = listed.map((l) => {
    const p = stored.get(l.partNumber);
    if (!p || p.etag !== bareEtag(l.etag)) {
      throw new CofferError('InvalidPart', 'One or more of the specified parts could not be found or the ETag did not match.');
    }
    return p;
  });
  parts.forEach((p, i) => {
    if (i < parts.length - 1 && p.size < ctx.options.minPartSize) {
      throw new CofferError('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', { partNumber: p.partNumber });
    }
  });
  checkListedPartChecksums(parts, listed.map((l) => l.checksums));
  const size = parts.reduce((n, p) => n + p.size, 0);
  const checksum = upload.checksumAlgorithm ? { algorithm: upload.checksumAlgorithm, type: upload.checksumType ?? 'COMPOSITE' } : undefined;
  const checksums = checksum ? objectChecksum(checksum, parts) : undefined;
  if (checksums) checkCompletionChecksum(checksums, expected);
  const fields = {
    etag: multipartEtag(parts.map((p) => p.etag)),
    contentType: upload.contentType,
    headers: upload.headers,
    meta: upload.meta,
    parts: parts.length,
    ...(checksums ? { checksums, checksumType: checksum!.type, partChecksums: parts.map((p) => ({ [checksum!.algorithm]: p.checksums![checksum!.algorithm]! })) } : {}),
    uploadId,
    ...(upload.publicRead ? { publicRead: true } : {}),
    ...(upload.tags ? { tags: upload.tags } : {}),
    ...(upload.grants ? { grants: upload.grants } : {}),
    ...(upload.retention ? { retention: upload.retention } : {}),
    ...(upload.legalHold !== undefined ? { legalHold: upload.legalHold } : {}),
  };
  const keep = new Set(parts.map((p) => p.blob));
  let unlisted: string[] = [];
  const dropParts = (c: ContainerRecord, _removals: Removals) => {
    const now = requireUpload(ctx, c, name, uploadId);
    if (now.uploadId !== uploadId) throw new CofferError('NoSuchUpload', 'The upload changed');
    for (const p of parts) {
      if (ctx.store.parts.get(partKey(uploadId, p.partNumber))?.blob !== p.blob) {
        throw new CofferError('InvalidPart', `Part ${p.partNumber} was replaced during completion`);
      }
    }
    unlisted = dropUpload(ctx, c, name, uploadId, keep);
  };
  const segments = parts.map((p) => ({ blob: p.blob, size: p.size }));
  const { container, record } = await commitVersion(ctx, ref, name, { size, segments }, fields, cond, dropParts);
  await releaseBlobs(ctx, unlisted);
  return toInfo(container, name, record, true);
}
