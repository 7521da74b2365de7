// S3 API: object and bucket tagging (issue 26, part 3): tag sets and their limits, x-amz-tagging
// on uploads and copies, tags of one version, x-amz-tagging-count; additional checksums (CRC64NVME,
// checksum mode, multipart checksum types); GetObjectAttributes.
import { createHash } from 'node:crypto';
import type { Req, Row } from '../types.js';
import { DELETE, GET, HEAD, OWN_B, OWN_B_OBJ, POST, PUT, s, S3NS, xmlDoc } from './helpers.js';

const tagging = (tags: [string, string][]) =>
  xmlDoc(`<Tagging xmlns="${S3NS}"><TagSet>${tags.map(([k, v]) => `<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`).join('')}</TagSet></Tagging>`);
const putTags = (path: string, tags: [string, string][]): Req => PUT(`${path}?tagging`, { body: tagging(tags), md5: true });
const TWO: [string, string][] = [['colour', 'blue'], ['size', 'big one']];
const ELEVEN = Array.from({ length: 11 }, (_, i): [string, string] => [`k${i}`, 'v']);
const FIFTY_ONE = Array.from({ length: 51 }, (_, i): [string, string] => [`k${i}`, 'v']);
const TAGGED: Req[] = [...OWN_B, PUT('/{b}/obj', { body: 'tagged', headers: { 'x-amz-tagging': 'colour=blue&size=big%20one' } })];
const versioning = PUT('/{b}?versioning', { body: xmlDoc(`<VersioningConfiguration xmlns="${S3NS}"><Status>Enabled</Status></VersioningConfiguration>`) });
const TWO_VERSIONS: Req[] = [
  ...OWN_B,
  versioning,
  PUT('/{b}/obj', { body: 'one', headers: { 'x-amz-tagging': 'v=1' }, capture: { v1: 'header:x-amz-version-id' } }),
  PUT('/{b}/obj', { body: 'two', capture: { v2: 'header:x-amz-version-id' } }),
];
const copyTo = (headers: Record<string, string>): Req => PUT('/{b}/dst', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-tagging': 'new=2', ...headers } });

export const S3_DATA_ROWS: Row[] = [
  s('tags.put-get', GET('/{b}/obj?tagging'), { setup: [...OWN_B_OBJ, putTags('/{b}/obj', TWO)] }),
  s('tags.put-response', putTags('/{b}/obj', TWO), { setup: OWN_B_OBJ }),
  s('tags.header-get', GET('/{b}/obj?tagging'), { setup: TAGGED }),
  s('tags.header-head-count', HEAD('/{b}/obj'), { setup: TAGGED }),
  s('tags.header-get-count', GET('/{b}/obj'), { setup: TAGGED }),
  s('tags.replace', GET('/{b}/obj?tagging'), { setup: [...TAGGED, putTags('/{b}/obj', [['only', 'one']])] }),
  s('tags.delete-then-get', GET('/{b}/obj?tagging'), { setup: [...TAGGED, DELETE('/{b}/obj?tagging')] }),
  s('tags.delete-response', DELETE('/{b}/obj?tagging'), { setup: TAGGED }),
  s('tags.empty-set', GET('/{b}/obj?tagging'), { setup: [...TAGGED, putTags('/{b}/obj', [])] }),
  s('tags.put-missing-key', putTags('/{b}/nope', TWO), { setup: OWN_B }),
  s('tags.put-eleven', putTags('/{b}/obj', ELEVEN), { setup: OWN_B_OBJ }),
  s('tags.put-ten', putTags('/{b}/obj', ELEVEN.slice(0, 10)), { setup: OWN_B_OBJ }),
  s('tags.put-key-129', putTags('/{b}/obj', [['k'.repeat(129), 'v']]), { setup: OWN_B_OBJ }),
  s('tags.put-key-128', putTags('/{b}/obj', [['k'.repeat(128), 'v']]), { setup: OWN_B_OBJ }),
  s('tags.put-value-257', putTags('/{b}/obj', [['k', 'v'.repeat(257)]]), { setup: OWN_B_OBJ }),
  s('tags.put-value-256', putTags('/{b}/obj', [['k', 'v'.repeat(256)]]), { setup: OWN_B_OBJ }),
  s('tags.put-duplicate-key', putTags('/{b}/obj', [['k', '1'], ['k', '2']]), { setup: OWN_B_OBJ }),
  s('tags.put-aws-prefix', putTags('/{b}/obj', [['aws:k', 'v']]), { setup: OWN_B_OBJ }),
  s('tags.put-malformed', PUT('/{b}/obj?tagging', { body: '<Tagging><TagSet><Tag><Key>k', md5: true }), { setup: OWN_B_OBJ }),
  s('tags.put-other', PUT('/{b}/obj?tagging', { body: tagging(TWO), md5: true, as: 'other' }), { setup: OWN_B_OBJ }),
  s('tags.header-duplicate', PUT('/{b}/obj', { body: 'x', headers: { 'x-amz-tagging': 'a=1&a=2' } }), { setup: OWN_B }),
  s('tags.header-eleven', PUT('/{b}/obj', { body: 'x', headers: { 'x-amz-tagging': ELEVEN.map(([k]) => `${k}=v`).join('&') } }), { setup: OWN_B }),
  s('tags.header-aws-prefix', PUT('/{b}/obj', { body: 'x', headers: { 'x-amz-tagging': 'aws%3Ak=v' } }), { setup: OWN_B }),
  s('tags.version.get-old', GET('/{b}/obj?tagging&versionId={v1}'), { setup: TWO_VERSIONS }),
  s('tags.version.get-current', GET('/{b}/obj?tagging'), { setup: TWO_VERSIONS }),
  s('tags.version.put-old', PUT('/{b}/obj?tagging&versionId={v1}', { body: tagging(TWO), md5: true }), { setup: TWO_VERSIONS }),
  s('tags.version.put-old-then-get', GET('/{b}/obj?tagging&versionId={v1}'), { setup: [...TWO_VERSIONS, PUT('/{b}/obj?tagging&versionId={v1}', { body: tagging(TWO), md5: true })] }),
  s('tags.version.head-old-count', HEAD('/{b}/obj?versionId={v1}'), { setup: TWO_VERSIONS }),
  s('tags.copy.default', GET('/{b}/dst?tagging'), { setup: [...TAGGED, copyTo({})] }),
  s('tags.copy.replace', GET('/{b}/dst?tagging'), { setup: [...TAGGED, copyTo({ 'x-amz-tagging-directive': 'REPLACE' })] }),
  s('tags.copy.bogus-directive', copyTo({ 'x-amz-tagging-directive': 'MAYBE' }), { setup: TAGGED }),
  s('tags.multipart', GET('/{b}/mp?tagging'), {
    setup: [
      ...OWN_B,
      POST('/{b}/mp?uploads', { headers: { 'x-amz-tagging': 'from=upload' }, capture: { upload: 'xml:UploadId' } }),
      PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'only part', capture: { etag1: 'header:etag' } }),
      POST('/{b}/mp?uploadId={url:upload}', { body: xmlDoc(`<CompleteMultipartUpload xmlns="${S3NS}"><Part><PartNumber>1</PartNumber><ETag>{etag1}</ETag></Part></CompleteMultipartUpload>`) }),
    ],
  }),
  s('bucket.tags.get-none', GET('/{b}?tagging'), { setup: OWN_B }),
  s('bucket.tags.put-get', GET('/{b}?tagging'), { setup: [...OWN_B, putTags('/{b}', TWO)] }),
  s('bucket.tags.delete-then-get', GET('/{b}?tagging'), { setup: [...OWN_B, putTags('/{b}', TWO), DELETE('/{b}?tagging')] }),
  s('bucket.tags.put-duplicate-key', putTags('/{b}', [['k', '1'], ['k', '2']]), { setup: OWN_B }),
  s('bucket.tags.put-fifty-one', putTags('/{b}', FIFTY_ONE), { setup: OWN_B }),
  s('bucket.tags.put-aws-prefix', putTags('/{b}', [['aws:k', 'v']]), { setup: OWN_B }),
];

