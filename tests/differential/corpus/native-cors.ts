// Native API: container CORS (issue 26, part 4), OPTIONS as Swift's proxy answers it, and the
// CORS answer on actual requests (Swift's cors_validation, strict_cors_mode).
import type { Req, Row } from '../types.js';
import { COPY, DELETE, GET, HEAD, n, OBJ_BODY, POST, PUT } from './helpers.js';

const CORS_C = (origin: string): Req[] => [PUT('/{c}', { headers: { 'X-Container-Meta-Access-Control-Allow-Origin': origin, 'X-Container-Meta-Access-Control-Max-Age': '300' } })];
/** A container allowing `origin` and exposing two headers of its own, with an object carrying metadata. */
const CORS_OBJ = (origin: string): Req[] => [
  PUT('/{c}', { headers: { 'X-Container-Meta-Access-Control-Allow-Origin': origin, 'X-Container-Meta-Access-Control-Expose-Headers': 'X-Custom-One  x-custom-two' } }),
  PUT('/{c}/obj', { body: OBJ_BODY, headers: { 'Content-Type': 'text/plain', 'X-Object-Meta-Color': 'red' } }),
];
const FROM_A = { Origin: 'https://a.example' };
const NO_RGW_VERSIONS = { skip: { 'rgw-swift': 'Ceph RGW 16.2 has no X-Versions-Enabled (object versioning)' } };
const options = (path: string, headers: Record<string, string>): Req => ({ method: 'OPTIONS', path, as: 'anonymous', headers });

export const NATIVE_CORS_ROWS: Row[] = [
  n('cors.preflight.match', options('/{c}/obj', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }), { setup: CORS_C('https://a.example https://b.example') }),
  n('cors.preflight.any', options('/{c}', { Origin: 'https://z.example', 'Access-Control-Request-Method': 'PUT' }), { setup: CORS_C('*') }),
  n('cors.preflight.wrong-origin', options('/{c}/obj', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' }), { setup: CORS_C('https://a.example') }),
  n('cors.preflight.wrong-method', options('/{c}/obj', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'PATCH' }), { setup: CORS_C('https://a.example') }),
  n('cors.preflight.no-cors', options('/{c}/obj', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }), { setup: [PUT('/{c}')] }),
  n('cors.options.plain', options('/{c}/obj', {}), { setup: [PUT('/{c}')] }),
  // Swift matches origins as listed: no wildcard inside one.
  n('cors.preflight.wildcard-origin', options('/{c}/obj', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }), { setup: CORS_C('https://*.example') }),

  // actual requests: the answer, errors included, carries the container's CORS answer
  n('cors.get.match', GET('/{c}/obj', { headers: FROM_A }), { setup: CORS_OBJ('https://b.example https://a.example') }),
  n('cors.get.any', GET('/{c}/obj', { headers: { Origin: 'https://z.example' } }), { setup: CORS_OBJ('*') }),
  n('cors.get.any-among-others', GET('/{c}/obj', { headers: { Origin: 'https://z.example' } }), { setup: CORS_OBJ('https://a.example *') }),
  n('cors.get.wrong-origin', GET('/{c}/obj', { headers: { Origin: 'https://evil.example' } }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.wildcard-origin', GET('/{c}/obj', { headers: FROM_A }), { setup: CORS_OBJ('https://*.example') }),
  n('cors.get.no-cors', GET('/{c}/obj', { headers: FROM_A }), { setup: [PUT('/{c}'), PUT('/{c}/obj', { body: OBJ_BODY })] }),
  n('cors.get.missing-object', GET('/{c}/nope', { headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.missing-container', GET('/{c}/nope', { headers: FROM_A })),
  n('cors.get.range', GET('/{c}/obj', { headers: { ...FROM_A, Range: 'bytes=0-3' } }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.anonymous', GET('/{c}/obj', { as: 'anonymous', headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.bad-token', GET('/{c}/obj', { as: 'bad-token', headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.other-user', GET('/{c}/obj', { as: 'other', headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.public', GET('/{c}/obj', { as: 'anonymous', headers: FROM_A }), { setup: [...CORS_OBJ('https://a.example'), POST('/{c}', { headers: { 'X-Container-Read': '.r:*' } })] }),
  n('cors.head.object', HEAD('/{c}/obj', { headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.put.object', PUT('/{c}/new', { body: 'new', headers: { ...FROM_A, 'X-Object-Meta-Shade': 'blue' } }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.post.object', POST('/{c}/obj', { headers: { ...FROM_A, 'X-Object-Meta-Shade': 'blue' } }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.delete.object', DELETE('/{c}/obj', { headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('copy.cors', COPY('/{c}/obj', { headers: { ...FROM_A, Destination: '{c}/copy' } }), { setup: CORS_OBJ('https://a.example') }),
  n('copy.cors.x-copy-from', PUT('/{c}/copy', { headers: { ...FROM_A, 'X-Copy-From': '{c}/obj' } }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.head.container', HEAD('/{c}', { headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.container', GET('/{c}?format=json', { headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.post.container', POST('/{c}', { headers: { ...FROM_A, 'X-Container-Meta-Access-Control-Allow-Origin': 'https://other.example' } }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.put.container', PUT('/{c}', { headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.delete.container-not-empty', DELETE('/{c}', { headers: FROM_A }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.put.symlink', PUT('/{c}/ln', { body: '', headers: { ...FROM_A, 'X-Symlink-Target': '{c}/obj' } }), { setup: CORS_OBJ('https://a.example') }),
  n('cors.get.versions', GET('/{c}?versions', { headers: FROM_A }), { setup: [...CORS_OBJ('https://a.example'), POST('/{c}', { headers: { 'X-Versions-Enabled': 'true' } })], ...NO_RGW_VERSIONS }),
  n('cors.head.account', HEAD('', { headers: FROM_A })),
  n('cors.get.empty-origin', GET('/{c}/obj', { headers: { Origin: '' } }), { setup: CORS_OBJ('*') }),
];
