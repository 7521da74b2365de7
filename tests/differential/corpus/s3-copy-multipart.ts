// S3 API: CopyObject, multipart uploads (create, parts, part copies, list, complete, abort).
import type { Req, Row } from '../types.js';
import { DELETE, GET, HEAD, md5, OBJ_ETAG, OWN_B, OWN_B_OBJ, POST, PUT, s, S3NS, xmlDoc } from './helpers.js';

const WRONG_ETAG = '0123456789abcdef0123456789abcdef';
const MIB5 = 5 * 1024 * 1024;
const copy = (headers: Record<string, string>, path = '/{b}/dst'): Req => PUT(path, { headers: { 'x-amz-copy-source': '/{b}/obj', ...headers } });

/** An upload of `key` whose id is captured as `{upload}`. */
const create = (key = 'mp'): Req => POST(`/{b}/${key}?uploads`, { capture: { upload: 'xml:UploadId' } });
const part = (n: number, body: Req['body'], key = 'mp'): Req => PUT(`/{b}/${key}?partNumber=${n}&uploadId={url:upload}`, { body, capture: { [`etag${n}`]: 'header:etag' } });
const complete = (parts: [number, string][]) =>
  xmlDoc(`<CompleteMultipartUpload xmlns="${S3NS}">${parts.map(([n, e]) => `<Part><PartNumber>${n}</PartNumber><ETag>${e}</ETag></Part>`).join('')}</CompleteMultipartUpload>`);
const COMPLETE_1 = complete([[1, '{etag1}']]);
const UPLOAD_1: Req[] = [...OWN_B, create(), part(1, 'only part')];
/** Two parts, the first at the 5 MiB minimum every server enforces. */
const UPLOAD_2: Req[] = [...OWN_B, create(), part(1, { size: MIB5, seed: 'part1' }), part(2, 'tail')];

