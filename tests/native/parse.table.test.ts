// The native (Swift) router as a table: example requests -> the operation, the parameters it
// carries and the access it needs. Pure: no server, no engine, milliseconds.
import { describe, expect, it } from 'vitest';
import { NativeError } from '../../src-main/http/native/errors.js';
import { accessOf, type NativeAccess, type NativeOperation } from '../../src-main/http/native/operation.js';
import { parseNative } from '../../src-main/http/native/parse.js';
import { parseQuery } from '../../src-main/http/common/url.js';

const JSON_TYPE = { format: 'json', contentType: 'application/json; charset=utf-8', byAccept: false };

type Headers = Record<string, string>;

function parse(method: string, target: string, headers: Headers = {}): NativeOperation {
  const q = target.indexOf('?');
  const lower: Headers = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  return parseNative({ method, rawPath: q < 0 ? target : target.slice(0, q), query: parseQuery(q < 0 ? '' : target.slice(q + 1)), headers: lower });
}

/** [method, path?query, headers, operation, access] */
type Row = [string, string, Headers, NativeOperation['name'], NativeAccess];

const A = '/v1/AUTH_alice';
const LEN = { 'Content-Length': '0' };

const TOP: Row[] = [
  ['GET', '/auth/v1.0', {}, 'Auth', 'none'],
  ['GET', '/auth', {}, 'Auth', 'none'],
  ['GET', '/swift/auth/v1.0', {}, 'Auth', 'none'],
  ['POST', '/auth/v1.0', {}, 'MethodNotAllowed', 'none'],
  ['GET', '/info', {}, 'Info', 'none'],
  ['HEAD', '/info', {}, 'Info', 'none'],
  ['GET', '/swift/info', {}, 'Info', 'none'],
  ['POST', '/info', {}, 'MethodNotAllowed', 'none'],
  ['OPTIONS', '/info', {}, 'MethodNotAllowed', 'none'],
];

const ACCOUNT: Row[] = [
  ['HEAD', A, {}, 'HeadAccount', 'account'],
  ['GET', A, {}, 'ListAccount', 'account'],
  ['GET', `${A}/`, {}, 'ListAccount', 'account'],
  ['GET', `${A}?format=json&limit=2&marker=a`, {}, 'ListAccount', 'account'],
  ['POST', A, {}, 'PostAccount', 'account'],
  ['PUT', A, {}, 'MethodNotAllowed', 'account'],
  ['DELETE', A, {}, 'MethodNotAllowed', 'account'],
  ['POST', `${A}?bulk-delete`, {}, 'BulkDelete', 'signed-in'],
  ['DELETE', `${A}?bulk-delete`, {}, 'BulkDelete', 'signed-in'],
  ['GET', `${A}?bulk-delete`, {}, 'ListAccount', 'account'],
  ['PUT', `${A}?extract-archive=tar`, {}, 'ExtractArchive', 'signed-in'],
  ['PUT', `${A}/c?extract-archive=tar.gz`, {}, 'ExtractArchive', 'signed-in'],
  ['PUT', `${A}/c/some/prefix?extract-archive=.TAR.BZ2.`, {}, 'ExtractArchive', 'signed-in'],
  ['PUT', `${A}/c/o?extract-archive=tar&temp_url_sig=x&temp_url_expires=1`, {}, 'ExtractArchive', 'signed-in'],
  ['POST', `${A}/c?extract-archive=tar`, {}, 'PostContainer', 'admin'],
  ['POST', `${A}/c`, { 'Content-Type': 'multipart/form-data; boundary=x' }, 'FormPost', 'none'],
  ['POST', `${A}/c/prefix/`, { 'Content-Type': 'multipart/form-data; boundary="x y"' }, 'FormPost', 'none'],
  ['POST', A, { 'Content-Type': 'multipart/form-data; boundary=x' }, 'FormPost', 'none'],
  ['POST', `${A}/c`, { 'Content-Type': 'multipart/form-data' }, 'PostContainer', 'admin'],
  ['POST', `${A}/c/o`, { 'Content-Type': 'Multipart/Form-Data; boundary=x' }, 'PostObject', 'write-object'],
  ['PUT', `${A}/c/o`, { 'Content-Type': 'multipart/form-data; boundary=x', ...LEN }, 'PutObject', 'write-object'],
];

