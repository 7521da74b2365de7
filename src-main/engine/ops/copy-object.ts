import { CofferError } from '../../../src-shared/errors.js';
import { grantsPublicRead, withPublicRead } from '../acl.js';
import type { EngineContext } from '../context.js';
import { objectKey } from '../index/keys.js';
import { CHECKSUM_ALGORITHMS, type ContainerRef, type DloTarget, type ObjectInfo, type ObjectRecord } from '../types.js';
import { checkConditions, commitVersion, payloadOf, type WriteConditions } from './commit.js';
import { requireContainer } from './containers.js';
import type { SegmentReadCheck } from './large-object-read.js';
import { findVersion, getObject, infoOf, toInfo, type RangeRequest } from './read-object.js';
import { discardReceived, receiveBody } from './receive-body.js';
import { checkDeleteAt, requireValidName, versionFields, type ObjectFields } from './put-object.js';
import { setExpiry } from './versioning.js';

export interface CopyOptions extends ObjectFields {
  /** 'copy': keep the source's metadata, extended by `meta`; 'replace': only what is given here. */
  metadata: 'copy' | 'replace';
  /** Version of the source to copy (default: current). */
  sourceVersionId?: string | null;
  /** The source ETag the caller's conditions were checked against (412 if it changed since). */
  sourceEtag?: string;
  signal?: AbortSignal;
  /** Whether the caller may read segment containers of a large source (see ReadOptions). */
  canRead?: SegmentReadCheck;
  /** S3's tagging directive: 'copy' (the default) keeps the source's tags, 'replace' takes `tags`. */
  tagging?: 'copy' | 'replace';
  /** Conditions on the destination's current version (S3's conditional copy: If-Match, If-None-Match: *). */
  destination?: WriteConditions;
  /** How a byte quota counts the copy (WriteConditions). */
  quotaBytes?: WriteConditions['quotaBytes'];
  /** Copy only these bytes of the source (Swift's copy middleware reads the source with the request's Range). */
  range?: RangeRequest;
  /**
   * A large object's manifest itself rather than its assembled bytes (Swift's
   * `?multipart-manifest=get` on a copy): the copy is the same SLO or DLO.
   */
  manifest?: boolean;
}

export interface CopyResult {
  source: ObjectInfo;
  object: ObjectInfo;
}

type SourceFields = Pick<ObjectRecord, 'contentType' | 'headers' | 'meta' | 'deleteAt' | 'publicRead' | 'grants' | 'tags' | 'link'>;

/** The tags of the copy: the source's unless the directive says to replace them (the metadata directive does not decide). */
function copiedTags(src: SourceFields, o: CopyOptions): ObjectFields['tags'] {
  return o.tagging === 'replace' ? o.tags : src.tags;
}

/** A symlink copied as itself stays a symlink (Swift copies its system metadata, fresh or not). */
function copiedFields(src: SourceFields, o: CopyOptions): ObjectFields {
  if (o.metadata === 'replace') return { ...o, contentType: o.contentType || undefined, tags: copiedTags(src, o), link: src.link };
  return {
    link: src.link,
    tags: copiedTags(src, o),
    contentType: o.contentType || src.contentType,
    headers: { ...src.headers, ...o.headers },
    meta: { ...src.meta, ...Object.fromEntries(Object.entries(o.meta ?? {}).map(([k, v]) => [k.toLowerCase(), v])) },
    deleteAt: o.deleteAt ?? src.deleteAt,
    publicRead: o.publicRead ?? src.publicRead,
    // An S3 copy always names the destination's ACL (the source's is not copied); others keep it.
    grants: o.grants ?? src.grants,
    // The source's lock is not copied (AWS): the copy has the request's, or its container's default.
    ...(o.lock ? { lock: o.lock } : {}),
  };
}

/**
 * Server-side copy. Onto the current version of the same object (outside an enabled-versioning
 * container) only the record changes; otherwise the bytes stream through the same two-phase
 * write as an upload, into a new version of the destination.
 */