export const S3_COPY_MULTIPART_ROWS: Row[] = [
  // CopyObject
  s('copy', copy({}), { setup: OWN_B_OBJ }),
  s('copy.read-back', HEAD('/{b}/dst'), { setup: [...OWN_B_OBJ, copy({})] }),
  s('copy.source-no-slash', copy({ 'x-amz-copy-source': '{b}/obj' }), { setup: OWN_B_OBJ }),
  s('copy.source-encoded', copy({ 'x-amz-copy-source': '/{b}/a%20b' }), { setup: [...OWN_B, PUT('/{b}/a%20b', { body: 'spaced' })] }),
  s('copy.source-utf8', copy({ 'x-amz-copy-source': '/{b}/%C3%A9' }), { setup: [...OWN_B, PUT('/{b}/%C3%A9', { body: 'e' })] }),
  s('copy.source-missing', copy({ 'x-amz-copy-source': '/{b}/nope' }), { setup: OWN_B }),
  s('copy.source-bucket-missing', copy({ 'x-amz-copy-source': '/{b2}/obj' }), { setup: OWN_B }),
  s('copy.source-junk', copy({ 'x-amz-copy-source': 'junk' }), { setup: OWN_B }),
  s('copy.source-version-null', copy({ 'x-amz-copy-source': '/{b}/obj?versionId=null' }), { setup: OWN_B_OBJ }),
  s('copy.source-version-bogus', copy({ 'x-amz-copy-source': '/{b}/obj?versionId=bogus' }), { setup: OWN_B_OBJ }),
  s('copy.dest-bucket-missing', copy({}, '/{b2}/dst'), { setup: OWN_B_OBJ }),
  s('copy.to-self', copy({}, '/{b}/obj'), { setup: OWN_B_OBJ }),
  s('copy.to-self-replace', copy({ 'x-amz-metadata-directive': 'REPLACE', 'x-amz-meta-new': 'n' }, '/{b}/obj'), { setup: OWN_B_OBJ }),
  s('copy.to-self-storage-class', copy({ 'x-amz-storage-class': 'STANDARD' }, '/{b}/obj'), { setup: OWN_B_OBJ }),
  s('copy.directive-copy-meta', HEAD('/{b}/dst'), { setup: [...OWN_B_OBJ, copy({ 'x-amz-meta-ignored': 'i' })] }),
  s('copy.directive-replace', HEAD('/{b}/dst'), { setup: [...OWN_B_OBJ, copy({ 'x-amz-metadata-directive': 'REPLACE', 'x-amz-meta-new': 'n', 'Content-Type': 'application/x-new' })] }),
  s('copy.directive-bogus', copy({ 'x-amz-metadata-directive': 'MERGE' }), { setup: OWN_B_OBJ }),
  s('copy.if-match', copy({ 'x-amz-copy-source-if-match': `"${OBJ_ETAG}"` }), { setup: OWN_B_OBJ }),
  s('copy.if-match-wrong', copy({ 'x-amz-copy-source-if-match': `"${WRONG_ETAG}"` }), { setup: OWN_B_OBJ }),
  s('copy.if-none-match', copy({ 'x-amz-copy-source-if-none-match': `"${OBJ_ETAG}"` }), { setup: OWN_B_OBJ }),
  s('copy.if-modified-since-future', copy({ 'x-amz-copy-source-if-modified-since': '{http-date+3600}' }), { setup: OWN_B_OBJ }),
  s('copy.if-unmodified-since-past', copy({ 'x-amz-copy-source-if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' }), { setup: OWN_B_OBJ }),
  s('copy.if-match-and-unmodified-past', copy({ 'x-amz-copy-source-if-match': `"${OBJ_ETAG}"`, 'x-amz-copy-source-if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' }), { setup: OWN_B_OBJ }),
  // Conditional copy (AWS): If-Match / If-None-Match judge the destination.
  s('copy.dest-if-none-match-new', copy({ 'If-None-Match': '*' }), { setup: OWN_B_OBJ }),
  s('copy.dest-if-none-match-existing', copy({ 'If-None-Match': '*' }), { setup: [...OWN_B_OBJ, PUT('/{b}/dst', { body: 'old' })] }),
  s('copy.dest-if-match-wrong', copy({ 'If-Match': `"${WRONG_ETAG}"` }), { setup: [...OWN_B_OBJ, PUT('/{b}/dst', { body: 'old' })] }),
  s('copy.dest-if-match-missing', copy({ 'If-Match': `"${WRONG_ETAG}"` }), { setup: OWN_B_OBJ }),
  s('copy.acl', copy({ 'x-amz-acl': 'public-read' }), { setup: OWN_B_OBJ }),
  s('copy.tagging-directive', copy({ 'x-amz-tagging-directive': 'REPLACE', 'x-amz-tagging': 'k=v' }), { setup: OWN_B_OBJ }),
  s('copy.from-others-bucket', copy({ 'x-amz-copy-source': '/{b2}/theirs' }), { setup: [...OWN_B, PUT('/{b2}', { as: 'other' }), PUT('/{b2}/theirs', { as: 'other', body: 'theirs' })] }),
  s('copy.as-other', PUT('/{b}/dst', { as: 'other', headers: { 'x-amz-copy-source': '/{b}/obj' } }), { setup: OWN_B_OBJ }),
  s('copy.with-body', PUT('/{b}/dst', { body: 'body', headers: { 'x-amz-copy-source': '/{b}/obj' } }), { setup: OWN_B_OBJ }),
  s('copy.range-header', copy({ 'x-amz-copy-source-range': 'bytes=0-3' }), { setup: OWN_B_OBJ }),

  // multipart
  s('mp.create', POST('/{b}/mp?uploads'), { setup: OWN_B }),
  s('mp.create.meta', POST('/{b}/mp?uploads', { headers: { 'x-amz-meta-m': 'v', 'Content-Type': 'application/x-mp' } }), { setup: OWN_B }),
  s('mp.create.missing-bucket', POST('/{b}/mp?uploads')),
  s('mp.create.other', POST('/{b}/mp?uploads', { as: 'other' }), { setup: OWN_B }),
  s('mp.part', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'part' }), { setup: [...OWN_B, create()] }),
  s('mp.part.number-0', PUT('/{b}/mp?partNumber=0&uploadId={url:upload}', { body: 'part' }), { setup: [...OWN_B, create()] }),
  s('mp.part.number-10000', PUT('/{b}/mp?partNumber=10000&uploadId={url:upload}', { body: 'part' }), { setup: [...OWN_B, create()] }),
  s('mp.part.number-10001', PUT('/{b}/mp?partNumber=10001&uploadId={url:upload}', { body: 'part' }), { setup: [...OWN_B, create()] }),
  s('mp.part.number-junk', PUT('/{b}/mp?partNumber=one&uploadId={url:upload}', { body: 'part' }), { setup: [...OWN_B, create()] }),
  s('mp.part.bogus-upload', PUT('/{b}/mp?partNumber=1&uploadId=bogus', { body: 'part' }), { setup: OWN_B }),
  s('mp.part.other-key', PUT('/{b}/other?partNumber=1&uploadId={url:upload}', { body: 'part' }), { setup: [...OWN_B, create()] }),
  s('mp.part.content-md5-wrong', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'part', headers: { 'Content-MD5': 'AAAAAAAAAAAAAAAAAAAAAA==' } }), { setup: [...OWN_B, create()] }),
  s('mp.part.copy', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj' } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-range', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-copy-source-range': 'bytes=0-9' } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-range-beyond', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-copy-source-range': 'bytes=0-100' } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-range-reversed', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-copy-source-range': 'bytes=9-2' } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-range-multi', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-copy-source-range': 'bytes=0-1,4-5' } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-range-suffix', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-copy-source-range': 'bytes=-5' } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-range-junk', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-copy-source-range': 'bytes=junk' } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-if-match-wrong', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-copy-source-if-match': `"${WRONG_ETAG}"` } }), { setup: [...OWN_B_OBJ, create()] }),
  s('mp.part.copy-missing-source', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/nope' } }), { setup: [...OWN_B, create()] }),
  s('mp.list-parts', GET('/{b}/mp?uploadId={url:upload}'), { setup: UPLOAD_1 }),
  s('mp.list-parts.max-parts', GET('/{b}/mp?uploadId={url:upload}&max-parts=1'), { setup: [...UPLOAD_1, part(2, 'second')] }),
  s('mp.list-parts.marker', GET('/{b}/mp?uploadId={url:upload}&part-number-marker=1'), { setup: [...UPLOAD_1, part(2, 'second')] }),
  s('mp.list-parts.bogus-upload', GET('/{b}/mp?uploadId=bogus'), { setup: OWN_B }),
  s('mp.list-parts.none', GET('/{b}/mp?uploadId={url:upload}'), { setup: [...OWN_B, create()] }),
  s('mp.complete.one-part', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 }), { setup: UPLOAD_1 }),
  s('mp.complete.read-back', HEAD('/{b}/mp'), { setup: [...UPLOAD_1, POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 })] }),
  s('mp.complete.get', GET('/{b}/mp'), { setup: [...UPLOAD_1, POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 })] }),
  s('mp.complete.two-parts', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [2, '{etag2}']]) }), { setup: UPLOAD_2 }),
  s('mp.complete.two-parts-head', HEAD('/{b}/mp'), { setup: [...UPLOAD_2, POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [2, '{etag2}']]) })] }),
  s('mp.complete.part-number-get', GET('/{b}/mp?partNumber=2'), { setup: [...UPLOAD_2, POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [2, '{etag2}']]) })] }),
  s('mp.complete.part-number-head', HEAD('/{b}/mp?partNumber=1'), { setup: [...UPLOAD_2, POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [2, '{etag2}']]) })] }),
  s('mp.complete.part-number-beyond', HEAD('/{b}/mp?partNumber=3'), { setup: [...UPLOAD_2, POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [2, '{etag2}']]) })] }),
  s('mp.complete.too-small', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [2, '{etag2}']]) }), { setup: [...UPLOAD_1, part(2, 'second')] }),
  s('mp.complete.wrong-etag', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, `"${WRONG_ETAG}"`]]) }), { setup: UPLOAD_1 }),
  s('mp.complete.unquoted-etag', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, md5('only part')]]) }), { setup: UPLOAD_1 }),
  s('mp.complete.missing-part', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [3, `"${md5('x')}"`]]) }), { setup: UPLOAD_1 }),
  s('mp.complete.out-of-order', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[2, '{etag2}'], [1, '{etag1}']]) }), { setup: UPLOAD_2 }),
  s('mp.complete.duplicate-part', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [1, '{etag1}']]) }), { setup: UPLOAD_1 }),
  s('mp.complete.empty-list', POST('/{b}/mp?uploadId={url:upload}', { body: xmlDoc(`<CompleteMultipartUpload xmlns="${S3NS}"></CompleteMultipartUpload>`) }), { setup: UPLOAD_1 }),
  s('mp.complete.malformed', POST('/{b}/mp?uploadId={url:upload}', { body: '<CompleteMultipartUpload>' }), { setup: UPLOAD_1 }),
  s('mp.complete.bogus-upload', POST('/{b}/mp?uploadId=bogus', { body: complete([[1, `"${md5('x')}"`]]) }), { setup: OWN_B }),
  s('mp.complete.twice', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 }), { setup: [...UPLOAD_1, POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 })] }),
  s('mp.complete.twice-after-delete', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 }), {
    setup: [...UPLOAD_1, POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 }), DELETE('/{b}/mp')],
  }),
  s('mp.complete.resent-part-listed-twice', POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [1, '{resent}']]) }), {
    setup: [...UPLOAD_1, PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'resent part', capture: { resent: 'header:etag' } })],
  }),
  s('mp.complete.resent-part-read-back', GET('/{b}/mp'), {
    setup: [...UPLOAD_1, PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'resent part', capture: { resent: 'header:etag' } }), POST('/{b}/mp?uploadId={url:upload}', { body: complete([[1, '{etag1}'], [1, '{resent}']]) })],
  }),
  s('mp.complete.if-none-match-new', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1, headers: { 'If-None-Match': '*' } }), { setup: UPLOAD_1 }),
  s('mp.complete.if-match-right', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1, headers: { 'If-Match': '{existing}' } }), {
    setup: [...UPLOAD_1, PUT('/{b}/mp', { body: 'exists', capture: { existing: 'header:etag' } })],
  }),
  s('mp.complete.if-match-wrong', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1, headers: { 'If-Match': `"${WRONG_ETAG}"` } }), { setup: [...UPLOAD_1, PUT('/{b}/mp', { body: 'exists' })] }),
  s('mp.complete.if-match-missing-key', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1, headers: { 'If-Match': `"${WRONG_ETAG}"` } }), { setup: UPLOAD_1 }),
  s('mp.complete.if-none-match-existing', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1, headers: { 'If-None-Match': '*' } }), { setup: [...UPLOAD_1, PUT('/{b}/mp', { body: 'exists' })] }),
  s('mp.abort', DELETE('/{b}/mp?uploadId={url:upload}'), { setup: UPLOAD_1 }),
  s('mp.abort.bogus', DELETE('/{b}/mp?uploadId=bogus'), { setup: OWN_B }),
  s('mp.abort.twice', DELETE('/{b}/mp?uploadId={url:upload}'), { setup: [...UPLOAD_1, DELETE('/{b}/mp?uploadId={url:upload}')] }),
  s('mp.part.checksum-other-algorithm', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'part', headers: { 'x-amz-checksum-crc32': 'AAAAAA==' } }), {
    setup: [...OWN_B, POST('/{b}/mp?uploads', { headers: { 'x-amz-checksum-algorithm': 'SHA256' }, capture: { upload: 'xml:UploadId' } })],
  }),
  s('mp.part.copy-checksum', PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { headers: { 'x-amz-copy-source': '/{b}/obj' } }), {
    setup: [...OWN_B_OBJ, POST('/{b}/mp?uploads', { headers: { 'x-amz-checksum-algorithm': 'CRC32' }, capture: { upload: 'xml:UploadId' } })],
  }),
  s('mp.abort.after-complete', DELETE('/{b}/mp?uploadId={url:upload}'), { setup: [...UPLOAD_1, POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 })] }),
  s('mp.abort.after-complete-read-back', GET('/{b}/mp'), { setup: [...UPLOAD_1, POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 }), DELETE('/{b}/mp?uploadId={url:upload}')] }),
  s('mp.abort.after-complete-and-delete', DELETE('/{b}/mp?uploadId={url:upload}'), { setup: [...UPLOAD_1, POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_1 }), DELETE('/{b}/mp')] }),
  s('mp.abort.then-part', PUT('/{b}/mp?partNumber=2&uploadId={url:upload}', { body: 'late' }), { setup: [...UPLOAD_1, DELETE('/{b}/mp?uploadId={url:upload}')] }),
];
