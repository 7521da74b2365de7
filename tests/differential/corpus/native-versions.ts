// Native API: Swift's object versioning (X-Versions-Enabled): the container flag, version ids on
// writes and reads, reads and deletes by `version-id`, delete markers, the `?versions` listing.
import type { Req, Row } from '../types.js';
import { DELETE, GET, HEAD, md5, n, POST, PUT } from './helpers.js';

/** RGW 16.2's Swift API has only the legacy X-Versions-Location. */
const NO_RGW = { skip: { 'rgw-swift': 'Ceph RGW 16.2 has no X-Versions-Enabled (object versioning)' } };
const ENABLED: Req[] = [PUT('/{c}', { headers: { 'X-Versions-Enabled': 'true' } })];
const put = (name: string, body: string, capture?: string): Req =>
  PUT(`/{c}/${name}`, { body, headers: { 'Content-Type': 'text/plain' }, ...(capture ? { capture: { [capture]: 'header:x-object-version-id' } } : {}) });
/** Two versions of `obj` (ids `{v1}`, `{v2}`). */
const TWO: Req[] = [...ENABLED, put('obj', 'first', 'v1'), put('obj', 'second', 'v2')];
/** One version of `obj`, then a delete marker over it (`{m}`). */
const DELETED: Req[] = [...ENABLED, put('obj', 'first', 'v1'), DELETE('/{c}/obj', { capture: { m: 'header:x-object-version-id' } })];
const v = (id: string, request: Req, setup: Req[], extra: Omit<Row, 'id' | 'api' | 'request' | 'setup'> = {}): Row => n(`versions.${id}`, request, { setup, ...NO_RGW, ...extra });

/** Legacy versioned writes: `{c}` archives into `{c2}` (stack: X-Versions-Location, history: X-History-Location). */
const STACK: Req[] = [PUT('/{c2}'), PUT('/{c}', { headers: { 'X-Versions-Location': '{c2}' } })];
const HISTORY: Req[] = [PUT('/{c2}'), PUT('/{c}', { headers: { 'X-History-Location': '{c2}' } })];
const THREE = (base: Req[]): Req[] => [...base, put('obj', 'one'), put('obj', 'two'), put('obj', 'three')];
/** RGW's Swift API has X-Versions-Location (stack), not X-History-Location. */
const legacy = (id: string, request: Req, setup: Req[], extra: Omit<Row, 'id' | 'api' | 'request' | 'setup'> = {}): Row =>
  n(`versions.legacy.${id}`, request, { setup, ...extra });