/** Base64 CRC64/NVME and CRC32 of small test bodies, as a client computes them (bitwise, independent of the server's tables). */
function crc(bytes: Buffer, width: 32 | 64): string {
  const poly = width === 64 ? 0x9a6c9329ac4bc9b5n : 0xedb88320n;
  const mask = (1n << BigInt(width)) - 1n;
  let c = mask;
  for (const b of bytes) {
    c ^= BigInt(b);
    for (let k = 0; k < 8; k++) c = c & 1n ? (c >> 1n) ^ poly : c >> 1n;
  }
  c ^= mask;
  const out = Buffer.alloc(width / 8);
  if (width === 64) out.writeBigUInt64BE(c);
  else out.writeUInt32BE(Number(c));
  return out.toString('base64');
}
const HELLO = Buffer.from('hello');
const CHECKED: Req[] = [...OWN_B, PUT('/{b}/obj', { body: 'hello', headers: { 'x-amz-checksum-crc32': crc(HELLO, 32) } })];
const mpCreate = (headers: Record<string, string>): Req => POST('/{b}/mp?uploads', { headers, capture: { upload: 'xml:UploadId' } });
const MP_PART = PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'hello', headers: { 'x-amz-checksum-crc32': crc(HELLO, 32) }, capture: { etag1: 'header:etag' } });
const completeWith = (partChecksum: string): Req =>
  POST('/{b}/mp?uploadId={url:upload}', {
    body: xmlDoc(`<CompleteMultipartUpload xmlns="${S3NS}"><Part><PartNumber>1</PartNumber><ETag>{etag1}</ETag>${partChecksum}</Part></CompleteMultipartUpload>`),
  });
