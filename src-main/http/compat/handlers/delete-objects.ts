import { isCofferError } from '../../../../src-shared/errors.js';
import { el, type XmlNode } from '../../common/xml.js';
import type { OpOf } from '../operation.js';
import { S3_ERRORS, s3 } from '../errors.js';
import { s3Root, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';
import { mayBypass } from './object-lock.js';
import { requireBypassApplicable } from '../lock-input.js';

const MAX_KEYS = 1000;

/**
 * DeleteObjects (§22.5): up to 1000 keys; missing keys count as deleted; per-key errors do not
 * change the status. Content-MD5 / x-amz-checksum-* are optional (current SDKs send a CRC32).
 */
export async function deleteObjects(call: BucketCall<OpOf<'DeleteObjects'>>): Promise<void> {
  requireBypassApplicable(call.bucket, call.op.bypassGovernance);
  const doc = await readXml(call.x.req, call.op.document);
  const root = doc?.Delete as { Object?: unknown[]; Quiet?: string } | undefined;
  const objects = root?.Object;
  if (!root || !Array.isArray(objects) || objects.length === 0 || objects.length > MAX_KEYS) throw s3.malformedXml();
  const quiet = text(root, 'Quiet')?.toLowerCase() === 'true';
  const out: XmlNode[] = [];
  for (const o of objects) {
    const key = text(o, 'Key', true);
    if (key === undefined) throw s3.malformedXml();
    const versionId = text(o, 'VersionId');
    try {
      const bypassGovernance = mayBypass(call, call.op.bypassGovernance, key);
      const r = await call.ctx.engine.deleteObject(call.ref, key, { versionId: versionId || undefined, missingOk: true, bypassGovernance });
      if (quiet) continue;
      if (r.missing) {
        out.push(el('Deleted', [el('Key', key), ...(versionId ? [el('VersionId', versionId)] : [])]));
        continue;
      }
      const deleted = [el('Key', key)];
      if (versionId) deleted.push(el('VersionId', versionId));
      if (r.deleteMarker) deleted.push(el('DeleteMarker', 'true'));
      if (r.deleteMarker && !versionId) deleted.push(el('DeleteMarkerVersionId', r.versionId ?? 'null'));
      out.push(el('Deleted', deleted));
    } catch (err) {
      const info = isCofferError(err) ? S3_ERRORS[err.code] : S3_ERRORS.InternalError;
      // Object lock's refusal says why, as AWS's entry does.
      const message = isCofferError(err) && err.details.objectLock ? err.message : info.message;
      out.push(el('Error', [el('Key', key), el('VersionId', versionId ?? ''), el('Code', info.code), el('Message', message)]));
    }
  }
  sendXml(call.x, 200, s3Root('DeleteResult', out));
}