export const NATIVE_VERSIONS_ROWS: Row[] = [
  // legacy versioned writes
  legacy('stack.archive-listing', GET('/{c2}?format=json'), THREE(STACK)),
  legacy('stack.archive-plain', GET('/{c2}'), THREE(STACK)),
  legacy('stack.delete', DELETE('/{c}/obj'), THREE(STACK)),
  legacy('stack.get-after-delete', GET('/{c}/obj'), [...THREE(STACK), DELETE('/{c}/obj')]),
  legacy('stack.archive-after-delete', GET('/{c2}?format=json'), [...THREE(STACK), DELETE('/{c}/obj')]),
  legacy('stack.get-after-all-deleted', GET('/{c}/obj'), [...STACK, put('obj', 'one'), put('obj', 'two'), DELETE('/{c}/obj'), DELETE('/{c}/obj')]),
  legacy('stack.delete-missing', DELETE('/{c}/nope'), STACK),
  legacy('stack.remove', HEAD('/{c}'), [...STACK, POST('/{c}', { headers: { 'X-Remove-Versions-Location': 'x' } })]),
  legacy('stack.remove-empty', HEAD('/{c}'), [...STACK, POST('/{c}', { headers: { 'X-Versions-Location': '' } })]),
  legacy('history.set', HEAD('/{c}'), HISTORY, NO_RGW),
  legacy('history.archive-after-delete', GET('/{c2}?format=json'), [...HISTORY, put('obj', 'one'), put('obj', 'two'), DELETE('/{c}/obj')], NO_RGW),
  legacy('history.get-after-delete', GET('/{c}/obj'), [...HISTORY, put('obj', 'one'), DELETE('/{c}/obj')], NO_RGW),
  legacy('both-modes', PUT('/{c}', { headers: { 'X-Versions-Location': 'a', 'X-History-Location': 'b' } }), [], NO_RGW),
  legacy('slash', PUT('/{c}', { headers: { 'X-Versions-Location': 'a/b' } }), []),
  legacy('then-enabled', POST('/{c}', { headers: { 'X-Versions-Enabled': 'true' } }), STACK, NO_RGW),
  legacy('missing-archive', PUT('/{c}/obj', { body: 'two' }), [PUT('/{c}', { headers: { 'X-Versions-Location': '{c2}' } }), put('obj', 'one')]),

  // the container's flag
  v('container.put-enabled', PUT('/{c}', { headers: { 'X-Versions-Enabled': 'true' } }), []),
  v('container.head-enabled', HEAD('/{c}'), ENABLED),
  // Swift counts the current objects only (its versions live in a hidden container) and adds their bytes.
  v('container.head-two-versions', HEAD('/{c}'), TWO),
  v('container.head-delete-marker', HEAD('/{c}'), [...DELETED, put('other', 'x')]),
  v('container.head-suspended', HEAD('/{c}'), [...ENABLED, POST('/{c}', { headers: { 'X-Versions-Enabled': 'false' } })]),
  v('container.post-false-never-versioned', POST('/{c}', { headers: { 'X-Versions-Enabled': 'false' } }), [PUT('/{c}')]),
  v('container.head-false-never-versioned', HEAD('/{c}'), [PUT('/{c}'), POST('/{c}', { headers: { 'X-Versions-Enabled': 'false' } })]),
  v('container.post-enable-existing', POST('/{c}', { headers: { 'X-Versions-Enabled': 'yes' } }), [PUT('/{c}')]),
  v('container.delete-with-versions', DELETE('/{c}'), DELETED),
  // writes and reads
  v('object.put', put('obj', 'first'), ENABLED),
  v('object.put-suspended', put('obj', 'second'), [...ENABLED, put('obj', 'first'), POST('/{c}', { headers: { 'X-Versions-Enabled': 'false' } })]),
  v('object.get-current', GET('/{c}/obj'), TWO, { compare: { ignore: ['content-location'] } }),
  v('object.head-current', HEAD('/{c}/obj'), TWO),
  v('object.get-by-id', GET('/{c}/obj?version-id={v1}'), TWO),
  v('object.head-by-id', HEAD('/{c}/obj?version-id={v1}'), TWO),
  v('object.get-null-with-versions', GET('/{c}/obj?version-id=null'), TWO),
  v('object.get-null-suspended', GET('/{c}/obj?version-id=null'), [...ENABLED, POST('/{c}', { headers: { 'X-Versions-Enabled': 'false' } }), put('obj', 'null one')]),
  v('object.get-deleted', GET('/{c}/obj'), DELETED),
  v('object.head-deleted', HEAD('/{c}/obj'), DELETED),
  v('object.get-marker-by-id', GET('/{c}/obj?version-id={m}'), DELETED),
  v('object.get-older-under-marker', GET('/{c}/obj?version-id={v1}'), DELETED),
  v('object.get-junk-id', GET('/{c}/obj?version-id=abc'), TWO),
  v('object.get-empty-id', GET('/{c}/obj?version-id='), TWO),
  v('object.get-id-unversioned', GET('/{c}/obj?version-id=abc'), [PUT('/{c}'), put('obj', 'x')]),
  v('object.get-null-unversioned', GET('/{c}/obj?version-id=null'), [PUT('/{c}'), put('obj', 'x')]),
  v('object.post-by-id', POST('/{c}/obj?version-id={v1}', { headers: { 'X-Object-Meta-A': 'b' } }), TWO),
  // deletes
  v('object.delete', DELETE('/{c}/obj'), [...ENABLED, put('obj', 'first')]),
  v('object.delete-missing', DELETE('/{c}/nope'), ENABLED),
  v('object.delete-suspended', DELETE('/{c}/obj'), [...ENABLED, put('obj', 'first'), POST('/{c}', { headers: { 'X-Versions-Enabled': 'false' } }), put('obj', 'null one')]),
  v('object.delete-older-version', DELETE('/{c}/obj?version-id={v1}'), TWO),
  v('object.delete-current-version', DELETE('/{c}/obj?version-id={v2}'), TWO),
  v('object.delete-marker-version', DELETE('/{c}/obj?version-id={m}'), DELETED),
  v('object.get-after-delete-older', GET('/{c}/obj'), [...TWO, DELETE('/{c}/obj?version-id={v1}')]),
  // the listing
  v('list.all', GET('/{c}?versions'), [...TWO, put('other', 'x'), DELETE('/{c}/other')]),
  v('list.prefix', GET('/{c}?versions&prefix=ot'), [...TWO, put('other', 'x')]),
  v('list.delimiter', GET('/{c}?versions&delimiter=/'), [...ENABLED, put('a/b', 'x'), put('a/c', 'y'), put('top', 'z')]),
  v('list.limit', GET('/{c}?versions&limit=1'), TWO),
  v('list.marker', GET('/{c}?versions&marker=obj'), [...TWO, put('other', 'x')]),
  v('list.version-marker', GET('/{c}?versions&marker=obj&version_marker={v2}'), [...TWO, put('other', 'x')]),
  v('list.version-marker-without-marker', GET('/{c}?versions&version_marker={v2}'), TWO),
  v('list.bad-delimiter', GET('/{c}?versions&delimiter=.'), TWO),
  v('list.format-txt', GET('/{c}?versions&format=txt'), TWO),
  v('list.format-json', GET('/{c}?versions&format=json'), TWO),
  v('list.accept-text-xml', GET('/{c}?versions', { headers: { Accept: 'text/xml' } }), TWO),
  v('list.accept-json-second', GET('/{c}?versions', { headers: { Accept: 'text/plain, application/json;q=0.5' } }), TWO),
  v('list.accept-malformed', GET('/{c}?versions', { headers: { Accept: 'json' } }), TWO),
  v('list.unversioned', GET('/{c}?versions'), [PUT('/{c}'), put('obj', 'x')]),
  v('list.empty', GET('/{c}?versions'), ENABLED),
  // Links and static links list with their targets, as in the plain listing; an SLO with its slo_etag.
  v('list.symlinks', GET('/{c}?versions'), [
    ...ENABLED,
    put('obj', 'first'),
    PUT('/{c}/ln', { body: '', headers: { 'X-Symlink-Target': '{c}/obj' } }),
    PUT('/{c}/static', { body: '', headers: { 'X-Symlink-Target': '{c}/obj', 'X-Symlink-Target-Etag': md5('first') } }),
  ]),
  v('list.slo', GET('/{c}?versions&prefix=slo'), [
    ...ENABLED,
    put('seg', 'segment'),
    PUT('/{c}/slo?multipart-manifest=put', { body: JSON.stringify([{ path: '/{c}/seg' }]) }),
  ]),
];
