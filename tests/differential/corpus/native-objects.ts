// Native API: objects — reads, ranges, conditionals, writes and their limits, metadata updates,
// deletes, copies (COPY and X-Copy-From), expiry.
import type { Row } from '../types.js';
import { COPY, DELETE, GET, HEAD, n, OBJ_ETAG, OWN_C, OWN_C_OBJ, POST, PUT } from './helpers.js';

const OBJ = '/{f:objects}/obj';
const WRONG_ETAG = '0123456789abcdef0123456789abcdef';

/** Range header values, each a GET (and the first few a HEAD) of the 44-byte fixture object. */
const RANGES: [name: string, value: string][] = [
  ['first-5', 'bytes=0-4'],
  ['suffix-5', 'bytes=-5'],
  ['open-end', 'bytes=40-'],
  ['past-end-clipped', 'bytes=40-100'],
  ['single-byte', 'bytes=0-0'],
  ['last-byte', 'bytes=43-43'],
  ['whole', 'bytes=0-43'],
  ['beyond', 'bytes=100-200'],
  ['start-at-size', 'bytes=44-'],
  ['suffix-larger', 'bytes=-100'],
  ['suffix-zero', 'bytes=-0'],
  ['reversed', 'bytes=5-2'],
  ['multi', 'bytes=0-1,5-6'],
  ['multi-overlapping', 'bytes=0-5,3-8'],
  ['multi-one-satisfiable', 'bytes=0-1,100-200'],
  ['junk', 'bytes=abc'],
  ['wrong-unit', 'items=0-4'],
  ['no-equals', 'bytes 0-4'],
  ['spaces', 'bytes= 0-4'],
];