export async function copyObject(
  ctx: EngineContext,
  src: { ref: ContainerRef; name: string },
  dst: { ref: ContainerRef; name: string },
  opts: CopyOptions,
): Promise<CopyResult> {
  requireValidName(dst.name);
  const found = findVersion(ctx, src.ref, src.name, opts.sourceVersionId);
  // Compared with the ETag HEAD showed the caller (a DLO's is that of its segments now).
  if (opts.sourceEtag !== undefined && opts.sourceEtag !== infoOf(ctx, found, src.name).etag) {
    throw new CofferError('PreconditionFailed', 'The source object changed');
  }
  const dstContainer = requireContainer(ctx, dst.ref);
  // Checked before any byte is read; the commit checks again (an in-place rewrite by its record's seq).
  const cond = opts.destination ?? {};
  if (cond.ifMatch !== undefined || cond.ifNoneMatch !== undefined) checkConditions(ctx.store.objects.get(objectKey(dstContainer.cid, dst.name)), cond, Date.now());
  const sameObject = dstContainer.cid === found.container.cid && dst.name === src.name && found.isLatest;
  const asManifest = opts.manifest === true && found.record.manifest !== undefined;
  if (sameObject && dstContainer.versioning !== 'enabled' && !opts.range) {
    const fields = copiedFields(found.record, opts);
    if (fields.deleteAt !== found.record.deleteAt) checkDeleteAt(fields.deleteAt);
    const source = toInfo(found.container, src.name, found.record, found.isLatest);
    return { source, object: await rewriteInPlace(ctx, dst.ref, dst.name, found.record, fields) };
  }
  // Read from one consistent snapshot: the version found above may be replaced meanwhile.
  const read = await getObject(ctx, src.ref, src.name, {
    versionId: found.record.versionId ?? 'null',
    ...(opts.canRead ? { canRead: opts.canRead } : {}),
    ...(opts.range && !asManifest ? { range: opts.range } : {}),
    ...(asManifest ? { raw: true } : {}),
  });
  const source = read.info;
  const fields = copiedFields(source, opts);
  if (fields.deleteAt !== source.deleteAt) checkDeleteAt(fields.deleteAt);
  // A part of the source has none of its checksums.
  const algorithms = read.range ? [] : CHECKSUM_ALGORITHMS.filter((a) => source.checksums[a]);
  const size = read.range ? read.range.end - read.range.start + 1 : source.size;
  const received = await receiveBody(ctx, read.body, { size, checksumAlgorithms: algorithms, signal: opts.signal }).finally(
    () => read.body.destroy(),
  );
  try {
    const version = versionFields(dst.name, fields, received.md5);
    if (algorithms.length > 0) version.checksums = received.checksums;
    // The manifest's own bytes were copied (none for an SLO): the copy is the same large object.
    if (asManifest) Object.assign(version, { etag: found.record.etag, manifest: found.record.manifest });
    const { container, record } = await commitVersion(ctx, dst.ref, dst.name, payloadOf(received), version, { ...cond, ...(opts.quotaBytes ? { quotaBytes: opts.quotaBytes } : {}) });
    return { source, object: toInfo(container, dst.name, record, true) };
  } catch (err) {
    await discardReceived(ctx, received);
    throw err;
  }
}

/** Replaces the fields of the current version, keeping its bytes (copy onto itself, metadata POST). */
export async function rewriteInPlace(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  expected: ObjectRecord,
  fields: ObjectFields,
  /** A new manifest for the version (set: a DLO's target; undefined: none), when it changes. */
  manifest?: { set: ObjectRecord['manifest'] },
): Promise<ObjectInfo> {
  const { container, record } = await ctx.store.write(() => {
    const c = requireContainer(ctx, ref);
    const key = objectKey(c.cid, name);
    const current = ctx.store.objects.get(key);
    if (!current || current.seq !== expected.seq) throw new CofferError('PreconditionFailed', 'The object changed during the update');
    const next: ObjectRecord = {
      ...current,
      ...versionFields(name, fields, current.etag),
      ...(current.checksums ? { checksums: current.checksums } : {}),
      mtime: ctx.nowMicros(),
    };
    if (fields.deleteAt === undefined) delete next.deleteAt;
    if (!(fields.grants ? grantsPublicRead(fields.grants) : fields.publicRead)) delete next.publicRead;
    if (!fields.grants) delete next.grants;
    if (!fields.tags?.length) delete next.tags;
    if (manifest) {
      if (manifest.set) next.manifest = manifest.set;
      else delete next.manifest;
    }
    ctx.store.objects.putSync(key, next);
    setExpiry(ctx, key, current, next);
    return { container: c, record: next };
  });
  ctx.changed(container.tenant, container.name, [name]);
  return toInfo(container, name, record, true);
}

/**
 * Replaces an object's metadata set (the native POST semantics): user metadata, and the content
 * type, standard headers and expiry when given. The bytes and ETag stay.
 */
export async function updateObjectMeta(
  ctx: EngineContext,
  ref: ContainerRef,
  name: string,
  /**
   * `dlo` (the native API's POST): the DLO target the object has from now on, null for none. Swift
   * stores X-Object-Manifest with the other metadata a POST replaces, so a POST without it turns
   * a DLO back into a plain object; an SLO stays one (its manifest is not metadata).
   */
  fields: ObjectFields & { keepExpiry?: boolean; dlo?: Omit<DloTarget, 'kind'> | null },
): Promise<ObjectInfo> {
  const found = findVersion(ctx, ref, name);
  const rec = found.record;
  checkDeleteAt(fields.deleteAt);
  const manifest = fields.dlo === undefined || rec.manifest?.kind === 'slo' ? undefined : { set: fields.dlo ? { kind: 'dlo' as const, ...fields.dlo } : undefined };
  return rewriteInPlace(ctx, ref, name, rec, {
    contentType: fields.contentType || rec.contentType,
    headers: fields.headers ?? rec.headers,
    meta: fields.meta ?? {},
    deleteAt: fields.deleteAt ?? (fields.keepExpiry ? rec.deleteAt : undefined),
    publicRead: fields.publicRead ?? rec.publicRead,
    // Native metadata updates leave S3 tags alone.
    tags: rec.tags,
    grants: fields.grants ?? (fields.publicRead === undefined || !rec.grants ? rec.grants : withPublicRead(rec.grants, fields.publicRead)),
  }, manifest);
}
