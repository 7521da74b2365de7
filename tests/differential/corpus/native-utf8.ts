// Native API: non-ASCII names and texts as bytes on the wire — raw UTF-8 in the request line
// (not percent-encoded), in X-Copy-From, Content-Type and metadata, and invalid UTF-8 in a path.
// Node's client sends a string's characters U+0080-U+00FF as single bytes, so `latin1(…)` below
// writes the UTF-8 bytes of a text as they travel.
import type { Row } from '../types.js';
import { COPY, GET, HEAD, n, OWN_C, POST, PUT } from './helpers.js';

/** The UTF-8 bytes of `text` as the string Node writes byte for byte. */
const latin1 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

const CAFE = latin1('café');
const put = (path: string, body = 'x', headers: Record<string, string> = {}) => PUT(path, { body, headers: { 'Content-Type': 'text/plain', ...headers } });
const RAW_OBJ = [...OWN_C, put(`/{c}/${CAFE}`, 'e')];

export const NATIVE_UTF8_ROWS: Row[] = [
  // names as raw bytes in the request line
  n('utf8.raw.put', put(`/{c}/${CAFE}`, 'e'), { setup: OWN_C }),
  n('utf8.raw.get-escaped', GET('/{c}/caf%C3%A9'), { setup: RAW_OBJ }),
  n('utf8.raw.get-raw', GET(`/{c}/${CAFE}`), { setup: [...OWN_C, put('/{c}/caf%C3%A9', 'e')] }),
  n('utf8.raw.head', HEAD(`/{c}/${CAFE}`), { setup: RAW_OBJ }),
  n('utf8.raw.listing', GET('/{c}?format=json'), { setup: RAW_OBJ }),
  n('utf8.raw.listing-prefix', GET(`/{c}?format=json&prefix=${latin1('ca')}`), { setup: RAW_OBJ }),
  n('utf8.raw.container', PUT(`/{c}-${latin1('été')}`)),
  n('utf8.raw.deep-name', put(`/{c}/${latin1('日本/語')}`, 'j'), { setup: OWN_C }),
  n('utf8.raw.invalid', GET('/{c}/caf\u00ff'), { setup: OWN_C }),
  n('utf8.raw.invalid-put', put('/{c}/\u00c3\u0028'), { setup: OWN_C }),
  n('utf8.escaped.nul', GET('/{c}/a%00b'), { setup: OWN_C }),
  n('copy.utf8-raw-destination', COPY(`/{c}/${CAFE}`, { headers: { Destination: `/{c}/${latin1('dé')}` } }), { setup: RAW_OBJ }),
  // X-Copy-From with the name's raw bytes
  n('copy.from-utf8-raw', PUT('/{c}/dst', { headers: { 'X-Copy-From': `{c}/${CAFE}` } }), { setup: RAW_OBJ }),
  n('copy.from-utf8-raw-read-back', GET('/{c}/dst'), { setup: [...RAW_OBJ, PUT('/{c}/dst', { headers: { 'X-Copy-From': `{c}/${CAFE}` } })] }),
  // Content-Type and metadata byte for byte
  n('utf8.content-type', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'Content-Type': `text/plain; title=${latin1('Grüße')}` })] }),
  n('utf8.content-type-listing', GET('/{c}?format=json'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'Content-Type': `text/plain; title=${latin1('Grüße')}` })] }),
  n('utf8.meta.head', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'X-Object-Meta-City': latin1('München'), 'X-Object-Meta-Sym': latin1('✓ 日本') })] }),
  n('utf8.meta.get', GET('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'X-Object-Meta-City': latin1('München') })] }),
  n('utf8.meta.post', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x'), POST('/{c}/x', { headers: { 'X-Object-Meta-City': latin1('Zürich') } })] }),
  n('utf8.meta.invalid', HEAD('/{c}/x'), { setup: [...OWN_C, put('/{c}/x', 'x', { 'X-Object-Meta-Bytes': 'a\u00ffb' })] }),
  n('utf8.meta.container', HEAD('/{c}'), { setup: [...OWN_C, POST('/{c}', { headers: { 'X-Container-Meta-City': latin1('Köln') } })] }),
];
