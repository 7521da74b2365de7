// Native API: Swift's symlink middleware (links, static links, following, listings, copies, POST)
// and its staticweb middleware (index pages, listings, error pages, redirects). RGW's Swift API
// has neither: it is not asked.
import type { Req, Row } from '../types.js';
import { COPY, DELETE, GET, HEAD, n, OBJ_ETAG, OWN_C, OWN_C_OBJ, POST, PUT } from './helpers.js';

const NO_RGW = { skip: { 'rgw-swift': "RGW's Swift API has no symlinks and serves static websites only on its own website endpoint" } };

/** A zero-byte link PUT. */
const link = (at: string, target: string, headers: Record<string, string> = {}): Req => PUT(at, { body: '', headers: { 'X-Symlink-Target': target, 'Content-Type': 'application/symlink', ...headers } });
const LINKED = [...OWN_C_OBJ, link('/{c}/ln', '{c}/obj')];
const STATIC = [...OWN_C_OBJ, PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/obj', 'X-Symlink-Target-Etag': OBJ_ETAG } })];

const SYMLINK_ROWS: Row[] = [
  // creating links
  n('symlink.put', link('/{c}/link', '{c}/obj'), { setup: OWN_C_OBJ }),
  n('symlink.put.default-type', PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/obj' } }), { setup: OWN_C_OBJ }),
  n('symlink.put.default-type.read', HEAD('/{c}/ln?symlink=get'), { setup: [...OWN_C_OBJ, PUT('/{c}/ln', { headers: { 'X-Symlink-Target': '{c}/obj' } })] }),
  n('symlink.put.dangling', link('/{c}/ln', '{c}/nothing-yet'), { setup: OWN_C }),
  n('symlink.put.body', PUT('/{c}/ln', { body: 'not empty', headers: { 'X-Symlink-Target': '{c}/obj' } }), { setup: OWN_C_OBJ }),
  n('symlink.put.leading-slash', link('/{c}/ln', '/{c}/obj'), { setup: OWN_C_OBJ }),
  n('symlink.put.no-object', link('/{c}/ln', '{c}'), { setup: OWN_C_OBJ }),
  n('symlink.put.empty-object', link('/{c}/ln', '{c}/'), { setup: OWN_C_OBJ }),
  n('symlink.put.itself', link('/{c}/ln', '{c}/ln'), { setup: OWN_C }),
  n('symlink.put.itself-by-account', link('/{c}/ln', '{c}/ln', { 'X-Symlink-Target-Account': '{account}' }), { setup: OWN_C }),
  n('symlink.put.account', link('/{c}/ln', '{c}/obj', { 'X-Symlink-Target-Account': '{account}' }), { setup: OWN_C_OBJ }),
  n('symlink.put.account-empty', link('/{c}/ln', '{c}/obj', { 'X-Symlink-Target-Account': '' }), { setup: OWN_C_OBJ }),
  n('symlink.put.account-slash', link('/{c}/ln', '{c}/obj', { 'X-Symlink-Target-Account': 'a/b' }), { setup: OWN_C_OBJ }),
  n('symlink.put.encoded-target', link('/{c}/ln', '{c}/a%20b'), { setup: [...OWN_C, PUT('/{c}/a%20b', { body: 'spaced' })] }),
  n('symlink.put.encoded-target.read', GET('/{c}/ln'), { setup: [...OWN_C, PUT('/{c}/a%20b', { body: 'spaced' }), link('/{c}/ln', '{c}/a%20b')] }),
  // reading through them
  n('symlink.get', GET('/{c}/link'), { setup: [...OWN_C_OBJ, link('/{c}/link', '{c}/obj')] }),
  n('symlink.head', HEAD('/{c}/ln'), { setup: LINKED }),
  n('symlink.get-link-itself', HEAD('/{c}/link?symlink=get'), { setup: [...OWN_C_OBJ, link('/{c}/link', '{c}/obj')] }),
  n('symlink.get.symlink-get', GET('/{c}/ln?symlink=get'), { setup: LINKED }),
  n('symlink.get.symlink-other-value', GET('/{c}/ln?symlink=true'), { setup: LINKED }),
  n('symlink.get.range', GET('/{c}/ln', { headers: { Range: 'bytes=0-2' } }), { setup: LINKED }),
  n('symlink.get.if-none-match', GET('/{c}/ln', { headers: { 'If-None-Match': OBJ_ETAG } }), { setup: LINKED }),
  n('symlink.get.missing-target', GET('/{c}/ln'), { setup: [...OWN_C, link('/{c}/ln', '{c}/gone')] }),
  n('symlink.head.missing-target', HEAD('/{c}/ln'), { setup: [...OWN_C, link('/{c}/ln', '{c}/gone')] }),
  n('symlink.get.missing-container', GET('/{c}/ln'), { setup: [...OWN_C, link('/{c}/ln', '{c}-none/obj')] }),
  n('symlink.get.other-container', GET('/{c}/ln'), { setup: [...OWN_C_OBJ, PUT('/{c2}'), link('/{c2}/x', '{c}/obj'), link('/{c}/ln', '{c2}/x')] }),
  n('symlink.get.chain-2', GET('/{c}/a'), { setup: [...OWN_C_OBJ, link('/{c}/b', '{c}/obj'), link('/{c}/a', '{c}/b')] }),
  n('symlink.get.chain-3', GET('/{c}/a'), { setup: [...OWN_C_OBJ, link('/{c}/c', '{c}/obj'), link('/{c}/b', '{c}/c'), link('/{c}/a', '{c}/b')] }),
  n('symlink.head.chain-3', HEAD('/{c}/a'), { setup: [...OWN_C_OBJ, link('/{c}/c', '{c}/obj'), link('/{c}/b', '{c}/c'), link('/{c}/a', '{c}/b')] }),
  n('symlink.get.loop', GET('/{c}/a'), { setup: [...OWN_C, link('/{c}/a', '{c}/b'), link('/{c}/b', '{c}/a')] }),
  // as the caller: the target's container decides
  n('symlink.access.anonymous-private-target', GET('/{c}/ln', { as: 'anonymous' }), {
    setup: [PUT('/{c}', { headers: { 'X-Container-Read': '.r:*' } }), PUT('/{c2}'), PUT('/{c2}/obj', { body: 'secret' }), link('/{c}/ln', '{c2}/obj')],
  }),
  n('symlink.access.other-private-target', GET('/{c}/ln', { as: 'other' }), {
    setup: [PUT('/{c}', { headers: { 'X-Container-Read': '.r:*' } }), PUT('/{c2}'), PUT('/{c2}/obj', { body: 'secret' }), link('/{c}/ln', '{c2}/obj')],
  }),
  n('symlink.access.anonymous-public-target', GET('/{c}/ln', { as: 'anonymous' }), {
    setup: [PUT('/{c}', { headers: { 'X-Container-Read': '.r:*' } }), PUT('/{c}/obj', { body: 'public' }), link('/{c}/ln', '{c}/obj')],
  }),
  n('symlink.access.private-link-public-target', GET('/{c2}/ln', { as: 'anonymous' }), {
    setup: [PUT('/{c}', { headers: { 'X-Container-Read': '.r:*' } }), PUT('/{c}/obj', { body: 'public' }), PUT('/{c2}'), link('/{c2}/ln', '{c}/obj')],
  }),
  // listings
  n('symlink.list.json', GET('/{c}?format=json'), { setup: [...LINKED, link('/{c}/with-account', '{c}/obj', { 'X-Symlink-Target-Account': '{account}' })] }),
  n('symlink.list.xml', GET('/{c}?format=xml'), { setup: LINKED }),
  n('symlink.list.plain', GET('/{c}?format=plain'), { setup: LINKED }),
  n('symlink.container.head', HEAD('/{c}'), { setup: LINKED }),
  // static links
  n('symlink.static.put', PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/obj', 'X-Symlink-Target-Etag': OBJ_ETAG } }), { setup: OWN_C_OBJ }),
  n('symlink.static.put.quoted', PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/obj', 'X-Symlink-Target-Etag': `"${OBJ_ETAG}"` } }), { setup: OWN_C_OBJ }),
  n('symlink.static.put.wrong-etag', PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/obj', 'X-Symlink-Target-Etag': 'f'.repeat(32) } }), { setup: OWN_C_OBJ }),
  n('symlink.static.put.bad-etag', PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/obj', 'X-Symlink-Target-Etag': 'a;b' } }), { setup: OWN_C_OBJ }),
  n('symlink.static.put.missing-target', PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/gone', 'X-Symlink-Target-Etag': OBJ_ETAG } }), { setup: OWN_C }),
  n('symlink.static.put.to-dynamic', PUT('/{c}/s', { body: '', headers: { 'X-Symlink-Target': '{c}/ln', 'X-Symlink-Target-Etag': 'd41d8cd98f00b204e9800998ecf8427e' } }), { setup: LINKED }),
  n('symlink.static.put.to-dynamic-target-etag', PUT('/{c}/s', { body: '', headers: { 'X-Symlink-Target': '{c}/ln', 'X-Symlink-Target-Etag': OBJ_ETAG } }), { setup: LINKED }),
  n('symlink.static.head-itself', HEAD('/{c}/ln?symlink=get'), { setup: STATIC }),
  n('symlink.static.get', GET('/{c}/ln'), { setup: STATIC }),
  n('symlink.static.list', GET('/{c}?format=json'), { setup: STATIC }),
  n('symlink.static.target-changed', GET('/{c}/ln'), { setup: [...STATIC, PUT('/{c}/obj', { body: 'changed' })] }),
  n('symlink.static.target-deleted', HEAD('/{c}/ln'), { setup: [...STATIC, DELETE('/{c}/obj')] }),
  n('symlink.static.to-static', GET('/{c}/s2'), { setup: [...STATIC, PUT('/{c}/s2', { body: '', headers: { 'X-Symlink-Target': '{c}/ln', 'X-Symlink-Target-Etag': OBJ_ETAG } })] }),
  // other methods
  n('symlink.post', POST('/{c}/ln', { headers: { 'X-Object-Meta-Note': 'x' } }), { setup: LINKED }),
  n('symlink.post.static', POST('/{c}/ln', { headers: { 'X-Object-Meta-Note': 'x' } }), { setup: STATIC }),
  n('symlink.post.applied', HEAD('/{c}/ln?symlink=get'), { setup: [...LINKED, { ...POST('/{c}/ln', { headers: { 'X-Object-Meta-Note': 'x' } }), mayFail: true }] }),
  n('symlink.post.with-target', POST('/{c}/obj', { headers: { 'X-Symlink-Target': '{c}/other' } }), { setup: OWN_C_OBJ }),
  n('symlink.delete', DELETE('/{c}/ln'), { setup: LINKED }),
  n('symlink.delete.target-kept', GET('/{c}/obj'), { setup: [...LINKED, DELETE('/{c}/ln')] }),
  n('symlink.copy', COPY('/{c}/ln', { headers: { Destination: '/{c}/copy' } }), { setup: LINKED }),
  n('symlink.copy.read-back', HEAD('/{c}/copy?symlink=get'), { setup: [...LINKED, COPY('/{c}/ln', { headers: { Destination: '/{c}/copy' } })] }),
  n('symlink.copy.symlink-get', HEAD('/{c}/copy?symlink=get'), { setup: [...LINKED, COPY('/{c}/ln?symlink=get', { headers: { Destination: '/{c}/copy' } })] }),
  n('symlink.copy.x-copy-from', PUT('/{c}/copy', { headers: { 'X-Copy-From': '{c}/ln' } }), { setup: LINKED }),
  n('symlink.copy.missing-target', COPY('/{c}/ln', { headers: { Destination: '/{c}/copy' } }), { setup: [...OWN_C, link('/{c}/ln', '{c}/gone')] }),
  n('symlink.overwrite-with-object', GET('/{c}/ln'), { setup: [...LINKED, PUT('/{c}/ln', { body: 'plain now' })] }),
];

export const NATIVE_LINK_ROWS: Row[] = [...SYMLINK_ROWS].map((r) => ({ ...NO_RGW, ...r }));
