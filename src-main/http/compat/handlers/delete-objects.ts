import { el, type XmlNode } from '../../common/xml.js';
import { S3_ERRORS, s3 } from '../errors.js';
import { s3Root, sendXml, type BucketCall } from '../respond.js';
import { readXml, text } from '../xml-input.js';

const MAX_KEYS = 1000;

/**
 * DeleteObjects (§22.5): up to 1000 keys; missing keys count as deleted; per-key errors do not
 * change the status. Content-MD5 / x-amz-checksum-* are optional (current SDKs send a CRC32).
 */
export async function deleteObjects(call: BucketCall): Promise<void> {
  const doc = await readXml(call.x);
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
      const r = await call.ctx.engine.deleteObject(call.ref, key, { versionId: versionId || undefined, missingOk: true });
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
      const code = (err as { code?: keyof typeof S3_ERRORS }).code;
      const info = code && S3_ERRORS[code] ? S3_ERRORS[code] : S3_ERRORS.InternalError;
      out.push(el('Error', [el('Key', key), el('VersionId', versionId ?? ''), el('Code', info.code), el('Message', info.message)]));
    }
  }
  sendXml(call.x, 200, s3Root('DeleteResult', out));
}
