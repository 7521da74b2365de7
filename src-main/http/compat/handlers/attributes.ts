import { CHECKSUM_ALGORITHMS, CHECKSUM_NAMES, type Checksums, type ObjectInfo } from '../../../engine/index.js';
import { el, type XmlNode } from '../../common/xml.js';
import type { OpOf } from '../operation.js';
import { s3Root, sendXml, type BucketCall } from '../respond.js';

function checksumElements(checksums: Checksums | undefined): XmlNode[] {
  return CHECKSUM_ALGORITHMS.filter((a) => checksums?.[a]).map((a) => el(`Checksum${CHECKSUM_NAMES[a]}`, checksums![a]!));
}

/** ObjectParts: a page of a multipart object's parts (sizes, and checksums when it has them). */
function objectParts(info: ObjectInfo, op: OpOf<'GetObjectAttributes'>): XmlNode | undefined {
  if (!info.partsCount) return undefined;
  const sizes = info.partSizes ?? [];
  const all = sizes.map((size, i) => ({ partNumber: i + 1, size, checksums: info.partChecksums?.[i] })).filter((p) => p.partNumber > op.partNumberMarker);
  const page = all.slice(0, op.maxParts);
  const truncated = all.length > page.length;
  return el('ObjectParts', [
    el('PartsCount', info.partsCount),
    el('PartNumberMarker', op.partNumberMarker),
    ...(page.length ? [el('NextPartNumberMarker', page.at(-1)!.partNumber)] : []),
    el('MaxParts', op.maxParts),
    el('IsTruncated', truncated ? 'true' : 'false'),
    ...page.map((p) => el('Part', [el('PartNumber', p.partNumber), el('Size', p.size), ...checksumElements(p.checksums)])),
  ]);
}

/**
 * GetObjectAttributes: what x-amz-object-attributes asks for, in AWS's element order, with the
 * version's Last-Modified and id in headers. The ETag is unquoted, as AWS gives it here.
 */
export function getObjectAttributes(call: BucketCall<OpOf<'GetObjectAttributes'>>): void {
  const { op } = call;
  const info = call.ctx.engine.headObject(call.ref, op.address.key!, op.versionId);
  const asked = new Set(op.attributes);
  const body: XmlNode[] = [];
  if (asked.has('ETag')) body.push(el('ETag', info.etag));
  if (asked.has('Checksum') && Object.keys(info.checksums).length) body.push(el('Checksum', [...checksumElements(info.checksums), el('ChecksumType', info.checksumType)]));
  const parts = asked.has('ObjectParts') ? objectParts(info, op) : undefined;
  if (parts) body.push(parts);
  if (asked.has('StorageClass')) body.push(el('StorageClass', 'STANDARD'));
  if (asked.has('ObjectSize')) body.push(el('ObjectSize', info.size));
  sendXml(call.x, 200, s3Root('GetObjectAttributesResponse', body), {
    'Last-Modified': new Date(Math.floor(info.lastModified / 1000) * 1000).toUTCString(),
    ...(info.versionId !== null ? { 'x-amz-version-id': info.versionId } : {}),
  });
}
