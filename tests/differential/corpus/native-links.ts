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

/** A TempURL key on the row's container (rows run concurrently: the account's key is shared, a container's is the row's own). */
const CONTAINER_KEY = 'differential-container-key';
/** A link in {c} to an object in another container, {c}-t. */
const CROSS = [...OWN_C, PUT('/{c}-t'), PUT('/{c}-t/obj', { body: 'elsewhere' }), link('/{c}/ln', '{c}-t/obj')];
const ACCOUNT_TEMP_KEY = 'differential-temp-url-key';

const SYMLINK_ROWS: Row[] = [
  // A TempURL reaches a link's target only within its key's scope (Swift: a container key its container, an account key its account).
  n('symlink.tempurl.same-container', GET('/{c}/ln', { as: 'anonymous', tempUrl: { key: CONTAINER_KEY, expires: 300 } }), {
    setup: [...LINKED, POST('/{c}', { headers: { 'X-Container-Meta-Temp-URL-Key': CONTAINER_KEY } })],
  }),
  n('symlink.tempurl.container-key-other-container', GET('/{c}/ln', { as: 'anonymous', tempUrl: { key: CONTAINER_KEY, expires: 300 } }), {
    setup: [...CROSS, POST('/{c}', { headers: { 'X-Container-Meta-Temp-URL-Key': CONTAINER_KEY } })],
  }),
  n('symlink.tempurl.container-key-other-container.head', HEAD('/{c}/ln', { as: 'anonymous', tempUrl: { key: CONTAINER_KEY, expires: 300 } }), {
    setup: [...CROSS, POST('/{c}', { headers: { 'X-Container-Meta-Temp-URL-Key': CONTAINER_KEY } })],
  }),
  n('symlink.tempurl.account-key-other-container', GET('/{c}/ln', { as: 'anonymous', tempUrl: { key: ACCOUNT_TEMP_KEY, expires: 300 } }), {
    setup: [...CROSS, POST('', { headers: { 'X-Account-Meta-Temp-URL-Key': ACCOUNT_TEMP_KEY } })],
  }),

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

/** A public web site: readable by anyone (`.rlistings` too), with the given web settings. */
const site = (meta: Record<string, string>, read = '.r:*,.rlistings'): Req => PUT('/{c}', { headers: { 'X-Container-Read': read, ...Object.fromEntries(Object.entries(meta).map(([k, v]) => [`X-Container-Meta-Web-${k}`, v])) } });
const page = (name: string, body: string, type = 'text/html'): Req => PUT(`/{c}/${name}`, { body, headers: { 'Content-Type': type } });
const anon = (path: string, more: Partial<Req> = {}): Req => GET(path, { as: 'anonymous', ...more });
/** Objects only under directories, so a listing's rows carry no dates (each server's own). */
const TREE = [page('dir/sub/a.txt', 'a', 'text/plain'), page('dir/sub/b.txt', 'b', 'text/plain'), page('top/x', 'x', 'text/plain')];
const INDEXED = [site({ Index: 'index.html' }), page('index.html', '<p>home</p>'), page('dir/index.html', '<p>dir</p>'), page('dir/x', 'x', 'text/plain')];

const STATICWEB_ROWS: Row[] = [
  // the container's own path
  n('staticweb.index', GET('/{c}/', { as: 'anonymous' }), {
    setup: [PUT('/{c}', { headers: { 'X-Container-Read': '.r:*', 'X-Container-Meta-Web-Index': 'index.html' } }), PUT('/{c}/index.html', { body: '<p>hi</p>', headers: { 'Content-Type': 'text/html' } })],
  }),
  n('staticweb.index.rlistings', anon('/{c}/'), { setup: INDEXED }),
  n('staticweb.index.head', HEAD('/{c}/', { as: 'anonymous' }), { setup: INDEXED }),
  n('staticweb.index.range', anon('/{c}/', { headers: { Range: 'bytes=0-2' } }), { setup: INDEXED }),
  n('staticweb.index.no-slash', anon('/{c}'), { setup: INDEXED }),
  n('staticweb.index.missing-listings-off', anon('/{c}/'), { setup: [site({ Index: 'index.html' }), page('other.html', 'x')] }),
  n('staticweb.index.missing-listings-on', anon('/{c}/'), { setup: [site({ Index: 'index.html', Listings: 'true' }), ...TREE] }),
  n('staticweb.listings', GET('/{c}/', { as: 'anonymous' }), {
    setup: [PUT('/{c}', { headers: { 'X-Container-Read': '.r:*,.rlistings', 'X-Container-Meta-Web-Listings': 'true' } }), PUT('/{c}/a', { body: 'a' })],
    compare: { body: 'none' },
  }),
  n('staticweb.listings.page', anon('/{c}/'), { setup: [site({ Listings: 'true' }), ...TREE] }),
  n('staticweb.listings.css', anon('/{c}/'), { setup: [site({ Listings: 'true', 'Listings-CSS': 'style sheet.css' }), ...TREE] }),
  n('staticweb.listings.css-absolute', anon('/{c}/dir/'), { setup: [site({ Listings: 'true', 'Listings-CSS': 'http://example.com/s.css' }), ...TREE] }),
  n('staticweb.listings.label', anon('/{c}/dir/'), { setup: [site({ Listings: 'true', 'Listings-Label': 'example.com' }), ...TREE] }),
  n('staticweb.listings.subdir', anon('/{c}/dir/'), { setup: [site({ Listings: 'true' }), ...TREE] }),
  n('staticweb.listings.subdir-css', anon('/{c}/dir/'), { setup: [site({ Listings: 'true', 'Listings-CSS': 'style.css' }), ...TREE] }),
  n('staticweb.listings.objects', anon('/{c}/dir/sub/'), { setup: [site({ Listings: 'true' }), ...TREE], compare: { body: 'none' } }),
  n('staticweb.listings.no-rlistings', anon('/{c}/'), { setup: [site({ Listings: 'true' }, '.r:*'), ...TREE] }),
  n('staticweb.listings.off', anon('/{c}/dir/'), { setup: [site({ Listings: 'false', Index: 'index.html' }), ...TREE] }),
  n('staticweb.listings.empty-prefix', anon('/{c}/nothing/'), { setup: [site({ Listings: 'true' }), ...TREE] }),
  // directories and objects
  n('staticweb.dir.index', anon('/{c}/dir/'), { setup: INDEXED }),
  n('staticweb.dir.index-no-slash', anon('/{c}/dir'), { setup: INDEXED }),
  n('staticweb.dir.no-slash-listed', anon('/{c}/dir'), { setup: [site({ Listings: 'true' }), ...TREE] }),
  n('staticweb.dir.no-slash-missing', anon('/{c}/nothing'), { setup: [site({ Listings: 'true' }), ...TREE] }),
  n('staticweb.dir.marker', anon('/{c}/dir'), { setup: [site({ Listings: 'true' }), ...TREE, page('dir', '', 'application/directory')] }),
  n('staticweb.dir.marker-custom-type', anon('/{c}/dir'), { setup: [site({ Listings: 'true', 'Directory-Type': 'text/directory' }), ...TREE, page('dir', '', 'text/directory')] }),
  n('staticweb.dir.marker-without-site', anon('/{c}/dir'), { setup: [site({}), ...TREE, page('dir', '', 'application/directory')] }),
  n('staticweb.object', anon('/{c}/dir/x'), { setup: INDEXED }),
  n('staticweb.object.missing', anon('/{c}/nope.html'), { setup: INDEXED }),
  // error pages
  n('staticweb.error.404', anon('/{c}/nope'), { setup: [site({ Listings: 'true', Error: 'error.html' }), ...TREE, page('404error.html', '<p>not here</p>')] }),
  n('staticweb.error.404-listings-off', anon('/{c}/dir/'), { setup: [site({ Index: 'index.html', Error: 'error.html' }), ...TREE, page('404error.html', '<p>not here</p>')] }),
  n('staticweb.error.404-page-missing', anon('/{c}/nope'), { setup: [site({ Listings: 'true', Error: 'error.html' }), ...TREE] }),
  n('staticweb.error.401', anon('/{c}/'), { setup: [site({ Listings: 'true', Error: 'error.html' }, '.r:*'), ...TREE, page('401error.html', '<p>who are you</p>')] }),
  n('staticweb.error.only', anon('/{c}/nope'), { setup: [site({ Error: 'error.html' }), page('404error.html', '<p>not here</p>')] }),
  // who it is for
  n('staticweb.owner', GET('/{c}/?format=json'), { setup: INDEXED }),
  n('staticweb.owner.web-mode', GET('/{c}/', { headers: { 'X-Web-Mode': 'true' } }), { setup: INDEXED }),
  n('staticweb.owner.web-mode-dir', GET('/{c}/dir', { headers: { 'X-Web-Mode': 'true' } }), { setup: INDEXED }),
  n('staticweb.owner.web-mode-no-site', GET('/{c}/', { headers: { 'X-Web-Mode': 'true' } }), { setup: OWN_C }),
  n('staticweb.anonymous.no-site', anon('/{c}/?format=plain'), { setup: [site({})] }),
  n('staticweb.anonymous.private', anon('/{c}/'), { setup: [PUT('/{c}', { headers: { 'X-Container-Meta-Web-Index': 'index.html' } }), page('index.html', 'x')] }),
  n('staticweb.post-not-web', POST('/{c}/', { as: 'anonymous' }), { setup: INDEXED }),
];

export const NATIVE_LINK_ROWS: Row[] = [...SYMLINK_ROWS, ...STATICWEB_ROWS].map((r) => ({ ...NO_RGW, ...r }));
