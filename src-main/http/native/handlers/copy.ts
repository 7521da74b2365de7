import { rangeMeansWholeEmpty, segmentReader } from '../../../engine/index.js';
import { evaluateConditions } from '../../common/conditionals.js';
import { httpDate, xTimestamp } from '../../common/dates.js';
import { encodePath } from '../../common/url.js';
import { metaResponseHeaders } from '../metadata.js';
import { NativeError, plainError, statusPage } from '../errors.js';
import type { NativeOpOf } from '../operation.js';
import { reachContainer } from '../reach.js';
import { reply, type NativeCall } from '../respond.js';
import { objectHeaders, preconditionFailed, rangeNotSatisfiable, refOf } from './object.js';
import { followLinks } from './symlink.js';
import { isCofferError } from '../../../../src-shared/errors.js';
import { checkVersionId } from './versions.js';
import { textToHeader } from '../../common/header-text.js';

/**
 * Server-side copy (N7 COPY + Destination, N8 PUT + X-Copy-From). The source's metadata is kept
 * and extended by the request's, or dropped with X-Fresh-Metadata; copying an object onto itself
 * without metadata resets it (seed 4.1.3). Conditionals apply to the source, in both spellings.
 */
export async function copyObject(call: NativeCall<NativeOpOf<'CopyObject'>>): Promise<void> {
  const { x, ctx, op } = call;
  const engine = ctx.engine;
  const src = { account: op.from.account, container: op.from.container, name: op.from.object };
  const dst = { account: op.to.account, container: op.to.container, name: op.to.object };
  // Both ends are reached as the caller may reach them before either is looked into, so a
  // refusal never depends on whether a name exists.
  let srcContainer = reachContainer(call, src.account, src.container, 'read-object', src.name);
  const dstContainer = reachContainer(call, dst.account, dst.container, 'write-object');
  let sourceVersionId = checkVersionId(srcContainer, op.sourceVersionId);
  let source = engine.headObject(refOf(srcContainer), src.name, sourceVersionId, segmentReader(call.who, call.ctx.engine.accountAcl));
  // A symlink copies what it points at (Swift's copy reads the source through the symlink middleware), unless `?symlink=get`.
  // X-Copied-From still names the object asked for, as Swift's copy does.
  const named = { ...src };
  if (source.link && !op.symlinkGet) {
    const end = followLinks(call, src.account, source.link);
    Object.assign(src, { account: end.account, container: end.container.name, name: end.object });
    srcContainer = end.container;
    source = end.info;
    sourceVersionId = undefined;
  }
  if (evaluateConditions(op.conditions, { etag: source.etag, lastModified: source.lastModified }, false) !== 'ok') throw preconditionFailed(objectHeaders(source));
  const fields = op.fields;
  if (fields instanceof NativeError) throw fields;
  // A version copied onto its own name is a restore, not a reset: it keeps that version's metadata.
  const sameObject = srcContainer.owner === dstContainer.owner && src.container === dst.container && src.name === dst.name && sourceVersionId === undefined;
  const fresh = op.fresh || (sameObject && Object.keys(fields.meta).length === 0);
  // A copy overwrites its destination: under a legacy archive, its current version is kept first.
  if (dstContainer.archive) await engine.archiveCurrent(refOf(dstContainer), dst.name);
  const copying = engine.copyObject(
    { ref: refOf(srcContainer), name: src.name },
    { ref: refOf(dstContainer), name: dst.name },
    {
      metadata: fresh ? 'replace' : 'copy',
      meta: fields.meta,
      ...(Object.keys(fields.headers).length ? { headers: fields.headers } : {}),
      contentType: fields.contentType ?? (fresh ? source.contentType : undefined),
      ...(fields.deleteAt !== undefined ? { deleteAt: fields.deleteAt } : {}),
      sourceEtag: source.etag,
      ...(sourceVersionId !== undefined ? { sourceVersionId } : {}),
      canRead: segmentReader(call.who, call.ctx.engine.accountAcl),
      quotaBytes: 'exact',
      // A suffix range of an empty source copies it whole, as Swift's copy reads it (a 200 GET).
      ...(op.range && !rangeMeansWholeEmpty(op.range, source.size) ? { range: op.range } : {}),
      ...(op.manifest ? { manifest: true } : {}),
    },
  );
  // Swift's copy reads the source with the Range: an unsatisfiable one is the source GET's 416.
  const { object } = await copying.catch((err: unknown) => {
    // Swift's copy hands the source's 416 page on typed text/plain.
    if (!isCofferError(err, 'InvalidRange')) throw err;
    throw plainError(416, statusPage(416), rangeNotSatisfiable(objectHeaders(source), source.size).headers);
  });
  // The object's download headers of seed 2.6 ("on download and copy"), then 4.1.3's copy headers.
  reply(x, 201, {
    Etag: object.etag,
    'Last-Modified': httpDate(object.lastModified),
    'X-Timestamp': xTimestamp(object.mtimeMicros),
    'Accept-Ranges': 'bytes',
    'Content-Type': object.contentType === undefined ? undefined : textToHeader(object.contentType),
    'X-Copied-From': `${encodePath(named.container)}/${encodePath(named.name, false)}`,
    'X-Copied-From-Account': `AUTH_${named.account}`,
    'X-Copied-From-Last-Modified': httpDate(source.lastModified),
    ...metaResponseHeaders('Object', object.meta),
  });
}