const CONTAINER: Row[] = [
  ['PUT', `${A}/c`, {}, 'PutContainer', 'account'],
  ['PUT', `${A}/c/`, {}, 'PutContainer', 'account'],
  ['HEAD', `${A}/c`, {}, 'HeadContainer', 'list'],
  ['GET', `${A}/c`, {}, 'ListContainer', 'list'],
  ['GET', `${A}/c?prefix=a/&delimiter=/`, {}, 'ListContainer', 'list'],
  ['POST', `${A}/c`, {}, 'PostContainer', 'admin'],
  ['DELETE', `${A}/c`, {}, 'DeleteContainer', 'admin'],
  ['COPY', `${A}/c`, {}, 'MethodNotAllowed', 'admin'],
  ['PATCH', `${A}/c`, {}, 'MethodNotAllowed', 'admin'],
];

const OBJECT: Row[] = [
  ['GET', `${A}/c/o`, {}, 'GetObject', 'read-object'],
  ['GET', `${A}/c/a/b/c`, {}, 'GetObject', 'read-object'],
  ['GET', `${A}/c/o/`, {}, 'GetObject', 'read-object'],
  ['HEAD', `${A}/c/o`, {}, 'HeadObject', 'read-object'],
  ['GET', `${A}/c/o?multipart-manifest=get`, {}, 'GetManifest', 'read-object'],
  ['HEAD', `${A}/c/o?multipart-manifest=get`, {}, 'GetManifest', 'read-object'],
  ['GET', `${A}/c/o?multipart-manifest=put`, {}, 'GetObject', 'read-object'],
  ['PUT', `${A}/c/o`, LEN, 'PutObject', 'write-object'],
  ['PUT', `${A}/c/o?multipart-manifest=put`, LEN, 'PutManifest', 'write-object'],
  ['PUT', `${A}/c/o`, { 'X-Copy-From': 'c2/o2' }, 'CopyObject', 'each-end'],
  ['PUT', `${A}/c/o?multipart-manifest=put`, { 'X-Copy-From': 'c2/o2' }, 'CopyObject', 'each-end'],
  ['COPY', `${A}/c/o`, { Destination: 'c2/o2' }, 'CopyObject', 'each-end'],
  ['POST', `${A}/c/o`, {}, 'PostObject', 'write-object'],
  ['DELETE', `${A}/c/o`, {}, 'DeleteObject', 'write-object'],
  ['DELETE', `${A}/c/o?multipart-manifest=delete`, {}, 'DeleteManifest', 'write-object'],
  ['DELETE', `${A}/c/o?multipart-manifest=get`, {}, 'DeleteObject', 'write-object'],
  ['PATCH', `${A}/c/o`, {}, 'MethodNotAllowed', 'write-object'],
  ['OPTIONS', `${A}/c/o`, {}, 'Preflight', 'none'],
  ['OPTIONS', `${A}/c`, {}, 'Preflight', 'none'],
  ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'c/t' }, 'PutSymlink', 'write-object'],
  ['PUT', `${A}/c/o`, { 'X-Copy-From': 'c/t', 'X-Symlink-Target': 'c/t' }, 'CopyObject', 'each-end'],
  ['GET', `${A}/c/o?symlink=get`, {}, 'GetObject', 'read-object'],
  ['COPY', `${A}/c/o?symlink=get`, { Destination: 'c2/o2' }, 'CopyObject', 'each-end'],
];