const sha256 = (x: string) => createHash('sha256').update(x).digest('base64');

export const S3_CHECKSUM_ROWS: Row[] = [
  s('sums.put-crc64nvme', PUT('/{b}/x', { body: 'hello', headers: { 'x-amz-checksum-crc64nvme': crc(HELLO, 64) } }), { setup: OWN_B }),
  s('sums.put-crc64nvme-wrong', PUT('/{b}/x', { body: 'hello', headers: { 'x-amz-checksum-crc64nvme': crc(Buffer.from('other'), 64) } }), { setup: OWN_B }),
  s('sums.head-checksum-mode', HEAD('/{b}/obj', { headers: { 'x-amz-checksum-mode': 'ENABLED' } }), { setup: CHECKED }),
  s('sums.get-checksum-mode', GET('/{b}/obj', { headers: { 'x-amz-checksum-mode': 'ENABLED' } }), { setup: CHECKED }),
  s('sums.mp.create-crc32', mpCreate({ 'x-amz-checksum-algorithm': 'CRC32' }), { setup: OWN_B }),
  s('sums.mp.create-sha256-full', mpCreate({ 'x-amz-checksum-algorithm': 'SHA256', 'x-amz-checksum-type': 'FULL_OBJECT' }), { setup: OWN_B }),
  s('sums.mp.list-parts', GET('/{b}/mp?uploadId={url:upload}'), { setup: [...OWN_B, mpCreate({ 'x-amz-checksum-algorithm': 'CRC32' }), MP_PART] }),
  s('sums.mp.complete', completeWith(`<ChecksumCRC32>${crc(HELLO, 32)}</ChecksumCRC32>`), { setup: [...OWN_B, mpCreate({ 'x-amz-checksum-algorithm': 'CRC32' }), MP_PART] }),
  s('sums.mp.complete-wrong-part-checksum', completeWith(`<ChecksumCRC32>${crc(Buffer.from('other'), 32)}</ChecksumCRC32>`), { setup: [...OWN_B, mpCreate({ 'x-amz-checksum-algorithm': 'CRC32' }), MP_PART] }),
  s('sums.mp.head-composite', HEAD('/{b}/mp', { headers: { 'x-amz-checksum-mode': 'ENABLED' } }), {
    setup: [...OWN_B, mpCreate({ 'x-amz-checksum-algorithm': 'CRC32' }), MP_PART, completeWith(`<ChecksumCRC32>${crc(HELLO, 32)}</ChecksumCRC32>`)],
  }),
  s('sums.put-sha256-wrong', PUT('/{b}/x', { body: 'hello', headers: { 'x-amz-checksum-sha256': sha256('other') } }), { setup: OWN_B }),
  s('attrs.single', GET('/{b}/obj?attributes', { headers: { 'x-amz-object-attributes': 'ETag,Checksum,ObjectParts,StorageClass,ObjectSize' } }), { setup: CHECKED }),
  s('attrs.size-only', GET('/{b}/obj?attributes', { headers: { 'x-amz-object-attributes': 'ObjectSize' } }), { setup: CHECKED }),
  s('attrs.missing-header', GET('/{b}/obj?attributes'), { setup: CHECKED }),
  s('attrs.unknown-name', GET('/{b}/obj?attributes', { headers: { 'x-amz-object-attributes': 'ETag,Colour' } }), { setup: CHECKED }),
  s('attrs.missing-key', GET('/{b}/nope?attributes', { headers: { 'x-amz-object-attributes': 'ETag' } }), { setup: OWN_B }),
  s('attrs.multipart-parts', GET('/{b}/mp?attributes', { headers: { 'x-amz-object-attributes': 'ObjectParts,Checksum', 'x-amz-max-parts': '1' } }), {
    setup: [...OWN_B, mpCreate({ 'x-amz-checksum-algorithm': 'CRC32' }), MP_PART, completeWith(`<ChecksumCRC32>${crc(HELLO, 32)}</ChecksumCRC32>`)],
  }),
];
