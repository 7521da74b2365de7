// Native API: large objects (SLO, DLO), bulk delete and TempURL (symlinks and static web:
// native-links.ts; form posts and bulk upload: native-upload.ts).
import type { Req, Row } from '../types.js';
import { COPY, DELETE, GET, HEAD, md5, n, OWN_C_OBJ, POST, PUT } from './helpers.js';

const SEG_A = 'segment-a\n';
const SEG_B = 'segment-b\n';
const SEGMENTS: Req[] = [PUT('/{c}'), PUT('/{c}/seg/1', { body: SEG_A }), PUT('/{c}/seg/2', { body: SEG_B })];
const manifest = (entries: { path: string; etag?: string | null; size_bytes?: number | null; range?: string }[]) => JSON.stringify(entries);
const GOOD_MANIFEST = manifest([
  { path: '/{c}/seg/1', etag: md5(SEG_A), size_bytes: SEG_A.length },
  { path: '/{c}/seg/2', etag: md5(SEG_B), size_bytes: SEG_B.length },
]);
const SLO: Req[] = [...SEGMENTS, PUT('/{c}/slo?multipart-manifest=put', { body: GOOD_MANIFEST, headers: { 'Content-Type': 'text/plain' } })];
const ALLOW_A: Req = POST('/{c}', { headers: { 'X-Container-Meta-Access-Control-Allow-Origin': 'https://a.example' } });
const DLO: Req[] = [...SEGMENTS, PUT('/{c}/dlo', { headers: { 'X-Object-Manifest': '{c}/seg/', 'Content-Type': 'text/plain' } })];
/** Segments with a range each: the first two bytes of one, the last three of the other (Swift stores `0-1` and `7-9`). */
const RANGED_MANIFEST = manifest([{ path: '/{c}/seg/1', range: '0-1' }, { path: '/{c}/seg/2', range: '-3' }]);
const RANGED: Req[] = [...SEGMENTS, PUT('/{c}/ranged?multipart-manifest=put', { body: RANGED_MANIFEST, headers: { 'Content-Type': 'text/plain' } })];
/** SLOs nested `levels` deep: /{c}/slo is level 1, /{c}/l<k> holds level k-1 and one plain segment. */
const NESTED = (levels: number): Req[] => [
  ...SLO,
  ...Array.from({ length: levels - 1 }, (_, i) => {
    const inner = i === 0 ? '/{c}/slo' : `/{c}/l${i + 1}`;
    return PUT(`/{c}/l${i + 2}?multipart-manifest=put`, { body: manifest([{ path: inner }, { path: '/{c}/seg/1' }]) });
  }),
];
/** A first segment of 5,000 bytes: more than Swift's server holds back before it starts its answer. */
const BIG_SEG = 'x'.repeat(5000);
const TEMP_KEY = 'differential-temp-url-key';
/** The account's TempURL key: the same value from every row (rows run concurrently on one account). */
const WITH_KEY: Req = POST('', { headers: { 'X-Account-Meta-Temp-URL-Key': TEMP_KEY } });
/** Ceph RGW 16.2 is not asked: TempURL requests crashed it here (SIGSEGV in TempURLEngine::get_owner_info), and the run shares it with other test files. */
const NO_RGW = { skip: { 'rgw-swift': 'TempURL requests crash Ceph RGW 16.2 (SIGSEGV in TempURLEngine::get_owner_info)' } };