const SIG = 'temp_url_sig=' + 'a'.repeat(40) + '&temp_url_expires=4000000000';
const TEMPURL: Row[] = [
  ['GET', `${A}/c/o?${SIG}`, {}, 'GetObject', 'read-object'],
  ['HEAD', `${A}/c/o?${SIG}`, {}, 'HeadObject', 'read-object'],
  ['PUT', `${A}/c/o?${SIG}`, LEN, 'PutObject', 'write-object'],
  ['POST', `${A}/c/o?${SIG}`, {}, 'PostObject', 'write-object'],
  ['DELETE', `${A}/c/o?${SIG}`, {}, 'DeleteObject', 'write-object'],
  // A TempURL serves the plain operations only: Swift drops every other parameter.
  ['GET', `${A}/c/o?${SIG}&multipart-manifest=get`, {}, 'GetObject', 'read-object'],
  ['DELETE', `${A}/c/o?${SIG}&multipart-manifest=delete`, {}, 'DeleteObject', 'write-object'],
  ['PUT', `${A}/c/o?${SIG}&multipart-manifest=put`, LEN, 'PutObject', 'write-object'],
  ['COPY', `${A}/c/o?${SIG}`, {}, 'TempUrlInvalid', 'none'],
  ['GET', `${A}/c?${SIG}`, {}, 'TempUrlInvalid', 'none'],
  ['GET', `${A}?${SIG}`, {}, 'TempUrlInvalid', 'none'],
  ['GET', `${A}/c/o?temp_url_expires=1`, {}, 'GetObject', 'read-object'],
];

/** The same rows under each spelling of a storage URL: `/swift/v1`, `/v1.0`, `KEY_`. */
const SPELLINGS: Row[] = [...ACCOUNT, ...CONTAINER, ...OBJECT, ...TEMPURL].flatMap(([m, target, h, name, access]): Row[] => [
  [m, `/swift${target}`, h, name, access],
  [m, target.replace('/v1/', '/v1.0/'), h, name, access],
  [m, target.replace('AUTH_', 'KEY_'), h, name, access],
]);

describe('native requests parse to their operation and access', () => {
  const rows = [...TOP, ...ACCOUNT, ...CONTAINER, ...OBJECT, ...TEMPURL];
  it(`has hundreds of rows (${rows.length + SPELLINGS.length})`, () => {
    expect(rows.length + SPELLINGS.length).toBeGreaterThan(200);
  });
  it.each([...rows, ...SPELLINGS])('%s %s %j -> %s (%s)', (method, target, headers, name, access) => {
    const op = parse(method, target, headers);
    expect(op.name).toBe(name);
    expect(accessOf(op)).toBe(access);
    expect(op.invalid).toBeUndefined();
  });
});

describe('paths', () => {
  const pathOf = (target: string) => {
    const op = parse('GET', target);
    return 'path' in op ? op.path : undefined;
  };
  it.each([
    [`${A}/c/o`, { account: 'alice', container: 'c', object: 'o' }],
    [`${A}/c/a//b/./`, { account: 'alice', container: 'c', object: 'a//b/./' }],
    [`${A}/c/%E2%82%AC%20x`, { account: 'alice', container: 'c', object: '€ x' }],
    ['/v1/AUTH_t1$bob/c', { account: 't1$bob', container: 'c' }],
    [A, { account: 'alice' }],
  ])('%s', (target, path) => {
    expect(pathOf(target)).toEqual(path);
  });
  it.each([
    [`${A}/c/%ff`, 412, 'Invalid UTF8 or contains NULL'],
    [`${A}/c/a%00b`, 412, 'Invalid UTF8 or contains NULL'],
    ['/v1/AUTH_', 412, 'Bad URL'],
    ['/v1/AUTH_alice//o', 412, 'Bad URL'],
    ['/v2/AUTH_alice', 412, 'Bad URL'],
    [`${A}/c?x=%ff`, 400, 'Invalid query string'],
  ])('%s is refused with %i %s before anything else', (target, status, body) => {
    expect(() => parse('GET', target)).toThrow(expect.objectContaining({ status, body }));
  });
});