/** Conditional request headers against the fixture object (its ETag is OBJ_ETAG, written before the row runs). */
const CONDITIONALS: [name: string, headers: Record<string, string>][] = [
  ['if-match', { 'If-Match': OBJ_ETAG }],
  ['if-match-quoted', { 'If-Match': `"${OBJ_ETAG}"` }],
  ['if-match-wrong', { 'If-Match': WRONG_ETAG }],
  ['if-match-star', { 'If-Match': '*' }],
  ['if-match-list', { 'If-Match': `"${WRONG_ETAG}", "${OBJ_ETAG}"` }],
  ['if-none-match', { 'If-None-Match': OBJ_ETAG }],
  ['if-none-match-wrong', { 'If-None-Match': WRONG_ETAG }],
  ['if-none-match-star', { 'If-None-Match': '*' }],
  ['if-modified-since-future', { 'If-Modified-Since': '{http-date+3600}' }],
  ['if-modified-since-past', { 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' }],
  ['if-modified-since-junk', { 'If-Modified-Since': 'yesterday' }],
  ['if-unmodified-since-past', { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' }],
  ['if-unmodified-since-future', { 'If-Unmodified-Since': '{http-date+3600}' }],
  ['if-match-and-unmodified-past', { 'If-Match': OBJ_ETAG, 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' }],
  ['if-none-match-and-modified-future', { 'If-None-Match': WRONG_ETAG, 'If-Modified-Since': '{http-date+3600}' }],
  ['if-none-match-with-range', { 'If-None-Match': OBJ_ETAG, Range: 'bytes=0-4' }],
  ['if-match-wrong-with-range', { 'If-Match': WRONG_ETAG, Range: 'bytes=0-4' }],
  ['if-range-etag', { 'If-Range': OBJ_ETAG, Range: 'bytes=0-4' }],
  ['if-range-wrong', { 'If-Range': WRONG_ETAG, Range: 'bytes=0-4' }],
];

const put = (path: string, body = 'x', headers: Record<string, string> = {}) => PUT(path, { body, headers: { 'Content-Type': 'text/plain', ...headers } });

export const NATIVE_OBJECT_ROWS: Row[] = [
  // reads
  n('object.get', GET(OBJ)),
  n('object.head', HEAD(OBJ)),
  n('object.get.empty', GET('/{f:objects}/empty')),
  n('object.head.empty', HEAD('/{f:objects}/empty')),
  n('object.get.binary', GET('/{f:objects}/data.bin')),
  n('object.get.typed-by-name', GET('/{f:objects}/typed.json')),
  n('object.get.spaces', GET('/{f:objects}/dir/name%20with%20spaces')),
  n('object.get.missing', GET('/{f:objects}/nope')),
  n('object.head.missing', HEAD('/{f:objects}/nope')),
  n('object.get.missing-container', GET('/{c}/nope')),
  n('object.get.prefix-of-name', GET('/{f:objects}/ob')),
  n('object.get.trailing-slash', GET('/{f:objects}/obj/')),
  n('object.get.invalid-utf8', GET('/{f:objects}/%FF')),
  n('object.get.nul', GET('/{f:objects}/a%00b')),
  n('object.get.multipart-manifest-get', GET(`${OBJ}?multipart-manifest=get`)),
  n('object.options', { method: 'OPTIONS', path: OBJ, headers: { Origin: 'http://example.com', 'Access-Control-Request-Method': 'GET' } }),
  n('object.patch', { method: 'PATCH', path: OBJ }),
  ...RANGES.map(([name, value]) => n(`range.get.${name}`, GET(OBJ, { headers: { Range: value } }))),
  ...RANGES.slice(0, 4).map(([name, value]) => n(`range.head.${name}`, HEAD(OBJ, { headers: { Range: value } }))),
  n('range.empty-object', GET('/{f:objects}/empty', { headers: { Range: 'bytes=0-4' } })),
  n('range.empty-object-suffix', GET('/{f:objects}/empty', { headers: { Range: 'bytes=-5' } })),
  n('range.binary-middle', GET('/{f:objects}/data.bin', { headers: { Range: 'bytes=1000-1999' } })),
  ...CONDITIONALS.map(([name, headers]) => n(`conditional.get.${name}`, GET(OBJ, { headers }))),
  ...CONDITIONALS.slice(0, 9).map(([name, headers]) => n(`conditional.head.${name}`, HEAD(OBJ, { headers }))),

  // writes
  n('put', put('/{c}/x', 'hello'), { setup: OWN_C }),
  n('put.read-back', GET('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'hello', { 'X-Object-Meta-One': '1', 'X-Object-Meta-Two': 'two words' })] }),
  n('put.etag-right', put('/{c}/x', 'hello', { ETag: '5d41402abc4b2a76b9719d911017c592' }), { setup: OWN_C }),
  n('put.etag-right-quoted', put('/{c}/x', 'hello', { ETag: '"5d41402abc4b2a76b9719d911017c592"' }), { setup: OWN_C }),
  n('put.etag-wrong', put('/{c}/x', 'hello', { ETag: WRONG_ETAG }), { setup: OWN_C }),
  n('put.etag-junk', put('/{c}/x', 'hello', { ETag: 'junk' }), { setup: OWN_C }),
  n('put.replace', GET('/{c}/obj'), { setup: [...OWN_C_OBJ, put('/{c}/obj', 'replaced')] }),
  n('put.no-content-type.txt', HEAD('/{c}/x.txt'), { setup: [...OWN_C, PUT('/{c}/x.txt', { body: 'x' })] }),
  n('put.no-content-type.unknown-ext', HEAD('/{c}/x.qqq'), { setup: [...OWN_C, PUT('/{c}/x.qqq', { body: 'x' })] }),
  n('put.no-content-type.no-ext', HEAD('/{c}/x'), { setup: [...OWN_C, PUT('/{c}/x', { body: 'x' })] }),
  n('put.detect-content-type', HEAD('/{c}/x.html'), { setup: [...OWN_C, put('/{c}/x.html', 'x', { 'Content-Type': 'text/plain', 'X-Detect-Content-Type': 'true' })] }),
  n('put.content-type-params', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'Content-Type': 'text/plain; charset=latin1' })] }),
  n('put.standard-headers', HEAD('/{c}/x'), {
    setup: [...OWN_C, put('/{c}/x', 'x', { 'Content-Disposition': 'attachment; filename="x.txt"', 'Content-Encoding': 'identity', 'Cache-Control': 'no-cache', 'Content-Language': 'en' })],
  }),
  n('put.chunked', PUT('/{c}/x', { body: 'chunked body', headers: { 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/plain' } }), { setup: OWN_C }),
  n('put.chunked-read-back', GET('/{c}/x'), { setup: [...OWN_C, PUT('/{c}/x', { body: 'chunked body', headers: { 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/plain' } })] }),
  n('put.transfer-encoding-gzip', PUT('/{c}/x', { body: 'x', headers: { 'Transfer-Encoding': 'gzip, chunked' } }), { setup: OWN_C }),
  n('put.empty', put('/{c}/x', ''), { setup: OWN_C }),
  n('put.missing-container', put('/{c}/x')),
  n('put.name-1024', put(`/{c}/${'o'.repeat(1024)}`), { setup: OWN_C }),
  n('put.name-1025', put(`/{c}/${'o'.repeat(1025)}`), { setup: OWN_C }),
  n('put.name-utf8', put('/{c}/%C3%A9t%C3%A9/%E2%9C%93'), { setup: OWN_C }),
  n('put.name-invalid-utf8', put('/{c}/%FF%FE'), { setup: OWN_C }),
  n('put.name-dot-segments', put('/{c}/a/../b'), { setup: OWN_C }),
  n('put.name-double-slash', put('/{c}/a//b'), { setup: OWN_C }),
  n('put.name-trailing-slash', put('/{c}/folder/', ''), { setup: OWN_C }),
  n('put.name-percent', put('/{c}/100%25'), { setup: OWN_C }),
  n('put.meta-read-back', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'X-Object-Meta-Mixed-Case': 'Value', 'X-Object-Meta-Percent': '%C3%A9', 'X-Object-Meta-Empty': '' })] }),
  n('put.meta-name-128', put('/{c}/x', 'x', { [`X-Object-Meta-${'k'.repeat(128)}`]: 'v' }), { setup: OWN_C }),
  n('put.meta-name-129', put('/{c}/x', 'x', { [`X-Object-Meta-${'k'.repeat(129)}`]: 'v' }), { setup: OWN_C }),
  n('put.meta-value-256', put('/{c}/x', 'x', { 'X-Object-Meta-Long': 'v'.repeat(256) }), { setup: OWN_C }),
  n('put.meta-value-257', put('/{c}/x', 'x', { 'X-Object-Meta-Long': 'v'.repeat(257) }), { setup: OWN_C }),
  n('put.meta-count-90', put('/{c}/x', 'x', Object.fromEntries(Array.from({ length: 90 }, (_, i) => [`X-Object-Meta-K${i}`, 'v']))), { setup: OWN_C }),
  n('put.meta-count-91', put('/{c}/x', 'x', Object.fromEntries(Array.from({ length: 91 }, (_, i) => [`X-Object-Meta-K${i}`, 'v']))), { setup: OWN_C }),
  // 18 × (3 + 237) = 4320 bytes of names and values, past Swift's 4096. (An object that keeps
  // close to 4 KiB of metadata cannot be stored by Swift on ext4, where its xattrs do not fit: 507.)
  n('put.meta-overall-too-large', put('/{c}/x', 'x', Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`X-Object-Meta-K${String(i).padStart(2, '0')}`, 'v'.repeat(237)]))), { setup: OWN_C }),
  n('put.if-none-match-star-new', put('/{c}/x', 'x', { 'If-None-Match': '*' }), { setup: OWN_C }),
  n('put.if-none-match-star-existing', put('/{c}/obj', 'x', { 'If-None-Match': '*' }), { setup: OWN_C_OBJ }),
  n('put.if-none-match-etag', put('/{c}/obj', 'x', { 'If-None-Match': OBJ_ETAG }), { setup: OWN_C_OBJ }),
  n('put.if-match', put('/{c}/obj', 'x', { 'If-Match': OBJ_ETAG }), { setup: OWN_C_OBJ }),
  n('put.delete-after', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'X-Delete-After': '3600' })] }),
  n('put.delete-at', put('/{c}/x', 'x', { 'X-Delete-At': '{epoch+3600}' }), { setup: OWN_C }),
  n('put.delete-at-past', put('/{c}/x', 'x', { 'X-Delete-At': '1000000000' }), { setup: OWN_C }),
  n('put.delete-at-junk', put('/{c}/x', 'x', { 'X-Delete-At': 'soon' }), { setup: OWN_C }),
  n('put.delete-after-negative', put('/{c}/x', 'x', { 'X-Delete-After': '-5' }), { setup: OWN_C }),
  n('put.delete-at-and-after', put('/{c}/x', 'x', { 'X-Delete-At': '{epoch+3600}', 'X-Delete-After': '60' }), { setup: OWN_C }),
  n('put.no-length', PUT('/{c}/x', { headers: { 'Content-Length': '', 'Content-Type': 'text/plain' } }), { setup: OWN_C }),

  // metadata updates
  n('post', POST('/{c}/obj', { headers: { 'X-Object-Meta-New': 'new' } }), { setup: OWN_C_OBJ }),
  n('post.read-back', HEAD('/{c}/obj'), { setup: [...OWN_C_OBJ, POST('/{c}/obj', { headers: { 'X-Object-Meta-New': 'new' } })] }),
  n('post.content-type', HEAD('/{c}/obj'), { setup: [...OWN_C_OBJ, POST('/{c}/obj', { headers: { 'Content-Type': 'application/x-changed' } })] }),
  n('post.remove-meta', HEAD('/{c}/obj'), { setup: [...OWN_C_OBJ, POST('/{c}/obj', { headers: { 'X-Remove-Object-Meta-Color': 'x' } })] }),
  n('post.delete-after', HEAD('/{c}/obj'), { setup: [...OWN_C_OBJ, POST('/{c}/obj', { headers: { 'X-Delete-After': '3600' } })] }),
  n('post.delete-at-past', POST('/{c}/obj', { headers: { 'X-Delete-At': '1000000000' } }), { setup: OWN_C_OBJ }),
  n('post.missing', POST('/{c}/nope', { headers: { 'X-Object-Meta-New': 'new' } }), { setup: OWN_C }),
  n('post.meta-too-long', POST('/{c}/obj', { headers: { 'X-Object-Meta-Long': 'v'.repeat(257) } }), { setup: OWN_C_OBJ }),
  n('post.keeps-standard-headers', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'Content-Disposition': 'inline' }), POST('/{c}/x', { headers: { 'X-Object-Meta-A': 'b' } })] }),

  // deletes
  n('delete', DELETE('/{c}/obj'), { setup: OWN_C_OBJ }),
  n('delete.twice', DELETE('/{c}/obj'), { setup: [...OWN_C_OBJ, DELETE('/{c}/obj')] }),
  n('delete.missing', DELETE('/{c}/nope'), { setup: OWN_C }),
  n('delete.missing-container', DELETE('/{c}/nope')),
  n('delete.then-get', GET('/{c}/obj'), { setup: [...OWN_C_OBJ, DELETE('/{c}/obj')] }),
  n('delete.if-delete-at-wrong', DELETE('/{c}/obj', { headers: { 'X-If-Delete-At': '1000000000' } }), { setup: OWN_C_OBJ }),

  // copies
  n('copy.destination', COPY('/{c}/obj', { headers: { Destination: '/{c}/dst' } }), { setup: OWN_C_OBJ }),
  n('copy.destination-no-slash', COPY('/{c}/obj', { headers: { Destination: '{c}/dst' } }), { setup: OWN_C_OBJ }),
  n('copy.destination-read-back', HEAD('/{c}/dst'), { setup: [...OWN_C_OBJ, COPY('/{c}/obj', { headers: { Destination: '/{c}/dst', 'X-Object-Meta-Extra': 'e' } })] }),
  n('copy.destination-fresh-metadata', HEAD('/{c}/dst'), { setup: [...OWN_C_OBJ, COPY('/{c}/obj', { headers: { Destination: '/{c}/dst', 'X-Fresh-Metadata': 'true', 'X-Object-Meta-Only': 'this' } })] }),
  n('copy.destination-missing-container', COPY('/{c}/obj', { headers: { Destination: '/{c2}/dst' } }), { setup: OWN_C_OBJ }),
  n('copy.destination-missing-source', COPY('/{c}/nope', { headers: { Destination: '/{c}/dst' } }), { setup: OWN_C }),
  n('copy.destination-bad', COPY('/{c}/obj', { headers: { Destination: 'nocontainer' } }), { setup: OWN_C_OBJ }),
  n('copy.destination-none', COPY('/{c}/obj'), { setup: OWN_C_OBJ }),
  n('copy.destination-if-match-wrong', COPY('/{c}/obj', { headers: { Destination: '/{c}/dst', 'If-Match': WRONG_ETAG } }), { setup: OWN_C_OBJ }),
  n('copy.destination-if-match', COPY('/{c}/obj', { headers: { Destination: '/{c}/dst', 'If-Match': OBJ_ETAG } }), { setup: OWN_C_OBJ }),
  n('copy.destination-account', COPY('/{c}/obj', { headers: { Destination: '/{c}/dst', 'Destination-Account': '{account}' } }), { setup: OWN_C_OBJ }),
  n('copy.to-self', COPY('/{c}/obj', { headers: { Destination: '/{c}/obj' } }), { setup: OWN_C_OBJ }),
  n('copy.to-self-read-back', HEAD('/{c}/obj'), { setup: [...OWN_C_OBJ, COPY('/{c}/obj', { headers: { Destination: '/{c}/obj' } })] }),
  n('copy.from', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/obj' } }), { setup: OWN_C_OBJ }),
  n('copy.from-leading-slash', PUT('/{c}/dst', { headers: { 'X-Copy-From': '/{c}/obj' } }), { setup: OWN_C_OBJ }),
  n('copy.from-read-back', GET('/{c}/dst'), { setup: [...OWN_C_OBJ, PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/obj', 'Content-Type': 'application/x-new' } })] }),
  n('copy.from-missing', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/nope' } }), { setup: OWN_C }),
  n('copy.from-bad', PUT('/{c}/dst', { headers: { 'X-Copy-From': 'noslash' } }), { setup: OWN_C }),
  n('copy.from-with-body', PUT('/{c}/dst', { body: 'body', headers: { 'X-Copy-From': '{c}/obj' } }), { setup: OWN_C_OBJ }),
  n('copy.from-utf8', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/%C3%A9' } }), { setup: [...OWN_C, put('/{c}/%C3%A9', 'e')] }),
  n('copy.from-space', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/a%20b' } }), { setup: [...OWN_C, put('/{c}/a%20b', 'e')] }),
  n('copy.from-range', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/obj', Range: 'bytes=0-3' } }), { setup: OWN_C_OBJ }),
  n('copy.from-account', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/obj', 'X-Copy-From-Account': '{account}' } }), { setup: OWN_C_OBJ }),
  n('copy.from-other-account', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c2}/theirs', 'X-Copy-From-Account': '{other-account}' } }), {
    setup: [...OWN_C, PUT('/{c2}', { at: 'other', as: 'other' }), PUT('/{c2}/theirs', { at: 'other', as: 'other', body: 'theirs' })],
  }),
  n('copy.from-other-account-shared', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c2}/theirs', 'X-Copy-From-Account': '{other-account}' } }), {
    setup: [...OWN_C, PUT('/{c2}', { at: 'other', as: 'other', headers: { 'X-Container-Read': '.r:*' } }), PUT('/{c2}/theirs', { at: 'other', as: 'other', body: 'theirs' })],
  }),
  // cross-account copies: read on the source and write on the destination, decided before anything is looked up
  n('copy.destination-other-account', COPY('/{c}/obj', { headers: { Destination: '/{c2}/dst', 'Destination-Account': '{other-account}' } }), {
    setup: [...OWN_C_OBJ, PUT('/{c2}', { at: 'other', as: 'other' })],
  }),
  n('copy.destination-other-account-granted', COPY('/{c}/obj', { headers: { Destination: '/{c2}/dst', 'Destination-Account': '{other-account}' } }), {
    setup: [...OWN_C_OBJ, PUT('/{c2}', { at: 'other', as: 'other', headers: { 'X-Container-Write': '{user}' } })],
  }),
  n('copy.destination-other-account-read-back', GET('/{c2}/dst', { at: 'other', as: 'other' }), {
    setup: [...OWN_C_OBJ, PUT('/{c2}', { at: 'other', as: 'other', headers: { 'X-Container-Write': '{user}' } }), COPY('/{c}/obj', { headers: { Destination: '/{c2}/dst', 'Destination-Account': '{other-account}' } })],
  }),
  n('copy.destination-other-account-missing-source', COPY('/{c}/nope', { headers: { Destination: '/{c2}/dst', 'Destination-Account': '{other-account}' } }), {
    setup: [...OWN_C, PUT('/{c2}', { at: 'other', as: 'other', headers: { 'X-Container-Write': '{user}' } })],
  }),
  n('copy.destination-other-account-no-container', COPY('/{c}/obj', { headers: { Destination: '/{c2}/dst', 'Destination-Account': '{other-account}' } }), { setup: OWN_C_OBJ }),
  n('copy.from-other-account-user-acl', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c2}/theirs', 'X-Copy-From-Account': '{other-account}' } }), {
    setup: [...OWN_C, PUT('/{c2}', { at: 'other', as: 'other', headers: { 'X-Container-Read': '{user}' } }), PUT('/{c2}/theirs', { at: 'other', as: 'other', body: 'theirs' })],
  }),
  n('copy.from-other-account-user-acl-missing', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c2}/nope', 'X-Copy-From-Account': '{other-account}' } }), {
    setup: [...OWN_C, PUT('/{c2}', { at: 'other', as: 'other', headers: { 'X-Container-Read': '{user}' } })],
  }),
  n('copy.from-other-account-missing', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c2}/nope', 'X-Copy-From-Account': '{other-account}' } }), {
    setup: [...OWN_C, PUT('/{c2}', { at: 'other', as: 'other' })],
  }),
  n('copy.from-empty', PUT('/{c}/dst', { headers: { 'X-Copy-From': '{c}/empty' } }), { setup: [...OWN_C, put('/{c}/empty', '')] }),
  n('copy.post-as-copy-body', GET('/{c}/dst'), { setup: [...OWN_C_OBJ, COPY('/{c}/obj', { headers: { Destination: '/{c}/dst' } })] }),
];