export const NATIVE_LARGE_ROWS: Row[] = [
  // SLO
  n('slo.put', PUT('/{c}/slo?multipart-manifest=put', { body: GOOD_MANIFEST, headers: { 'Content-Type': 'text/plain' } }), { setup: SEGMENTS }),
  n('slo.get', GET('/{c}/slo'), { setup: SLO }),
  n('slo.head', HEAD('/{c}/slo'), { setup: SLO }),
  n('slo.get.range', GET('/{c}/slo', { headers: { Range: 'bytes=5-14' } }), { setup: SLO }),
  // The manifest document's ETag covers its segments' Last-Modified, each server's own.
  n('slo.get.manifest', GET('/{c}/slo?multipart-manifest=get'), { setup: SLO, compare: { presence: ['etag'] } }),
  n('slo.get.manifest-raw', GET('/{c}/slo?multipart-manifest=get&format=raw'), { setup: SLO }),
  n('slo.listing', GET('/{c}?format=json&prefix=slo'), { setup: SLO }),
  n('slo.container-bytes', HEAD('/{c}'), { setup: SLO }),
  n('slo.delete', DELETE('/{c}/slo?multipart-manifest=delete'), { setup: SLO }),
  n('slo.delete.json', DELETE('/{c}/slo?multipart-manifest=delete', { headers: { Accept: 'application/json' } }), { setup: SLO }),
  n('slo.delete.manifest-only', DELETE('/{c}/slo'), { setup: SLO }),
  // A cross-origin manifest upload and delete, in a container allowing the origin.
  n('slo.put.cors', PUT('/{c}/slo?multipart-manifest=put', { body: GOOD_MANIFEST, headers: { 'Content-Type': 'text/plain', Origin: 'https://a.example' } }), { setup: [...SEGMENTS, ALLOW_A] }),
  n('slo.delete.cors', DELETE('/{c}/slo?multipart-manifest=delete', { headers: { Origin: 'https://a.example' } }), { setup: [...SLO, ALLOW_A] }),
  n('slo.get.cors', GET('/{c}/slo', { headers: { Origin: 'https://a.example' } }), { setup: [...SLO, ALLOW_A] }),
  n('slo.put.etag-wrong', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', etag: md5('other') }]) }), { setup: SEGMENTS }),
  n('slo.put.size-wrong', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', size_bytes: 99 }]) }), { setup: SEGMENTS }),
  n('slo.put.segment-missing', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/9' }]) }), { setup: SEGMENTS }),
  n('slo.put.segment-missing.json-quality', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/9' }]), headers: { Accept: 'text/plain;q=0.2, application/json' } }), { setup: SEGMENTS }),
  n('slo.put.segment-missing.format-query', PUT('/{c}/slo?multipart-manifest=put&format=json', { body: manifest([{ path: '/{c}/seg/9' }]) }), { setup: SEGMENTS }),
  n('slo.put.not-acceptable', PUT('/{c}/slo?multipart-manifest=put', { body: GOOD_MANIFEST, headers: { Accept: 'image/png' } }), { setup: SEGMENTS }),
  n('slo.put.nulls', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', etag: null, size_bytes: null }, { path: '/{c}/seg/2' }]) }), { setup: SEGMENTS }),
  n('slo.put.range', GET('/{c}/slo'), { setup: [...SEGMENTS, PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', range: '0-2' }, { path: '/{c}/seg/2', range: '-3' }]) })] }),
  n('slo.put.not-json', PUT('/{c}/slo?multipart-manifest=put', { body: 'not json' }), { setup: SEGMENTS }),
  n('slo.put.empty-list', PUT('/{c}/slo?multipart-manifest=put', { body: '[]' }), { setup: SEGMENTS }),
  n('slo.put.etag-header', PUT('/{c}/slo?multipart-manifest=put', { body: GOOD_MANIFEST, headers: { ETag: md5(md5(SEG_A) + md5(SEG_B)) } }), { setup: SEGMENTS }),
  n('slo.put.etag-header-wrong', PUT('/{c}/slo?multipart-manifest=put', { body: GOOD_MANIFEST, headers: { ETag: md5('nope') } }), { setup: SEGMENTS }),
  n('slo.of-slo', GET('/{c}/outer'), {
    setup: [...SLO, PUT('/{c}/outer?multipart-manifest=put', { body: manifest([{ path: '/{c}/slo' }, { path: '/{c}/seg/1' }]) })],
  }),
  n('slo.segment-deleted', GET('/{c}/slo'), { setup: [...SLO, DELETE('/{c}/seg/2')] }),
  n('slo.segment-deleted.first', GET('/{c}/slo'), { setup: [...SLO, DELETE('/{c}/seg/1')] }),
  n('slo.segment-deleted.after-4k', GET('/{c}/big'), {
    setup: [...SEGMENTS, PUT('/{c}/seg/0', { body: BIG_SEG }), PUT('/{c}/big?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/0' }, { path: '/{c}/seg/2' }]) }), DELETE('/{c}/seg/2')],
  }),
  // Segment ranges
  n('slo.range.put', PUT('/{c}/ranged?multipart-manifest=put', { body: RANGED_MANIFEST }), { setup: SEGMENTS }),
  n('slo.range.head', HEAD('/{c}/ranged'), { setup: RANGED }),
  n('slo.range.get.range', GET('/{c}/ranged', { headers: { Range: 'bytes=1-3' } }), { setup: RANGED }),
  n('slo.range.manifest', GET('/{c}/ranged?multipart-manifest=get'), { setup: RANGED, compare: { presence: ['etag'] } }),
  n('slo.range.manifest-raw', GET('/{c}/ranged?multipart-manifest=get&format=raw'), { setup: RANGED }),
  n('slo.range.listing', GET('/{c}?format=json&prefix=ranged'), { setup: RANGED }),
  n('slo.range.whole', GET('/{c}/slo?multipart-manifest=get&format=raw'), { setup: [...SEGMENTS, PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', range: '0-' }, { path: '/{c}/seg/2', range: '0-99' }]) })] }),
  n('slo.range.invalid', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', range: '5-2' }]) }), { setup: SEGMENTS }),
  n('slo.range.multiple', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', range: '0-1,3-4' }]) }), { setup: SEGMENTS }),
  n('slo.range.unsatisfiable-size', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', size_bytes: SEG_A.length, range: '10-' }]) }), { setup: SEGMENTS }),
  n('slo.range.unsatisfiable', PUT('/{c}/slo?multipart-manifest=put', { body: manifest([{ path: '/{c}/seg/1', range: '10-' }]) }), { setup: SEGMENTS }),
  n('slo.range.of-slo', GET('/{c}/outer'), {
    setup: [...SLO, PUT('/{c}/outer?multipart-manifest=put', { body: manifest([{ path: '/{c}/slo', range: '8-12' }, { path: '/{c}/seg/1', range: '-1' }]) })],
  }),
  // Empty manifests, nested manifests and Swift's depth limit (ten levels read, an eleventh refused)
  n('slo.empty.get', GET('/{c}/slo'), { setup: [...SEGMENTS, PUT('/{c}/slo?multipart-manifest=put', { body: '[]' })] }),
  n('slo.empty.head', HEAD('/{c}/slo'), { setup: [...SEGMENTS, PUT('/{c}/slo?multipart-manifest=put', { body: '[]' })] }),
  n('slo.of-slo.manifest', GET('/{c}/outer?multipart-manifest=get'), {
    setup: [...SLO, PUT('/{c}/outer?multipart-manifest=put', { body: manifest([{ path: '/{c}/slo' }, { path: '/{c}/seg/1' }]) })],
    compare: { presence: ['etag'] },
  }),
  n('slo.nested.ten-levels', GET('/{c}/l10'), { setup: NESTED(10) }),
  n('slo.nested.eleven-levels', GET('/{c}/l11'), { setup: NESTED(11) }),
  n('slo.nested.eleven-levels.head', HEAD('/{c}/l11'), { setup: NESTED(11) }),
  n('slo.listing.xml', GET('/{c}?format=xml&prefix=slo'), { setup: SLO }),
  n('slo.copy', PUT('/{c}/copy', { headers: { 'X-Copy-From': '{c}/slo' } }), { setup: SLO }),
  n('slo.copy.manifest', HEAD('/{c}/copy'), { setup: [...SLO, PUT('/{c}/copy?multipart-manifest=get', { headers: { 'X-Copy-From': '{c}/slo' } })] }),
  n('slo.copy.manifest-get', GET('/{c}/copy'), { setup: [...SLO, PUT('/{c}/copy?multipart-manifest=get', { headers: { 'X-Copy-From': '{c}/slo' } })] }),
  n('slo.copy.manifest-verb', HEAD('/{c}/copy'), { setup: [...SLO, COPY('/{c}/slo?multipart-manifest=get', { headers: { Destination: '/{c}/copy' } })] }),
  n('dlo.copy.manifest', HEAD('/{c}/copy'), { setup: [...DLO, PUT('/{c}/copy?multipart-manifest=get', { headers: { 'X-Copy-From': '{c}/dlo' } })] }),
  n('dlo.copy.manifest-get', GET('/{c}/copy'), { setup: [...DLO, PUT('/{c}/copy?multipart-manifest=get', { headers: { 'X-Copy-From': '{c}/dlo' } })] }),

  // DLO
  n('dlo.put', PUT('/{c}/dlo', { headers: { 'X-Object-Manifest': '{c}/seg/' } }), { setup: SEGMENTS }),
  n('dlo.get', GET('/{c}/dlo'), { setup: DLO }),
  n('dlo.head', HEAD('/{c}/dlo'), { setup: DLO }),
  n('dlo.get.range', GET('/{c}/dlo', { headers: { Range: 'bytes=5-14' } }), { setup: DLO }),
  n('dlo.get.manifest', GET('/{c}/dlo?multipart-manifest=get'), { setup: DLO }),
  n('dlo.empty-prefix', GET('/{c}/dlo'), { setup: [...SEGMENTS, PUT('/{c}/dlo', { headers: { 'X-Object-Manifest': '{c}/none/' } })] }),
  n('dlo.bad-manifest', PUT('/{c}/dlo', { headers: { 'X-Object-Manifest': 'no-slash' } }), { setup: SEGMENTS }),
  n('dlo.post-updates-manifest', GET('/{c}/dlo'), { setup: [...DLO, POST('/{c}/dlo', { headers: { 'X-Object-Manifest': '{c}/seg/1' } })] }),
  n('dlo.utf8-prefix', GET('/{c}/dlo'), {
    setup: [PUT('/{c}'), PUT('/{c}/%C3%A9/1', { body: SEG_A }), PUT('/{c}/dlo', { headers: { 'X-Object-Manifest': '{c}/%C3%A9/' } })],
  }),
  n('dlo.utf8-prefix-raw', GET('/{c}/dlo'), {
    setup: [PUT('/{c}'), PUT('/{c}/%C3%A9/1', { body: SEG_A }), PUT('/{c}/dlo', { headers: { 'X-Object-Manifest': '{c}/\u00c3\u00a9/' } })],
  }),
  n('dlo.post-clears-manifest', GET('/{c}/dlo'), { setup: [...DLO, POST('/{c}/dlo', { headers: { 'X-Object-Meta-Kept': 'no' } })] }),
  n('dlo.post-makes-manifest', GET('/{c}/plain'), { setup: [...SEGMENTS, PUT('/{c}/plain', { body: 'own' }), POST('/{c}/plain', { headers: { 'X-Object-Manifest': '{c}/seg/' } })] }),
  n('dlo.post-bad-manifest', POST('/{c}/dlo', { headers: { 'X-Object-Manifest': 'no-slash' } }), { setup: DLO }),

  // bulk delete
  n('bulk.delete', POST('?bulk-delete', { body: '/{c}/a\n/{c}/b\n/{c}/nope\n', headers: { 'Content-Type': 'text/plain' } }), {
    setup: [PUT('/{c}'), PUT('/{c}/a', { body: 'a' }), PUT('/{c}/b', { body: 'b' })],
  }),
  n('bulk.delete.json', POST('?bulk-delete', { body: '/{c}/a\n/{c}\n', headers: { 'Content-Type': 'text/plain', Accept: 'application/json' } }), {
    setup: [PUT('/{c}'), PUT('/{c}/a', { body: 'a' })],
  }),
  n('bulk.delete.container-not-empty', POST('?bulk-delete', { body: '/{c}\n', headers: { 'Content-Type': 'text/plain', Accept: 'application/json' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.delete-method', DELETE('?bulk-delete', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain', Accept: 'application/json' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.encoded', POST('?bulk-delete', { body: '/{c}/a%20b\n', headers: { 'Content-Type': 'text/plain', Accept: 'application/json' } }), {
    setup: [PUT('/{c}'), PUT('/{c}/a%20b', { body: 'a' })],
  }),
  n('bulk.delete.empty', POST('?bulk-delete', { body: '', headers: { 'Content-Type': 'text/plain', Accept: 'application/json' } })),
  // The report in the XML type asked for (Swift's bulk: the offered type Accept picked).
  n('bulk.delete.text-xml', POST('?bulk-delete', { body: '/{c}/obj\n/{c}/nope\n', headers: { 'Content-Type': 'text/plain', Accept: 'text/xml' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.application-xml', POST('?bulk-delete', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain', Accept: 'application/xml' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.xml-preference', POST('?bulk-delete', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain', Accept: 'text/xml;q=0.9, application/xml;q=0.5' } }), { setup: OWN_C_OBJ }),
  // One reading of Accept for listings and reports (native/accept.ts): qualities count, a type none
  // of the offers matches is 406, and `format=` is a listing's parameter, not bulk delete's.
  n('bulk.delete.quality', POST('?bulk-delete', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain', Accept: 'application/json;q=0.4, text/plain;q=0.8' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.not-acceptable', POST('?bulk-delete', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain', Accept: 'image/png' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.format-query', POST('?bulk-delete&format=json', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.wildcard-type', POST('?bulk-delete', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain', Accept: 'application/*' } }), { setup: OWN_C_OBJ }),
  n('bulk.delete.bad-accept', POST('?bulk-delete', { body: '/{c}/obj\n', headers: { 'Content-Type': 'text/plain', Accept: 'json' } }), { setup: OWN_C_OBJ }),

  // TempURL
  n('tempurl.get', GET('/{c}/obj', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.head', HEAD('/{c}/obj', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.head-signed-for-get', HEAD('/{c}/obj', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300, method: 'GET' } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.put', PUT('/{c}/new', { as: 'anonymous', body: 'via temp url', tempUrl: { key: TEMP_KEY, expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.expired', GET('/{c}/obj', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: -60 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.wrong-key', GET('/{c}/obj', { as: 'anonymous', tempUrl: { key: 'wrong', expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.wrong-method', DELETE('/{c}/obj', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300, method: 'GET' } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.missing-object', GET('/{c}/nope', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.inline', GET('/{c}/obj?inline', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.filename', GET('/{c}/obj?filename=report.txt', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),
  n('tempurl.container-path', GET('/{c}', { as: 'anonymous', tempUrl: { key: TEMP_KEY, expires: 300 } }), { ...NO_RGW, setup: [WITH_KEY, ...OWN_C_OBJ] }),

];