/** The parameters an operation carries: the handlers read nothing else of the request. */
describe('parameters', () => {
  const op = <N extends NativeOperation['name']>(name: N, method: string, target: string, headers?: Headers) => {
    const o = parse(method, target, headers);
    expect(o.name).toBe(name);
    return o as Extract<NativeOperation, { name: N }>;
  };

  it('sign-in and listings', () => {
    expect(op('Auth', 'GET', '/auth/v1.0', { 'X-Auth-User': 'a:b', 'X-Auth-Key': 'k' })).toMatchObject({ user: 'a:b', key: 'k' });
    expect(op('Auth', 'GET', '/auth/v1.0', { 'X-Storage-User': 'a:b', 'X-Storage-Pass': 'k' })).toMatchObject({ user: 'a:b', key: 'k' });
    expect(op('ListAccount', 'GET', `${A}?limit=5&marker=m&end_marker=z&prefix=p&reverse=on&format=JSON`).listing).toEqual({ type: JSON_TYPE, limit: 5, marker: 'm', endMarker: 'z', prefix: 'p', reverse: true });
    // Swift's config true values on both listings; JSON by default (seed 4.1.1).
    expect(op('ListAccount', 'GET', `${A}?reverse=t`).listing.reverse).toBe(true);
    expect(op('ListAccount', 'GET', A).listing.type).toEqual({ ...JSON_TYPE, byAccept: true });
    // Swift takes a limit only when it is all digits: the others list with the default.
    for (const limit of ['x', '-1', '5000.0', '']) expect(op('ListContainer', 'GET', `${A}/c?limit=${limit}`).listing.limit, limit).toBeUndefined();
    expect(op('ListContainer', 'GET', `${A}/c?delimiter=&allow_unordered=false`).listing).toMatchObject({ delimiter: '', allowUnordered: false });
    expect(op('ListContainer', 'GET', `${A}/c`).listing).toMatchObject({ type: { ...JSON_TYPE, byAccept: true }, delimiter: undefined, allowUnordered: undefined });
    expect(op('ListContainer', 'GET', `${A}/c?reverse=t&path=d&delimiter=/&allow_unordered=yes`, { Accept: 'application/xml' }).listing).toMatchObject({ type: { format: 'xml', contentType: 'application/xml; charset=utf-8', byAccept: true }, reverse: true, path: 'd', delimiter: '/', allowUnordered: true });
    expect(op('HeadContainer', 'HEAD', `${A}/c?format=csv`).type).toEqual({ format: 'plain', contentType: 'text/plain; charset=utf-8', byAccept: false });
  });

  it('listing types negotiated as Swift\'s listing_formats (swob\'s Accept), JSON where it would say plain text by default', () => {
    // A refusal is thrown while parsing (before the access check, as Swift's listing_formats), not kept in `invalid`.
    const typeOf = (accept: string | undefined, query = '') => {
      try {
        const o = op('ListContainer', 'GET', `${A}/c${query}`, accept === undefined ? {} : { Accept: accept });
        return o.invalid ? `kept ${(o.invalid as NativeError).status}` : `${o.listing.type.format} ${o.listing.type.contentType}`;
      } catch (err) {
        if (err instanceof NativeError) return err.status;
        throw err;
      }
    };
    const rows: [string | undefined, string | number][] = [
      [undefined, 'json application/json; charset=utf-8'],
      ['', 'json application/json; charset=utf-8'],
      ['*/*', 'json application/json; charset=utf-8'],
      ['text/xml', 'xml text/xml; charset=utf-8'],
      ['application/xml', 'xml application/xml; charset=utf-8'],
      ['text/plain', 'plain text/plain; charset=utf-8'],
      ['Text/XML', 'xml text/xml; charset=utf-8'],
      // Quality first, then exact types before wildcards, then the header's order.
      ['text/plain, application/json', 'plain text/plain; charset=utf-8'],
      ['application/json;q=0.5, text/xml', 'xml text/xml; charset=utf-8'],
      ['*/*;q=0.9, text/xml;q=0.9', 'xml text/xml; charset=utf-8'],
      ['text/*', 'plain text/plain; charset=utf-8'],
      ['application/*', 'json application/json; charset=utf-8'],
      ['image/png, text/*;q=0.1', 'plain text/plain; charset=utf-8'],
      ['application/xml;charset="utf-8";q=1', 'xml application/xml; charset=utf-8'],
      // None acceptable: 406; a header swob cannot read: 400.
      ['image/png', 406],
      ['json', 400],
      ['text/xml;q=x', 400],
      ['text/xml;q=1;q=0.5', 400],
      ['text/xml;a="b=c"', 400],
    ];
    for (const [accept, want] of rows) expect(typeOf(accept), accept).toBe(want);
    // format= wins over Accept, even one that would be refused.
    expect(typeOf('image/png', '?format=xml')).toBe('xml application/xml; charset=utf-8');
    expect(typeOf('json', '?format=txt')).toBe('plain text/plain; charset=utf-8');
    expect(op('HeadAccount', 'HEAD', A, { Accept: 'text/xml' }).type.contentType).toBe('text/xml; charset=utf-8');
    // ?versions answers JSON only: an Accept swob matches to no application/json is 406 (swob takes q=0 as a low quality, not a refusal).
    const versions = (accept: string, query = '') => (op('ListVersions', 'GET', `${A}/c?versions${query}`, { Accept: accept }).invalid as NativeError | undefined)?.status;
    expect([versions('text/xml'), versions('text/plain, application/json;q=0.5'), versions('application/json;q=0, text/xml'), versions('*/*'), versions('json')]).toEqual([406, undefined, undefined, undefined, 400]);
    expect([versions('text/xml', '&format=json'), versions('application/json', '&format=txt')]).toEqual([undefined, 406]);
  });

  it('the account ACL: given, cleared (empty or {}), or absent', () => {
    expect(op('PostAccount', 'POST', A, { 'X-Account-Access-Control': '{"read-only":["a:b"],"admin":["c"]}' }).acl).toEqual({ 'read-only': ['a:b'], admin: ['c'] });
    expect(op('PostAccount', 'POST', A, { 'X-Account-Access-Control': '' }).acl).toBeNull();
    expect(op('PostAccount', 'POST', A, { 'X-Account-Access-Control': '{}' }).acl).toBeNull();
    expect(op('PostAccount', 'POST', A).acl).toBeUndefined();
  });

  it('containers: metadata, ACLs, quotas', () => {
    const put = op('PutContainer', 'PUT', `${A}/c`, {
      'X-Container-Meta-Colour': 'blue',
      'X-Remove-Container-Meta-Old': 'x',
      'X-Container-Read': '.r:*, .rlistings',
      'X-Container-Meta-Quota-Bytes': '100',
    });
    expect(put.settings).toMatchObject({ acl: { read: '.r:*,.rlistings' }, quota: { maxBytes: 100 }, meta: { set: { colour: 'blue' }, remove: ['old'] } });
    expect(op('PostContainer', 'POST', `${A}/c`, { 'X-Remove-Container-Write': '1' }).settings.acl).toEqual({ write: null });
  });

  it('objects: range, conditionals, upload fields, DLO, expiry', () => {
    expect(op('GetObject', 'GET', `${A}/c/o`, { Range: 'bytes=1-2', 'If-None-Match': '"e"' })).toMatchObject({ range: { start: 1, end: 2 }, conditions: { ifNoneMatch: '"e"' }, tempUrl: undefined });
    const put = op('PutObject', 'PUT', `${A}/c/o`, {
      'Content-Length': '5',
      Etag: '"ABC"',
      'If-None-Match': '*',
      'Content-Type': 'text/plain',
      'X-Object-Meta-A': '1',
      'X-Object-Manifest': 'segs/pre',
      'X-Delete-At': '9999999999',
    });
    expect(put).toMatchObject({ size: 5, etag: 'abc', ifNoneMatch: '*', dlo: { container: 'segs', prefix: 'pre' }, fields: { meta: { a: '1' }, contentType: 'text/plain', deleteAt: 9999999999 } });
    const detect = op('PutObject', 'PUT', `${A}/c/o`, { 'Transfer-Encoding': 'chunked', 'X-Detect-Content-Type': 'true', 'Content-Type': 'a/b' });
    expect([detect.size, detect.fields.contentType]).toEqual([undefined, undefined]);
    expect(op('PostObject', 'POST', `${A}/c/o`, { 'X-Remove-Delete-At': '1' }).removeDeleteAt).toBe(true);
    expect(op('GetManifest', 'GET', `${A}/c/o?multipart-manifest=get&format=raw`).raw).toBe(true);
    expect(op('PutManifest', 'PUT', `${A}/c/o?multipart-manifest=put`, { 'Content-Length': '10', Etag: '"x"' })).toMatchObject({ contentLength: 10, etag: '"x"' });
  });

  it('symlinks: the target, its account and ETag; ?symlink=get on reads and copies', () => {
    const put = op('PutSymlink', 'PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'd/a%20b', 'X-Symlink-Target-Account': 'AUTH_bob', 'X-Symlink-Target-Etag': '"e"' });
    expect(put.link).toEqual({ container: 'd', object: 'a b', account: 'AUTH_bob', etag: 'e' });
    expect(op('GetObject', 'GET', `${A}/c/o?symlink=get`).symlinkGet).toBe(true);
    expect(op('CopyObject', 'COPY', `${A}/c/o?symlink=get`, { Destination: 'd/x' }).symlinkGet).toBe(true);
  });

  it('static web: reads without a token (or with X-Web-Mode) say so, with the path\'s slash', () => {
    expect(op('ListContainer', 'GET', `${A}/c/`).web).toMatchObject({ mode: false, slash: true });
    expect(op('HeadContainer', 'HEAD', `${A}/c`).web).toMatchObject({ mode: false, slash: false });
    expect(op('ListContainer', 'GET', `${A}/c/`, { 'X-Auth-Token': 't' }).web).toBeUndefined();
    expect(op('ListContainer', 'GET', `${A}/c/`, { 'X-Auth-Token': 't', 'X-Web-Mode': 'true' }).web).toMatchObject({ mode: true });
    expect(op('GetObject', 'GET', `${A}/c/dir/`).web).toMatchObject({ mode: false });
    expect(op('GetObject', 'GET', `${A}/c/o?symlink=get`).web).toBeUndefined();
  });

  it('copies: both ends, accounts, source conditionals', () => {
    const copy = op('CopyObject', 'COPY', `${A}/c/o`, { Destination: '/d/a%20b', 'Destination-Account': 'AUTH_bob', 'Copy-If-Match': '"e"', 'X-Fresh-Metadata': 'true' });
    expect(copy).toMatchObject({ from: { account: 'alice', container: 'c', object: 'o' }, to: { account: 'bob', container: 'd', object: 'a b' }, conditions: { ifMatch: '"e"' }, fresh: true });
    const put = op('CopyObject', 'PUT', `${A}/c/o`, { 'X-Copy-From': 's/k', 'X-Copy-From-Account': 'carol' });
    expect(put).toMatchObject({ from: { account: 'carol', container: 's', object: 'k' }, to: { account: 'alice', container: 'c', object: 'o' } });
  });

  it('bulk upload: the archive type, the report format (swob best_match), the fields every file gets', () => {
    const put = (target: string, headers: Headers = {}) => op('ExtractArchive', 'PUT', target, headers);
    expect(put(`${A}/c/p?extract-archive=tar.bz2`, LEN)).toMatchObject({ path: { account: 'alice', container: 'c', object: 'p' }, compression: 'bz2', format: 'plain', framed: true });
    expect(put(`${A}?extract-archive=tar`, { Accept: 'application/json' })).toMatchObject({ path: { account: 'alice' }, compression: 'tar', format: 'json', framed: false });
    expect(put(`${A}?extract-archive=tar`, { Accept: 'text/xml;q=0.9, application/json;q=0.5' }).format).toBe('xml');
    expect(put(`${A}?extract-archive=tar`, { Accept: '*/*' }).format).toBe('plain');
    expect(put(`${A}?extract-archive=tar`, { Accept: 'image/png' }).format).toBeUndefined();
    expect(put(`${A}/c?extract-archive=tar`, { 'X-Object-Meta-Color': 'red', 'Content-Type': 'text/html', 'X-Delete-After': '60' }).fields).toMatchObject({ meta: { color: 'red' }, deleteAt: expect.any(Number) });
    expect(put(`${A}/c?extract-archive=tar`, { 'Content-Type': 'text/html' }).fields).not.toHaveProperty('contentType');
    expect(put(`${A}/c?extract-archive=tar`, { 'X-Delete-At': '1' }).fields).toMatchObject({ status: 400, body: 'X-Delete-At in past' });
  });

  it('form posts: the boundary and the signed path (decoded, without /swift)', () => {
    expect(op('FormPost', 'POST', `/swift${A}/c%20d/pre`, { 'Content-Type': 'multipart/form-data; boundary=----abc' })).toMatchObject({
      path: { account: 'alice', container: 'c d', object: 'pre' },
      boundary: '----abc',
      signedPath: '/v1/AUTH_alice/c d/pre',
    });
  });

  it('TempURL: the signature, expiry, prefix and download name', () => {
    const get = op('GetObject', 'GET', `${A}/c/o?temp_url_sig=sha256:abc&temp_url_expires=2030-01-01T00:00:00Z&temp_url_prefix=o&filename=x.txt&inline`);
    expect(get.tempUrl).toEqual({ sig: 'sha256:abc', expires: '2030-01-01T00:00:00Z', prefix: 'o', filename: 'x.txt', inline: true });
  });
});

describe('invalid parameters, raised after the access decision', () => {
  it.each<[string, string, Headers, string, number, string | null]>([
    ['GET', `${A}/c?limit=10001`, {}, 'ListContainer', 412, 'Maximum limit is 10000'],
    ['POST', A, { 'X-Account-Meta-Quota-Bytes': '1' }, 'PostAccount', 403, null],
    ['PUT', `${A}/c`, { 'X-Versions-Location': 'v/w' }, 'PutContainer', 412, 'Container name cannot contain slashes'],
    ['PUT', `${A}/c`, { 'X-Versions-Location': 'v', 'X-History-Location': 'w' }, 'PutContainer', 400, 'Only one of x-versions-location or x-history-location may be specified'],
    ['POST', `${A}/c/o?version-id=x`, {}, 'PostObject', 400, 'POST to a specific version is not allowed'],
    ['POST', A, { 'X-Account-Access-Control': '{"owner":[]}' }, 'PostAccount', 400, 'X-Account-Access-Control invalid: Key "owner" not recognized\n\nInput: {"owner":[]}\n'],
    ['POST', A, { 'X-Account-Access-Control': '{"admin":[1]}' }, 'PostAccount', 400, 'X-Account-Access-Control invalid: Elements of "admin" list must be strings\n\nInput: {"admin":[1]}\n'],
    ['PUT', `${A}/c`, { 'X-Storage-Policy': 'gold' }, 'PutContainer', 400, 'InvalidLocationConstraint'],
    ['PUT', `${A}/c`, { 'X-Container-Meta-Quota-Bytes': 'lots' }, 'PutContainer', 400, 'Invalid bytes quota.'],
    ['POST', `${A}/c`, { 'X-Container-Write': '.r:*' }, 'PostContainer', 400, "Referrers not allowed in write ACL: '.r:*'"],
    ['POST', `${A}/c`, { 'X-Container-Read': '.x:1' }, 'PostContainer', 400, "Unknown designator '.x' in ACL: '.x:1'"],
    // The item quoted as Python's repr() writes it, as Swift's message does.
    ['POST', `${A}/c`, { 'X-Container-Read': "a, .x:it's" }, 'PostContainer', 400, `Unknown designator '.x' in ACL: ".x:it's"`],
    ['POST', `${A}/c`, { 'X-Container-Read': '.r:- .' }, 'PostContainer', 400, "No host/domain value after referrer designation in ACL: '.r:- .'"],
    ['PUT', `${A}/c/o`, {}, 'PutObject', 411, 'Missing Content-Length header.'],
    ['PUT', `${A}/c?extract-archive=zip`, {}, 'ExtractArchive', 400, 'Unsupported archive format'],
    ['PUT', `${A}/c/o`, { ...LEN, 'If-None-Match': '"e"' }, 'PutObject', 400, 'If-None-Match only supports *'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Delete-After': 'soon' }, 'PutObject', 400, 'Non-integer X-Delete-After'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Delete-At': '1' }, 'PutObject', 400, 'X-Delete-At in past'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Object-Manifest': 'nocontainer' }, 'PutObject', 400, 'X-Object-Manifest must be in the format container/prefix'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Static-Large-Object': 'true' }, 'PutObject', 400, 'X-Static-Large-Object is a reserved header. To create a static large object add query param multipart-manifest=put.'],
    ['PUT', `${A}/c/o?multipart-manifest=get`, LEN, 'PutObject', 400, 'multipart-manifest must be "put" on a PUT'],
    ['PUT', `${A}/c/o?multipart-manifest=put`, { 'Content-Length': '99999999' }, 'PutManifest', 413, 'Manifest File > 8388608 bytes'],
    ['POST', `${A}/c/o`, { 'X-Object-Meta-A': 'x'.repeat(300) }, 'PostObject', 400, 'Metadata value longer than 256: x-object-meta-A'],
    ['COPY', `${A}/c/o`, {}, 'CopyObject', 412, 'Destination header required'],
    ['COPY', `${A}/c/o`, { Destination: 'nocontainer' }, 'CopyObject', 412, 'Destination header must be of the form <container name>/<object name>'],
    ['PUT', `${A}/c/o`, { 'X-Copy-From': 'x' }, 'CopyObject', 412, 'X-Copy-From header must be of the form <container name>/<object name>'],
    ['PUT', `${A}/c/o?${SIG}`, { ...LEN, 'X-Object-Manifest': 'a/b' }, 'PutObject', 400, "The header 'X-Object-Manifest' is not allowed in this tempurl"],
    ['POST', `${A}/c/o?${SIG}`, { 'X-Copy-From': 'a/b' }, 'PostObject', 400, "The header 'X-Copy-From' is not allowed in this tempurl"],
    ['PUT', `${A}/c/o?${SIG}`, { ...LEN, 'X-Symlink-Target': 'a/b' }, 'PutObject', 400, "The header 'X-Symlink-Target' is not allowed in this tempurl"],
    ['PUT', `${A}/c/o`, { 'Content-Length': '1', 'X-Symlink-Target': 'a/b' }, 'PutSymlink', 400, 'Symlink requests require a zero byte body'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': '/a/b' }, 'PutSymlink', 412, 'X-Symlink-Target header must be of the form <container name>/<object name>'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'a' }, 'PutSymlink', 412, 'X-Symlink-Target header must be of the form <container name>/<object name>'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'a/b', 'X-Symlink-Target-Account': '' }, 'PutSymlink', 412, 'Account name cannot be empty'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'a/b', 'X-Symlink-Target-Account': 'x/y' }, 'PutSymlink', 412, 'Account name cannot contain slashes'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'c/o' }, 'PutSymlink', 400, 'Symlink cannot target itself'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'c/o', 'X-Symlink-Target-Account': 'AUTH_alice' }, 'PutSymlink', 400, 'Symlink cannot target itself'],
    ['PUT', `${A}/c/o`, { ...LEN, 'X-Symlink-Target': 'a/b', 'X-Symlink-Target-Etag': 'a;b' }, 'PutSymlink', 400, 'Bad X-Symlink-Target-Etag format'],
    ['POST', `${A}/c/o`, { 'X-Symlink-Target': 'a/b' }, 'PostObject', 400, 'A PUT request is required to set a symlink target'],
  ])('%s %s %j -> %s, then %i %s', (method, target, headers, name, status, body) => {
    const op = parse(method, target, headers);
    expect(op.name).toBe(name);
    expect(op.invalid).toBeInstanceOf(NativeError);
    expect(op.invalid).toMatchObject({ status, body });
  });

  it('a copy with a body is refused in the copy middleware\'s words, as plain text', () => {
    expect(parse('PUT', `${A}/c/o`, { 'X-Copy-From': 'a/b', 'Content-Length': '3' }).invalid).toMatchObject({
      status: 400,
      body: 'Copy requests require a zero byte body',
      headers: { 'Content-Type': 'text/plain' },
    });
  });
});
