// Raw HTTP tests of the native (Swift-style) API: every header, status and shape that the seed
// spec (parts 2, 4.1, 5.1, 7, 8) and the supplement (§0-§9, §11, §13.1, §13.4, §14) define.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { issueToken } from '../../src-main/http/native/auth.js';
import {
  ACCOUNT,
  addUser,
  call,
  OTHER_ACCOUNT,
  rawRequest,
  storagePath,
  SWIFT_KEY,
  SWIFT_USER,
  startTestServer,
  waitFor,
  type Reply,
  type TestServer,
} from './server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const md5 = (b: string | Buffer) => createHash('md5').update(b).digest('hex');
const ref = (container: string) => Engine.ref(ACCOUNT, container);
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const X_TIMESTAMP = /^\d{10}\.\d{5}$/;
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TRANS_ID = /^tx[0-9a-f]{21}-[0-9a-f]{10}/;
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (_name, jpath) => ['container.object', 'container.subdir', 'account.container'].includes(String(jpath)),
});

let seq = 0;
/** A fresh container name (tests share one server). */
function fresh(label: string): string {
  return `${label}-${++seq}`;
}

async function mkContainer(name: string, headers: Record<string, string> = {}): Promise<void> {
  const r = await call(s, 'PUT', `/${name}`, { headers });
  expect(r.status).toBe(201);
}

async function put(container: string, name: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  const r = await call(s, 'PUT', `/${container}/${encodeName(name)}`, { body, headers });
  expect(r.status, `PUT ${container}/${name}: ${r.text}`).toBe(201);
  return r;
}

/** Percent-encodes each path segment of an object name (keeps `/`). */
function encodeName(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}

/** The headers every native response carries (seed 4.1, supplement §2.1). */
function expectBaseHeaders(r: { headers: Headers }, what = ''): void {
  const id = r.headers.get('x-trans-id');
  expect(id, `X-Trans-Id ${what}`).toMatch(TRANS_ID);
  expect(r.headers.get('x-openstack-request-id'), `X-Openstack-Request-Id ${what}`).toBe(id);
  expect(r.headers.get('date'), `Date ${what}`).toMatch(HTTP_DATE);
  expect(r.headers.get('content-type'), `Content-Type ${what}`).toBeTruthy();
}

// ---------------------------------------------------------------------------------------------
describe('v1 auth (§1)', () => {
  it('answers 200/204 with X-Storage-Url, X-Auth-Token (= X-Storage-Token) and X-Auth-Token-Expires', async () => {
    const res = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': SWIFT_KEY } });
    expect([200, 204]).toContain(res.status);
    expect(await res.text()).toBe('');
    expectBaseHeaders(res, 'auth');
    const storage = res.headers.get('x-storage-url')!;
    expect(storage).toBe(`${s.url}/swift/v1/AUTH_${ACCOUNT}`);
    const token = res.headers.get('x-auth-token')!;
    expect(token).toBeTruthy();
    expect(res.headers.get('x-storage-token')).toBe(token);
    const expires = Number(res.headers.get('x-auth-token-expires'));
    expect(expires).toBeGreaterThan(86_000);
    expect(expires).toBeLessThanOrEqual(86_400);
    const head = await fetch(storage, { method: 'HEAD', headers: { 'X-Auth-Token': token } });
    expect(head.status).toBe(204);
  });

  it('accepts /auth, /auth/v1.0 and the X-Storage-User / X-Storage-Pass spellings', async () => {
    for (const path of ['/auth', '/auth/v1.0', '/auth/1.0']) {
      const r = await fetch(`${s.url}${path}`, { headers: { 'X-Storage-User': SWIFT_USER, 'X-Storage-Pass': SWIFT_KEY } });
      expect([200, 204], path).toContain(r.status);
      expect(r.headers.get('x-auth-token'), path).toBeTruthy();
    }
  });

  it('401 for a wrong key or missing headers, 401/403 for an unknown user, 405 for other methods', async () => {
    const wrong = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-auth-token')).toBeNull();
    expectBaseHeaders(wrong, 'auth 401');
    const missing = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER } });
    expect(missing.status).toBe(401);
    const none = await fetch(`${s.url}/auth/1.0`);
    expect(none.status).toBe(401);
    const unknown = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': 'test$nobody:swift', 'X-Auth-Key': SWIFT_KEY } });
    expect([401, 403]).toContain(unknown.status);
    expect(unknown.headers.get('x-auth-token')).toBeNull();
    expectBaseHeaders(unknown, 'auth unknown user');
    const post = await fetch(`${s.url}/auth/1.0`, { method: 'POST', headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': SWIFT_KEY } });
    expect(post.status).toBe(405);
  });

  it('takes the account with `$` literal or as %24, under /swift/v1 or /v1', async () => {
    const forms = [
      `${s.url}/swift/v1/AUTH_test$tester`,
      `${s.url}/swift/v1/AUTH_test%24tester`,
      `${s.url}/v1/AUTH_test$tester`,
      `${s.url}/v1/AUTH_test%24tester`,
    ];
    for (const base of forms) {
      const r = await call(s, 'HEAD', '', { base });
      expect(r.status, base).toBe(204);
      expect(r.headers.get('x-account-container-count'), base).not.toBeNull();
    }
    const c = fresh('dollar');
    await call(s, 'PUT', `/${c}`, { base: `${s.url}/v1/AUTH_test%24tester` });
    await put(c, 'o', 'via %24');
    const got = await call(s, 'GET', `/${c}/o`, { base: `${s.url}/v1/AUTH_test%24tester` });
    expect(got.status).toBe(200);
    expect(got.text).toBe('via %24');
  });

  it('an expired token is 401', async () => {
    const { token } = issueToken(s.engine.secret, ACCOUNT, SWIFT_USER, SWIFT_KEY, Date.now() - 2 * 86_400_000);
    expect((await call(s, 'HEAD', '', { token })).status).toBe(401);
    const fresh = issueToken(s.engine.secret, ACCOUNT, SWIFT_USER, SWIFT_KEY);
    expect((await call(s, 'HEAD', '', { token: fresh.token })).status).toBe(204);
  });

  it('a token stops working when its Swift key is replaced, even by the same user', async () => {
    const other = await s.engine.createAccount({ id: 'test$rotating', swiftKeys: [{ sub: 'swift', secretKey: 'first-key' }] });
    const user = other.swiftKeys[0]!.user;
    const old = issueToken(s.engine.secret, other.id, user, 'first-key');
    const base = `${s.url}/swift/v1/AUTH_${other.id}`;
    expect((await call(s, 'HEAD', '', { token: old.token, base })).status).toBe(204);
    await s.engine.removeKey(other.id, user);
    await s.engine.addSwiftKey(other.id, 'swift', 'second-key');
    expect((await call(s, 'HEAD', '', { token: old.token, base })).status).toBe(401);
  });

  it('X-Storage-Url follows the Host the client used', async () => {
    const r = await rawRequest(s.port, `GET /auth/1.0 HTTP/1.1\r\nHost: storage.example:8080\r\nX-Auth-User: ${SWIFT_USER}\r\nX-Auth-Key: ${SWIFT_KEY}\r\nConnection: close\r\n\r\n`);
    expect([200, 204]).toContain(r.status);
    expect(r.headers['x-storage-url']).toBe(`http://storage.example:8080/swift/v1/AUTH_${ACCOUNT}`);
  });

  it('accepts the token in X-Storage-Token too', async () => {
    const r = await fetch(s.storageUrl, { method: 'HEAD', headers: { 'X-Storage-Token': s.token } });
    expect(r.status).toBe(204);
  });

  it('401 without a token or with a bad/forged token; 403 on another account; a removed key revokes its tokens', async () => {
    expect((await call(s, 'HEAD', '', { token: null })).status).toBe(401);
    expect((await call(s, 'GET', '', { token: null })).status).toBe(401);
    const bad = await call(s, 'HEAD', '', { token: 'AUTH_tkbogus' });
    expect(bad.status).toBe(401);
    expectBaseHeaders(bad, 'bad token');
    const forged = await call(s, 'HEAD', '', { token: `${s.token.slice(0, -3)}abc` });
    expect(forged.status).toBe(401);
    expect((await call(s, 'HEAD', '', { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'GET', '', { token: s.otherToken })).status).toBe(403);
    const u = await addUser(s, 'test$revoked');
    expect((await call(s, 'HEAD', '', { base: u.storageUrl, token: u.token })).status).toBe(204);
    await s.engine.removeKey(u.account, `${u.account}:swift`);
    expect((await call(s, 'HEAD', '', { base: u.storageUrl, token: u.token })).status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------
describe('headers on every native response (seed 4.1, §2.1)', () => {
  it('X-Trans-Id equals X-Openstack-Request-Id, unique per request, with Date and Content-Type — errors included', async () => {
    const c = fresh('hdrs');
    await mkContainer(c);
    await put(c, 'obj', 'hello');
    await put(c, 'empty', '');
    const tag = md5('hello');
    const cases: [string, () => Promise<{ status: number; headers: Headers }>, number[]][] = [
      ['auth ok', () => fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': SWIFT_KEY } }), [200, 204]],
      ['auth bad', () => fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': 'x' } }), [401]],
      ['info', () => fetch(`${s.url}/info`), [200]],
      ['account HEAD', () => call(s, 'HEAD', ''), [204]],
      ['account GET', () => call(s, 'GET', '?format=json'), [200]],
      ['no token', () => call(s, 'GET', `/${c}`, { token: null }), [401]],
      ['other token', () => call(s, 'GET', `/${c}`, { token: s.otherToken }), [403]],
      ['container PUT', () => call(s, 'PUT', `/${fresh('hdrs')}`), [201]],
      ['container PUT again', () => call(s, 'PUT', `/${c}`), [202]],
      ['container HEAD', () => call(s, 'HEAD', `/${c}`), [204]],
      ['container POST', () => call(s, 'POST', `/${c}`, { headers: { 'X-Container-Meta-A': '1' } }), [204]],
      ['container missing', () => call(s, 'HEAD', `/nope-${c}`), [404]],
      ['container not empty', () => call(s, 'DELETE', `/${c}`), [409]],
      ['listing', () => call(s, 'GET', `/${c}?format=json`), [200]],
      ['listing bad limit', () => call(s, 'GET', `/${c}?limit=10001`), [412]],
      ['listing bad combination', () => call(s, 'GET', `/${c}?path=a&delimiter=/`), [400]],
      ['object GET', () => call(s, 'GET', `/${c}/obj`), [200]],
      ['object HEAD', () => call(s, 'HEAD', `/${c}/obj`), [200]],
      ['object missing', () => call(s, 'GET', `/${c}/missing`), [404]],
      ['object 304', () => call(s, 'GET', `/${c}/obj`, { headers: { 'If-None-Match': tag } }), [304]],
      ['object 412', () => call(s, 'GET', `/${c}/obj`, { headers: { 'If-Match': 'nope' } }), [412]],
      ['object 206', () => call(s, 'GET', `/${c}/obj`, { headers: { Range: 'bytes=0-1' } }), [206]],
      ['object 416', () => call(s, 'GET', `/${c}/empty`, { headers: { Range: 'bytes=0-1' } }), [416]],
      ['object PUT', () => call(s, 'PUT', `/${c}/new`, { body: 'x' }), [201]],
      ['object 422', () => call(s, 'PUT', `/${c}/bad`, { body: 'x', headers: { ETag: md5('y') } }), [422]],
      ['object POST', () => call(s, 'POST', `/${c}/obj`, { headers: { 'X-Object-Meta-A': '1' } }), [202]],
      ['object bad meta', () => call(s, 'PUT', `/${c}/m`, { body: 'x', headers: { 'X-Object-Meta-A': 'v'.repeat(257) } }), [400]],
      ['object COPY', () => call(s, 'COPY', `/${c}/obj`, { headers: { Destination: `/${c}/copy` } }), [201]],
      ['object DELETE', () => call(s, 'DELETE', `/${c}/new`), [204]],
      ['object DELETE missing', () => call(s, 'DELETE', `/${c}/new`), [404]],
      ['method not allowed', () => call(s, 'PATCH', `/${c}/obj`), [405]],
      ['bad URL NUL', () => call(s, 'GET', `/${c}/a%00b`), [412]],
      ['bad URL UTF-8', () => call(s, 'GET', `/${c}/a%FFb`), [412]],
    ];
    const ids = new Set<string>();
    for (const [what, run, statuses] of cases) {
      const r = await run();
      expect(statuses, `${what}: status ${r.status}`).toContain(r.status);
      expectBaseHeaders(r, what);
      ids.add(r.headers.get('x-trans-id')!);
    }
    expect(ids.size).toBe(cases.length);
  });

  it('HEAD and 204 responses carry Content-Length: 0 and no body', async () => {
    const c = fresh('len');
    await mkContainer(c);
    for (const path of ['', `/${c}`]) {
      const r = await call(s, 'HEAD', path);
      expect(r.status).toBe(204);
      expect(r.headers.get('content-length')).toBe('0');
      expect(r.body.length).toBe(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('/info (§13.4)', () => {
  it('is unauthenticated JSON with the Swift limits this server enforces', async () => {
    for (const path of ['/info', '/swift/info']) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      const info = (await r.json()) as { swift: Record<string, unknown> };
      expect(info.swift).toMatchObject({
        container_listing_limit: 10000,
        account_listing_limit: 10000,
        max_meta_name_length: 128,
        max_meta_value_length: 256,
        max_meta_count: 90,
        max_meta_overall_size: 4096,
        max_object_name_length: 1024,
      });
      expect(typeof info.swift.max_file_size).toBe('number');
      expect(typeof info.swift.max_container_name_length).toBe('number');
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('account (seed 2.1, N1; §3, §5.5)', () => {
  let u: { account: string; token: string; storageUrl: string };
  const acall = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    call(s, method, path, { base: u.storageUrl, token: u.token, headers, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    u = await addUser(s, 'acct$owner');
  });

  it('empty account: HEAD 204 with zero counts; plain listing 204, JSON [], XML a childless root', async () => {
    const head = await acall('HEAD', '');
    expect(head.status).toBe(204);
    expect(head.headers.get('x-account-container-count')).toBe('0');
    expect(head.headers.get('x-account-object-count')).toBe('0');
    expect(head.headers.get('x-account-bytes-used')).toBe('0');
    const plain = await acall('GET', '?format=plain');
    expect(plain.status).toBe(204);
    expect(plain.body.length).toBe(0);
    const json = await acall('GET', '?format=json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(json.text)).toEqual([]);
    const x = await acall('GET', '?format=xml');
    expect(x.status).toBe(200);
    expect(x.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(x.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    const doc = xml.parse(x.text) as { account: { '@_name': string; container?: unknown[] } | string };
    expect(doc.account).toBeDefined();
    expect(typeof doc.account === 'string' || doc.account.container === undefined).toBe(true);
    expect(x.text).not.toContain('<container>');
  });

  it('HEAD and GET carry the 2.1 headers: counts, bytes, -Actual, storage policy headers, X-Timestamp', async () => {
    await acall('PUT', '/alpha');
    await acall('PUT', '/beta');
    await acall('PUT', '/alpha/one', {}, 'x');
    await acall('PUT', '/beta/two', {}, 'y'.repeat(5000));
    for (const method of ['HEAD', 'GET']) {
      const r = await acall(method, method === 'GET' ? '?format=json' : '');
      expect(r.status).toBe(method === 'HEAD' ? 204 : 200);
      const h = (n: string) => r.headers.get(n);
      expect(h('x-account-container-count')).toBe('2');
      expect(h('x-account-object-count')).toBe('2');
      expect(h('x-account-bytes-used')).toBe('5001');
      expect(h('x-account-bytes-used-actual')).toBe(String(4096 + 8192));
      const policy = 'x-account-storage-policy-default-placement';
      expect(h(`${policy}-container-count`)).toBe('2');
      expect(h(`${policy}-object-count`)).toBe('2');
      expect(h(`${policy}-bytes-used`)).toBe('5001');
      expect(h(`${policy}-bytes-used-actual`)).toBe(String(4096 + 8192));
      expect(h('x-timestamp')).toMatch(X_TIMESTAMP);
      expect(h('x-account-meta-quota-bytes')).toBeNull();
    }
  });

  it('listing shapes: JSON {name,count,bytes,last_modified}, XML <account name><container>…, plain lines', async () => {
    const json = await acall('GET', '?format=json');
    const rows = JSON.parse(json.text) as Record<string, unknown>[];
    expect(rows.map((r) => r.name)).toEqual(['alpha', 'beta']);
    expect(rows[0]).toMatchObject({ name: 'alpha', count: 1, bytes: 1 });
    expect(rows[1]).toMatchObject({ name: 'beta', count: 1, bytes: 5000 });
    for (const r of rows) expect(r.last_modified).toMatch(ISO_MILLIS);
    const x = await acall('GET', '?format=xml');
    const doc = xml.parse(x.text) as { account: { '@_name': string; container: Record<string, string>[] } };
    expect(doc.account['@_name']).toBe(u.account);
    expect(doc.account.container.map((c) => [c.name, c.count, c.bytes])).toEqual([
      ['alpha', '1', '1'],
      ['beta', '1', '5000'],
    ]);
    const plain = await acall('GET', '');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(plain.text).toBe('alpha\nbeta\n');
    const accept = await acall('GET', '', { Accept: 'application/json' });
    expect(JSON.parse(accept.text)).toHaveLength(2);
  });

  it('listing parameters: limit, marker, end_marker, prefix, reverse; limit > 10000 is 412, non-numeric 400', async () => {
    await acall('PUT', '/gamma');
    const names = async (q: string) => (JSON.parse((await acall('GET', `?format=json${q}`)).text) as { name: string }[]).map((r) => r.name);
    expect(await names('&limit=2')).toEqual(['alpha', 'beta']);
    expect(await names('&marker=alpha')).toEqual(['beta', 'gamma']);
    expect(await names('&marker=beta&limit=1')).toEqual(['gamma']);
    expect(await names('&marker=gamma')).toEqual([]);
    expect(await names('&end_marker=gamma')).toEqual(['alpha', 'beta']);
    expect(await names('&prefix=g')).toEqual(['gamma']);
    expect(await names('&reverse=true')).toEqual(['gamma', 'beta', 'alpha']);
    const tooMany = await acall('GET', '?format=json&limit=10001');
    expect(tooMany.status).toBe(412);
    expect(tooMany.text).toContain('Maximum limit is 10000');
    expect((await acall('GET', '?format=json&limit=10000')).status).toBe(200);
    expect((await acall('GET', '?format=json&limit=abc')).status).toBe(400);
    expect((await acall('GET', '?format=json&limit=-1')).status).toBe(412);
  });

  it('POST merges metadata, X-Remove-Account-Meta-* and an empty value remove it; names come back Title-Cased', async () => {
    expect((await acall('POST', '', { 'X-Account-Meta-Color': 'blue' })).status).toBe(204);
    expect((await acall('POST', '', { 'X-Account-Meta-Shoe-Size': '42', 'x-account-meta-lower': 'Case Kept' })).status).toBe(204);
    let h = (await acall('HEAD', '')).headers;
    expect(h.get('x-account-meta-color')).toBe('blue');
    expect(h.get('x-account-meta-shoe-size')).toBe('42');
    expect(h.get('x-account-meta-lower')).toBe('Case Kept');
    const raw = await rawRequest(s.port, `HEAD ${new URL(u.storageUrl).pathname} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${u.token}\r\nConnection: close\r\n\r\n`);
    expect(raw.head).toContain('X-Account-Meta-Shoe-Size: 42');
    expect((await acall('POST', '', { 'X-Remove-Account-Meta-Color': 'x', 'X-Account-Meta-Shoe-Size': '' })).status).toBe(204);
    h = (await acall('HEAD', '')).headers;
    expect(h.get('x-account-meta-color')).toBeNull();
    expect(h.get('x-account-meta-shoe-size')).toBeNull();
    expect(h.get('x-account-meta-lower')).toBe('Case Kept');
    // GET carries the same account headers.
    expect((await acall('GET', '?format=json')).headers.get('x-account-meta-lower')).toBe('Case Kept');
  });

  it('quota headers appear once an administrator sets a quota; the owner cannot set them by POST', async () => {
    await s.engine.setAccountQuota(u.account, { maxBytes: 123456, maxObjects: 7 });
    for (const method of ['HEAD', 'GET']) {
      const r = await acall(method, '?format=json');
      expect(r.headers.get('x-account-meta-quota-bytes')).toBe('123456');
      expect(r.headers.get('x-account-meta-quota-count')).toBe('7');
    }
    const post = await acall('POST', '', { 'X-Account-Meta-Quota-Bytes': '999999999' });
    expect(post.status).toBe(403);
    expect((await acall('HEAD', '')).headers.get('x-account-meta-quota-bytes')).toBe('123456');
    await s.engine.setAccountQuota(u.account, { maxBytes: -1, maxObjects: -1 });
    expect((await acall('HEAD', '')).headers.get('x-account-meta-quota-bytes')).toBeNull();
  });

  it('account quota: 413 "Upload exceeds quota." once bytes or count would go over', async () => {
    const q = await addUser(s, 'acct$quota');
    const qcall = (method: string, path: string, body?: string) =>
      call(s, method, path, { base: q.storageUrl, token: q.token, ...(body !== undefined ? { body } : {}) });
    await qcall('PUT', '/c');
    await s.engine.setAccountQuota(q.account, { maxBytes: 10_000 });
    expect((await qcall('PUT', '/c/a', 'a'.repeat(3000))).status).toBe(201);
    const over = await qcall('PUT', '/c/b', 'b'.repeat(8000));
    expect(over.status).toBe(413);
    expect(over.text).toContain('Upload exceeds quota.');
    expectBaseHeaders(over, 'quota 413');
    expect((await qcall('HEAD', '/c/b')).status).toBe(404);
    await s.engine.setAccountQuota(q.account, { maxBytes: -1, maxObjects: 1 });
    expect((await qcall('PUT', '/c/b', 'b')).status).toBe(413);
    // Deleting is always allowed, and frees room.
    expect((await qcall('DELETE', '/c/a')).status).toBe(204);
    expect((await qcall('PUT', '/c/b', 'b')).status).toBe(201);
  });

  it('plain PUT and DELETE on the account are 405', async () => {
    expect((await acall('PUT', '')).status).toBe(405);
    expect((await acall('DELETE', '')).status).toBe(405);
  });
});

// ---------------------------------------------------------------------------------------------
describe('containers (N2, N3; seed 2.3; §4)', () => {
  it('PUT 201, then 202 when it exists — headers of the second PUT are applied too', async () => {
    const c = fresh('put');
    const first = await call(s, 'PUT', `/${c}`, { headers: { 'X-Container-Meta-One': '1' } });
    expect(first.status).toBe(201);
    expect(first.body.length).toBe(0);
    const again = await call(s, 'PUT', `/${c}`, { headers: { 'X-Container-Meta-Two': '2' } });
    expect(again.status).toBe(202);
    const h = (await call(s, 'HEAD', `/${c}`)).headers;
    expect(h.get('x-container-meta-one')).toBe('1');
    expect(h.get('x-container-meta-two')).toBe('2');
  });

  it('a name another user of the tenant owns: PUT is 409 (or 403) and changes nothing', async () => {
    const c = fresh('taken');
    await mkContainer(c, { 'X-Container-Meta-Owner': 'tester' });
    const r = await call(s, 'PUT', `/${c}`, { base: s.otherStorageUrl, token: s.otherToken, headers: { 'X-Container-Meta-Owner': 'other' } });
    expect([403, 409]).toContain(r.status);
    expect((await call(s, 'HEAD', `/${c}`)).headers.get('x-container-meta-owner')).toBe('tester');
    const theirs = JSON.parse((await call(s, 'GET', '?format=json', { base: s.otherStorageUrl, token: s.otherToken })).text) as { name: string }[];
    expect(theirs.map((e) => e.name)).not.toContain(c);
  });

  it('HEAD 204 with the 2.3 headers (counts, bytes, -Actual, X-Timestamp, Last-Modified, policy, class)', async () => {
    const c = fresh('head');
    await mkContainer(c);
    await put(c, 'a', 'x');
    await put(c, 'b', 'y'.repeat(4097));
    for (const method of ['HEAD', 'GET']) {
      const r = await call(s, method, `/${c}?format=json`);
      expect(r.status).toBe(method === 'HEAD' ? 204 : 200);
      const h = (n: string) => r.headers.get(n);
      expect(h('x-container-object-count')).toBe('2');
      expect(h('x-container-bytes-used')).toBe('4098');
      expect(h('x-container-bytes-used-actual')).toBe(String(4096 + 8192));
      expect(h('x-timestamp')).toMatch(X_TIMESTAMP);
      expect(h('last-modified')).toMatch(HTTP_DATE);
      expect(h('x-storage-policy')).toBe('default-placement');
      expect(h('x-storage-class')).toBe('STANDARD');
    }
    expect((await call(s, 'HEAD', `/${fresh('missing')}`)).status).toBe(404);
    expect((await call(s, 'GET', `/${fresh('missing')}`)).status).toBe(404);
  });

  it('POST 204 merges metadata; X-Remove-Container-Meta-* and an empty value remove; 404 when missing', async () => {
    const c = fresh('post');
    await mkContainer(c, { 'X-Container-Meta-Keep': 'k', 'X-Container-Meta-Drop': 'd', 'X-Container-Meta-Empty': 'e' });
    const r = await call(s, 'POST', `/${c}`, {
      headers: { 'X-Container-Meta-New': 'n', 'X-Remove-Container-Meta-Drop': 'x', 'X-Container-Meta-Empty': '' },
    });
    expect(r.status).toBe(204);
    const h = (await call(s, 'HEAD', `/${c}`)).headers;
    expect(h.get('x-container-meta-keep')).toBe('k');
    expect(h.get('x-container-meta-new')).toBe('n');
    expect(h.get('x-container-meta-drop')).toBeNull();
    expect(h.get('x-container-meta-empty')).toBeNull();
    expect((await call(s, 'POST', `/${fresh('missing')}`, { headers: { 'X-Container-Meta-A': '1' } })).status).toBe(404);
  });

  it('DELETE 204, 404 when missing, 409 when not empty', async () => {
    const c = fresh('del');
    await mkContainer(c);
    await put(c, 'o', 'x');
    const busy = await call(s, 'DELETE', `/${c}`);
    expect(busy.status).toBe(409);
    expect((await call(s, 'DELETE', `/${c}/o`)).status).toBe(204);
    const ok = await call(s, 'DELETE', `/${c}`);
    expect(ok.status).toBe(204);
    expect(ok.body.length).toBe(0);
    expect((await call(s, 'DELETE', `/${c}`)).status).toBe(404);
    expect((await call(s, 'HEAD', `/${c}`)).status).toBe(404);
  });

  it('ACL headers are echoed, cleaned and removable; malformed ACLs are 400', async () => {
    const c = fresh('acl');
    await mkContainer(c, { 'X-Container-Read': '.r:*, .rlistings', 'X-Container-Write': OTHER_ACCOUNT });
    let h = (await call(s, 'HEAD', `/${c}`)).headers;
    expect(h.get('x-container-read')).toBe('.r:*,.rlistings');
    expect(h.get('x-container-write')).toBe(OTHER_ACCOUNT);
    await call(s, 'POST', `/${c}`, { headers: { 'X-Remove-Container-Read': 'x' } });
    h = (await call(s, 'HEAD', `/${c}`)).headers;
    expect(h.get('x-container-read')).toBeNull();
    expect(h.get('x-container-write')).toBe(OTHER_ACCOUNT);
    expect((await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Write': '.r:*' } })).status).toBe(400);
    expect((await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Read': '.r:' } })).status).toBe(400);
    expect((await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Read': '.bogus' } })).status).toBe(400);
    expect((await call(s, 'PUT', `/${fresh('acl')}`, { headers: { 'X-Container-Write': '.r:*' } })).status).toBe(400);
  });

  it('X-Versions-Location (legacy versioning, disabled as in RGW) is 412', async () => {
    const r = await call(s, 'PUT', `/${fresh('ver')}`, { headers: { 'X-Versions-Location': 'archive' } });
    expect(r.status).toBe(412);
    expectBaseHeaders(r);
  });

  it('X-Storage-Policy: default-placement accepted, an unknown policy is 400', async () => {
    expect((await call(s, 'PUT', `/${fresh('pol')}`, { headers: { 'X-Storage-Policy': 'default-placement' } })).status).toBe(201);
    expect((await call(s, 'PUT', `/${fresh('pol')}`, { headers: { 'X-Storage-Policy': 'gold' } })).status).toBe(400);
  });

  it('container name rules: up to the advertised length, UTF-8; too long is 400; NUL and invalid UTF-8 are 412', async () => {
    const info = (await (await fetch(`${s.url}/info`)).json()) as { swift: { max_container_name_length: number } };
    const max = info.swift.max_container_name_length;
    expect(max).toBeGreaterThanOrEqual(255);
    expect((await call(s, 'PUT', `/${'c'.repeat(max)}`)).status).toBe(201);
    const long = await call(s, 'PUT', `/${'c'.repeat(max + 1)}`);
    expect(long.status).toBe(400);
    expect(long.text).toContain(`Container name length of ${max + 1} longer than`);
    expect((await call(s, 'PUT', `/${'c'.repeat(300)}`)).status).toBe(400);
    const unicode = `bücher-${seq++}`;
    expect((await call(s, 'PUT', `/${encodeURIComponent(unicode)}`)).status).toBe(201);
    const list = JSON.parse((await call(s, 'GET', `?format=json&prefix=${encodeURIComponent('bü')}`)).text) as { name: string }[];
    expect(list.map((r) => r.name)).toContain(unicode);
    expect((await call(s, 'PUT', '/bad%00name')).status).toBe(412);
    expect((await call(s, 'PUT', '/bad%FFname')).status).toBe(412);
  });

  it('container quotas: 413 "Upload exceeds quota." over X-Container-Meta-Quota-Bytes / -Count; bad values 400', async () => {
    const c = fresh('cq');
    await mkContainer(c, { 'X-Container-Meta-Quota-Bytes': '10000' });
    expect((await call(s, 'HEAD', `/${c}`)).headers.get('x-container-meta-quota-bytes')).toBe('10000');
    await put(c, 'a', 'a'.repeat(3000));
    const over = await call(s, 'PUT', `/${c}/b`, { body: 'b'.repeat(8000) });
    expect(over.status).toBe(413);
    expect(over.text).toContain('Upload exceeds quota.');
    expect((await call(s, 'HEAD', `/${c}/b`)).status).toBe(404);
    // Copies count too.
    expect((await call(s, 'PUT', `/${c}/a2`, { headers: { 'X-Copy-From': `${c}/a` } })).status).toBe(201);
    expect((await call(s, 'PUT', `/${c}/a3`, { headers: { 'X-Copy-From': `${c}/a` } })).status).toBe(413);

    const n = fresh('cq');
    await mkContainer(n, { 'X-Container-Meta-Quota-Count': '2' });
    expect((await call(s, 'HEAD', `/${n}`)).headers.get('x-container-meta-quota-count')).toBe('2');
    await put(n, 'a', '1');
    await put(n, 'b', '2');
    expect((await call(s, 'PUT', `/${n}/c`, { body: '3' })).status).toBe(413);
    expect((await call(s, 'PUT', `/${n}/a`, { body: 'replacing is fine' })).status).toBe(201);
    expect((await call(s, 'POST', `/${n}`, { headers: { 'X-Remove-Container-Meta-Quota-Count': 'x' } })).status).toBe(204);
    expect((await call(s, 'HEAD', `/${n}`)).headers.get('x-container-meta-quota-count')).toBeNull();
    expect((await call(s, 'PUT', `/${n}/c`, { body: '3' })).status).toBe(201);

    const bad = await call(s, 'POST', `/${n}`, { headers: { 'X-Container-Meta-Quota-Bytes': 'lots' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Invalid bytes quota.');
    const badCount = await call(s, 'POST', `/${n}`, { headers: { 'X-Container-Meta-Quota-Count': '-3' } });
    expect(badCount.status).toBe(400);
    expect(badCount.text).toContain('Invalid count quota.');
  });
});

// ---------------------------------------------------------------------------------------------
describe('object listings (N4; seed 2.4, 2.5, 4.1.1, 4.1.2; §5)', () => {
  const c = 'listing';
  const names = ['cat.png', 'caterpillar.png', 'catchemall/x.jpg', 'dog.png', 'photos/', 'photos/2024/a.jpg', 'photos/2024/b.jpg', 'photos/c.jpg', 'zebra/'];
  beforeAll(async () => {
    await mkContainer(c);
    for (const n of names) await put(c, n, `content of ${n}`, { 'Content-Type': n.endsWith('/') ? 'application/directory' : 'image/png' });
  });

  type Row = { name?: string; subdir?: string; hash?: string; bytes?: number; content_type?: string; last_modified?: string };
  const list = async (q: string): Promise<Row[]> => {
    const r = await call(s, 'GET', `/${c}?format=json${q}`);
    expect(r.status, `${q}: ${r.text}`).toBe(200);
    return JSON.parse(r.text) as Row[];
  };
  const keys = (rows: Row[]) => rows.map((r) => r.name ?? `[${r.subdir}]`);

  it('JSON entries (2.4): name, 32-hex hash, bytes, content_type, last_modified with ms and Z — in byte order', async () => {
    const r = await call(s, 'GET', `/${c}?format=json`);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const rows = JSON.parse(r.text) as Row[];
    expect(rows.map((e) => e.name)).toEqual([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    for (const e of rows) {
      expect(Object.keys(e).sort()).toEqual(['bytes', 'content_type', 'hash', 'last_modified', 'name']);
      expect(e.hash).toBe(md5(`content of ${e.name}`));
      expect(e.hash).toMatch(/^[0-9a-f]{32}$/);
      expect(e.bytes).toBe(Buffer.byteLength(`content of ${e.name}`));
      expect(e.content_type).toBe(e.name!.endsWith('/') ? 'application/directory' : 'image/png');
      expect(e.last_modified).toMatch(ISO_MILLIS);
      expect(Math.abs(Date.parse(e.last_modified!) - Date.now())).toBeLessThan(120_000);
    }
  });

  it("the seed's examples: prefix `cat` matches cat.png, caterpillar.png, catchemall/x.jpg; delimiter `/` rolls up", async () => {
    expect(keys(await list('&prefix=cat'))).toEqual(['cat.png', 'catchemall/x.jpg', 'caterpillar.png']);
    expect(keys(await list('&delimiter=/'))).toEqual(['cat.png', '[catchemall/]', 'caterpillar.png', 'dog.png', '[photos/]', '[zebra/]']);
    expect(keys(await list('&prefix=cat&delimiter=/'))).toEqual(['cat.png', '[catchemall/]', 'caterpillar.png']);
    expect(keys(await list('&prefix=photos/&delimiter=/'))).toEqual(['photos/', '[photos/2024/]', 'photos/c.jpg']);
    const subdir = (await list('&delimiter=/')).find((e) => e.subdir === 'photos/');
    expect(subdir).toEqual({ subdir: 'photos/' });
  });

  it('path lists direct children (with or without a trailing /), omitting the object named exactly path/', async () => {
    expect(keys(await list('&path=photos'))).toEqual(['[photos/2024/]', 'photos/c.jpg']);
    expect(keys(await list('&path=photos/'))).toEqual(['[photos/2024/]', 'photos/c.jpg']);
    expect(keys(await list('&path=photos/2024'))).toEqual(['photos/2024/a.jpg', 'photos/2024/b.jpg']);
    expect(keys(await list('&path=nothing'))).toEqual([]);
  });

  it('marker and end_marker are exclusive; limit caps; reverse reverses', async () => {
    expect(keys(await list('&marker=dog.png'))).toEqual(['photos/', 'photos/2024/a.jpg', 'photos/2024/b.jpg', 'photos/c.jpg', 'zebra/']);
    expect(keys(await list('&end_marker=caterpillar.png'))).toEqual(['cat.png', 'catchemall/x.jpg']);
    expect(keys(await list('&marker=cat.png&end_marker=dog.png'))).toEqual(['catchemall/x.jpg', 'caterpillar.png']);
    expect(keys(await list('&limit=2'))).toEqual(['cat.png', 'catchemall/x.jpg']);
    expect(keys(await list('&limit=0'))).toEqual([]);
    expect(keys(await list('&marker=zebra/'))).toEqual([]);
    expect(keys(await list('&delimiter=/&marker=catchemall/'))).toEqual(['caterpillar.png', 'dog.png', '[photos/]', '[zebra/]']);
    expect(keys(await list('&reverse=true&limit=3'))).toEqual(['zebra/', 'photos/c.jpg', 'photos/2024/b.jpg']);
    expect(keys(await list('&prefix=cat&reverse=on'))).toEqual(['caterpillar.png', 'catchemall/x.jpg', 'cat.png']);
    // In reverse order marker / end_marker keep their "after" / "before" meaning in that order.
    expect(keys(await list('&reverse=true&marker=dog.png'))).toEqual(['caterpillar.png', 'catchemall/x.jpg', 'cat.png']);
    expect(keys(await list('&reverse=true&end_marker=photos/c.jpg'))).toEqual(['zebra/']);
    expect(keys(await list('&reverse=true&delimiter=/'))).toEqual(['[zebra/]', '[photos/]', 'dog.png', 'caterpillar.png', '[catchemall/]', 'cat.png']);
  });

  it('pages with limit + marker (last entry of the previous page) end with an empty page and no short page early', async () => {
    for (const q of ['', '&delimiter=/']) {
      const seen: string[] = [];
      let marker = '';
      for (let i = 0; i < 20; i++) {
        const page = await list(`&limit=2${q}${marker ? `&marker=${encodeURIComponent(marker)}` : ''}`);
        if (page.length === 0) break;
        if (seen.length + page.length < (await list(q)).length) expect(page).toHaveLength(2);
        seen.push(...keys(page));
        const last = page.at(-1)!;
        marker = last.name ?? last.subdir!;
      }
      expect(seen).toEqual(keys(await list(q)));
    }
  });

  it('XML: declaration, <container name>, <object> children, <subdir name="…"><name>…</name></subdir>', async () => {
    const r = await call(s, 'GET', `/${c}?format=xml&prefix=cat&delimiter=/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(r.text).toContain('<subdir name="catchemall/"><name>catchemall/</name></subdir>');
    const doc = xml.parse(r.text) as { container: { '@_name': string; object: Record<string, string>[]; subdir: Record<string, string>[] } };
    expect(doc.container['@_name']).toBe(c);
    expect(doc.container.object.map((o) => o.name)).toEqual(['cat.png', 'caterpillar.png']);
    const o = doc.container.object[0]!;
    expect(o.hash).toBe(md5('content of cat.png'));
    expect(o.bytes).toBe(String(Buffer.byteLength('content of cat.png')));
    expect(o.content_type).toBe('image/png');
    expect(o.last_modified).toMatch(ISO_MILLIS);
    expect(doc.container.subdir).toEqual([{ '@_name': 'catchemall/', name: 'catchemall/' }]);
    // Interleaved in name order.
    expect(r.text.indexOf('cat.png')).toBeLessThan(r.text.indexOf('catchemall/'));
    expect(r.text.indexOf('catchemall/')).toBeLessThan(r.text.indexOf('caterpillar.png'));
  });

  it('plain text (also the default): one name per line, subdirs as their prefix; Accept picks JSON/XML', async () => {
    const r = await call(s, 'GET', `/${c}?format=plain&delimiter=/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe('cat.png\ncatchemall/\ncaterpillar.png\ndog.png\nphotos/\nzebra/\n');
    const d = await call(s, 'GET', `/${c}?prefix=dog`);
    expect(d.text).toBe('dog.png\n');
    const j = await call(s, 'GET', `/${c}?prefix=dog`, { headers: { Accept: 'application/json' } });
    expect(j.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((JSON.parse(j.text) as Row[]).map((e) => e.name)).toEqual(['dog.png']);
    const x = await call(s, 'GET', `/${c}?prefix=dog`, { headers: { Accept: 'application/xml' } });
    expect(x.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xq = await call(s, 'GET', `/${c}?prefix=dog&format=json`, { headers: { Accept: 'application/xml' } });
    expect(xq.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('an empty result: plain 204 with no body, JSON [] (200), XML a childless <container> (200)', async () => {
    const e = fresh('empty');
    await mkContainer(e);
    for (const [path, label] of [
      [`/${e}`, 'empty container'],
      [`/${c}?prefix=nomatch`, 'no match'],
    ] as const) {
      const sep = path.includes('?') ? '&' : '?';
      const plain = await call(s, 'GET', `${path}${sep}format=plain`);
      expect(plain.status, label).toBe(204);
      expect(plain.body.length, label).toBe(0);
      const json = await call(s, 'GET', `${path}${sep}format=json`);
      expect(json.status, label).toBe(200);
      expect(JSON.parse(json.text), label).toEqual([]);
      const x = await call(s, 'GET', `${path}${sep}format=xml`);
      expect(x.status, label).toBe(200);
      expect(x.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
      expect(x.text).not.toMatch(/<object>|<subdir/);
      const doc = xml.parse(x.text) as { container: unknown };
      expect(doc.container).toBeDefined();
    }
  });

  it('limit > 10000 is 412 "Maximum limit is 10000"; 10000 is fine; a non-numeric limit is 400', async () => {
    const r = await call(s, 'GET', `/${c}?format=json&limit=10001`);
    expect(r.status).toBe(412);
    expect(r.text).toContain('Maximum limit is 10000');
    expect((await call(s, 'GET', `/${c}?format=json&limit=10000`)).status).toBe(200);
    expect((await call(s, 'GET', `/${c}?format=json&limit=ten`)).status).toBe(400);
  });

  it('forbidden parameter combinations are 400 (seed 4.1.2)', async () => {
    for (const q of [
      'delimiter=/&path=photos',
      'delimiter=/&allow_unordered=true',
      'prefix=p&path=photos',
      'path=photos&allow_unordered=true',
    ]) {
      const r = await call(s, 'GET', `/${c}?format=json&${q}`);
      expect(r.status, q).toBe(400);
      expectBaseHeaders(r, q);
    }
    // allow_unordered alone is fine.
    const u = await call(s, 'GET', `/${c}?format=json&allow_unordered=true`);
    expect(u.status).toBe(200);
    expect((JSON.parse(u.text) as Row[]).map((e) => e.name).sort()).toEqual([...names].sort());
  });

  it('names with spaces, unicode and %2F are listed decoded, and markers take such names', async () => {
    const n = fresh('uni');
    await mkContainer(n);
    const odd = ['a b.txt', 'ünï/çødé.txt', 'x%y', 'q?r#s'];
    for (const name of odd) await put(n, name, name);
    const rows = JSON.parse((await call(s, 'GET', `/${n}?format=json`)).text) as Row[];
    expect(rows.map((r) => r.name)).toEqual([...odd].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    const after = JSON.parse((await call(s, 'GET', `/${n}?format=json&marker=${encodeURIComponent('q?r#s')}`)).text) as Row[];
    expect(after.map((r) => r.name)).toEqual(['x%y', 'ünï/çødé.txt']);
    const byPrefix = JSON.parse((await call(s, 'GET', `/${n}?format=json&prefix=${encodeURIComponent('ünï/')}`)).text) as Row[];
    expect(byPrefix.map((r) => r.name)).toEqual(['ünï/çødé.txt']);
    // XML escapes what it must and stays parseable.
    const special = ['a&b<c>.txt', 'quote"\'.txt'];
    for (const name of special) await put(n, name, name);
    const x = await call(s, 'GET', `/${n}?format=xml&prefix=${encodeURIComponent('a&')}`);
    expect(x.text).toContain('a&amp;b&lt;c&gt;.txt');
    const all = xml.parse((await call(s, 'GET', `/${n}?format=xml`)).text) as { container: { object: { name: string }[] } };
    expect(all.container.object.map((o) => o.name)).toEqual(expect.arrayContaining([...special, ...odd]));
    // %2F in the URL is part of the name.
    expect((await call(s, 'PUT', `/${n}/dir%2Fslash`, { body: 'encoded slash' })).status).toBe(201);
    expect(s.engine.headObject(ref(n), 'dir/slash').size).toBe(13);
    const got = await call(s, 'GET', `/${n}/dir/slash`);
    expect(got.text).toBe('encoded slash');
  });
});

// ---------------------------------------------------------------------------------------------
describe('objects: PUT (N5; §6.2)', () => {
  const c = 'objects';
  beforeAll(() => mkContainer(c));

  it('201 with the unquoted ETag and Last-Modified; empty body; Content-Length 0', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const r = await call(s, 'PUT', `/${c}/hello.txt`, { body: 'Hello, world' });
    expect(r.status).toBe(201);
    expect(r.body.length).toBe(0);
    expect(r.headers.get('content-length')).toBe('0');
    expect(r.headers.get('etag')).toBe(md5('Hello, world'));
    expect(r.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(Date.parse(r.headers.get('last-modified')!)).toBeGreaterThanOrEqual(before);
    expectBaseHeaders(r);
  });

  it('accepts a correct ETag (quoted or not); a wrong one is 422 and stores nothing', async () => {
    expect((await call(s, 'PUT', `/${c}/etag1`, { body: 'abc', headers: { ETag: md5('abc') } })).status).toBe(201);
    expect((await call(s, 'PUT', `/${c}/etag2`, { body: 'abc', headers: { ETag: `"${md5('abc')}"` } })).status).toBe(201);
    const usage = (await call(s, 'HEAD', `/${c}`)).headers.get('x-container-object-count');
    const bad = await call(s, 'PUT', `/${c}/etag3`, { body: 'abc', headers: { ETag: md5('abd') } });
    expect(bad.status).toBe(422);
    expect((await call(s, 'HEAD', `/${c}/etag3`)).status).toBe(404);
    expect((await call(s, 'HEAD', `/${c}`)).headers.get('x-container-object-count')).toBe(usage);
    // Replacing an existing object with a bad ETag leaves the old bytes.
    const big = Buffer.alloc(200_000, 7);
    const badBig = await call(s, 'PUT', `/${c}/etag1`, { body: big, headers: { ETag: md5('nope') } });
    expect(badBig.status).toBe(422);
    const still = await call(s, 'GET', `/${c}/etag1`);
    expect(still.text).toBe('abc');
  });

  it('411 without Content-Length or chunked encoding; chunked uploads work', async () => {
    const path = `${storagePath(s)}/${c}/nolength`;
    const r = await rawRequest(s.port, `PUT ${path} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${s.token}\r\nConnection: close\r\n\r\n`);
    expect(r.status).toBe(411);
    expect(r.headers['x-trans-id']).toMatch(TRANS_ID);
    expect((await call(s, 'HEAD', `/${c}/nolength`)).status).toBe(404);

    const parts = [Buffer.from('chunk one, '), Buffer.alloc(100_000, 0x61), Buffer.from(' end')];
    const body = new ReadableStream<Uint8Array>({
      start(ctl) {
        for (const p of parts) ctl.enqueue(p);
        ctl.close();
      },
    });
    const res = await fetch(`${s.storageUrl}/${c}/chunked`, { method: 'PUT', body, headers: { 'X-Auth-Token': s.token }, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe(md5(Buffer.concat(parts)));
    const got = await call(s, 'GET', `/${c}/chunked`);
    expect(got.body.equals(Buffer.concat(parts))).toBe(true);
  });

  it('413 for a declared size over the maximum object size, before reading the body', async () => {
    const path = `${storagePath(s)}/${c}/huge`;
    const r = await rawRequest(s.port, `PUT ${path} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${s.token}\r\nContent-Length: ${5 * 1024 ** 3 + 10}\r\n\r\nabc`);
    expect(r.status).toBe(413);
    expect((await call(s, 'HEAD', `/${c}/huge`)).status).toBe(404);
  });

  it('404 into a missing container', async () => {
    expect((await call(s, 'PUT', `/${fresh('nosuch')}/o`, { body: 'x' })).status).toBe(404);
  });

  it('If-None-Match: * creates only; any other If-None-Match on PUT is 400', async () => {
    expect((await call(s, 'PUT', `/${c}/once`, { body: '1', headers: { 'If-None-Match': '*' } })).status).toBe(201);
    expect((await call(s, 'PUT', `/${c}/once`, { body: '2', headers: { 'If-None-Match': '*' } })).status).toBe(412);
    expect((await call(s, 'GET', `/${c}/once`)).text).toBe('1');
    expect((await call(s, 'PUT', `/${c}/once`, { body: '3', headers: { 'If-None-Match': md5('1') } })).status).toBe(400);
  });

  it('Content-Type is stored verbatim, or guessed from the name, else application/octet-stream', async () => {
    await put(c, 'typed', 'x', { 'Content-Type': 'application/x-custom; charset=latin1' });
    expect((await call(s, 'HEAD', `/${c}/typed`)).headers.get('content-type')).toBe('application/x-custom; charset=latin1');
    // (Buffer bodies: fetch adds a Content-Type of its own to string bodies.)
    await put(c, 'guess.txt', Buffer.from('x'));
    expect((await call(s, 'HEAD', `/${c}/guess.txt`)).headers.get('content-type')).toMatch(/^text\/plain/);
    await put(c, 'guess.json', Buffer.from('{}'));
    expect((await call(s, 'HEAD', `/${c}/guess.json`)).headers.get('content-type')).toBe('application/json');
    const res = await fetch(`${s.storageUrl}/${c}/noext`, { method: 'PUT', body: new Uint8Array([1, 2]), headers: { 'X-Auth-Token': s.token } });
    expect(res.status).toBe(201);
    expect((await call(s, 'HEAD', `/${c}/noext`)).headers.get('content-type')).toBe('application/octet-stream');
  });

  it('X-Detect-Content-Type: true guesses from the name even when a Content-Type is sent', async () => {
    await put(c, 'detect.html', Buffer.from('<p>'), { 'Content-Type': 'application/x-wrong', 'X-Detect-Content-Type': 'true' });
    expect((await call(s, 'HEAD', `/${c}/detect.html`)).headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('replacing an object replaces its bytes and metadata', async () => {
    await put(c, 'replace', 'first', { 'X-Object-Meta-Old': '1' });
    await put(c, 'replace', 'second version', { 'X-Object-Meta-New': '2' });
    const r = await call(s, 'GET', `/${c}/replace`);
    expect(r.text).toBe('second version');
    expect(r.headers.get('x-object-meta-old')).toBeNull();
    expect(r.headers.get('x-object-meta-new')).toBe('2');
  });

  it('object name: 1024 bytes is fine, 1025 bytes is 400 (counted in UTF-8 bytes)', async () => {
    await put(c, 'n'.repeat(1024), 'max');
    const r = await call(s, 'PUT', `/${c}/${'n'.repeat(1025)}`, { body: 'x' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('Object name length of 1025 longer than 1024');
    const multi = await call(s, 'PUT', `/${c}/${encodeURIComponent('é'.repeat(513))}`, { body: 'x' });
    expect(multi.status).toBe(400);
    expect(multi.text).toContain('Object name length of 1026 longer than 1024');
  });

  it('a client that sends fewer bytes than Content-Length and disconnects leaves nothing behind; the server keeps serving', async () => {
    const blobCount = () => readdirSync(join(s.dataDir, 'blobs')).reduce((n, d) => n + readdirSync(join(s.dataDir, 'blobs', d)).length, 0);
    const tmpCount = () => readdirSync(join(s.dataDir, 'tmp')).length;
    const p = fresh('partial');
    await mkContainer(p);
    await put(p, 'kept', 'old bytes');
    const blobsBefore = blobCount();
    const path = `${storagePath(s)}/${p}`;
    for (const [name, declared, sent] of [
      ['small', 100, 10],
      ['large', 2_000_000, 300_000],
      ['kept', 2_000_000, 300_000],
    ] as const) {
      const { connect } = await import('node:net');
      await new Promise<void>((resolve, reject) => {
        const sock = connect(s.port, '127.0.0.1', () => {
          sock.write(`PUT ${path}/${name} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${s.token}\r\nContent-Length: ${declared}\r\n\r\n`);
          sock.write(Buffer.alloc(sent, 0x62), () => setTimeout(() => (sock.destroy(), resolve()), 150));
        });
        sock.on('error', reject);
      });
    }
    const clean = await waitFor(async () => tmpCount() === 0 && blobCount() <= blobsBefore, 5000);
    expect(clean, `tmp files: ${tmpCount()}, blobs: ${blobCount()} (before ${blobsBefore})`).toBe(true);
    expect((await call(s, 'HEAD', `/${p}/small`)).status).toBe(404);
    expect((await call(s, 'HEAD', `/${p}/large`)).status).toBe(404);
    expect((await call(s, 'GET', `/${p}/kept`)).text).toBe('old bytes');
    const h = (await call(s, 'HEAD', `/${p}`)).headers;
    expect(h.get('x-container-object-count')).toBe('1');
    expect(h.get('x-container-bytes-used')).toBe(String('old bytes'.length));
    expect(JSON.parse((await call(s, 'GET', `/${p}?format=json`)).text)).toHaveLength(1);
    await put(p, 'after', 'still serving');
    expect((await call(s, 'GET', `/${p}/after`)).text).toBe('still serving');
  });

  it('honours Expect: 100-continue', async () => {
    const body = Buffer.alloc(10_000, 0x63);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${s.storageUrl}/${c}/continued`,
        { method: 'PUT', headers: { 'X-Auth-Token': s.token, 'Content-Length': body.length, Expect: '100-continue' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('continue', () => req.end(body));
      req.on('error', reject);
      req.setTimeout(5000, () => req.destroy(new Error('no 100 Continue')));
    });
    expect(status).toBe(201);
    expect((await call(s, 'GET', `/${c}/continued`)).body.equals(body)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
describe('objects: GET/HEAD (N6; seed 2.6; §6.3, §8)', () => {
  const c = 'reads';
  const data = Buffer.from('0123456789abcdefghij');
  beforeAll(async () => {
    await mkContainer(c);
    await put(c, 'o', data, {
      'Content-Type': 'text/x-test',
      'X-Object-Meta-Color': 'Blue',
      'x-object-meta-multi-part-name': 'v',
      'Content-Disposition': 'attachment; filename="o.txt"',
      'Content-Encoding': 'identity',
      'Content-Language': 'en',
      'Cache-Control': 'no-cache',
      Expires: 'Wed, 21 Oct 2037 07:28:00 GMT',
      'X-Robots-Tag': 'noindex',
    });
    await put(c, 'zero', '');
  });

  it('GET 200: body and the 2.6 headers', async () => {
    const r = await call(s, 'GET', `/${c}/o`);
    expect(r.status).toBe(200);
    expect(r.body.equals(data)).toBe(true);
    const h = (n: string) => r.headers.get(n);
    expect(h('content-length')).toBe(String(data.length));
    expect(h('accept-ranges')).toBe('bytes');
    expect(h('last-modified')).toMatch(HTTP_DATE);
    expect(h('x-timestamp')).toMatch(X_TIMESTAMP);
    expect(Math.abs(Number(h('x-timestamp')) * 1000 - Date.parse(h('last-modified')!))).toBeLessThan(1000);
    expect(h('etag')).toBe(md5(data));
    expect(h('content-type')).toBe('text/x-test');
    expect(h('x-object-meta-color')).toBe('Blue');
    expect(h('x-object-meta-multi-part-name')).toBe('v');
    expect(h('content-disposition')).toBe('attachment; filename="o.txt"');
    expect(h('content-encoding')).toBe('identity');
    expect(h('content-language')).toBe('en');
    expect(h('cache-control')).toBe('no-cache');
    expect(h('expires')).toBe('Wed, 21 Oct 2037 07:28:00 GMT');
    expectBaseHeaders(r);
    // Metadata names are printed Title-Cased per dash segment.
    const raw = await rawRequest(s.port, `HEAD ${storagePath(s)}/${c}/o HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${s.token}\r\nConnection: close\r\n\r\n`);
    expect(raw.head).toContain('X-Object-Meta-Multi-Part-Name: v');
    expect(raw.head).toContain('X-Object-Meta-Color: Blue');
  });

  it('X-Robots-Tag is stored and returned like the other standard headers (§6.2, §6.3)', async () => {
    expect((await call(s, 'HEAD', `/${c}/o`)).headers.get('x-robots-tag')).toBe('noindex');
  });

  it('HEAD 200: the same headers, Content-Length of the object, no body', async () => {
    const r = await call(s, 'HEAD', `/${c}/o`);
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0);
    expect(r.headers.get('content-length')).toBe(String(data.length));
    expect(r.headers.get('etag')).toBe(md5(data));
    expect(r.headers.get('x-object-meta-color')).toBe('Blue');
    expect((await call(s, 'HEAD', `/${c}/missing`)).status).toBe(404);
    expect((await call(s, 'GET', `/${c}/missing`)).status).toBe(404);
    expect((await call(s, 'GET', `/${fresh('nosuch')}/o`)).status).toBe(404);
  });

  it('Range: 206 with Content-Range for a-b, a-, -n (clamped), 416 with bytes */size when unsatisfiable', async () => {
    const range = async (spec: string) => call(s, 'GET', `/${c}/o`, { headers: { Range: spec } });
    const cases: [string, number, number][] = [
      ['bytes=0-4', 0, 4],
      ['bytes=5-', 5, 19],
      ['bytes=-3', 17, 19],
      ['bytes=15-1000', 15, 19],
      ['bytes=-1000', 0, 19],
    ];
    for (const [spec, a, b] of cases) {
      const r = await range(spec);
      expect(r.status, spec).toBe(206);
      expect(r.headers.get('content-range'), spec).toBe(`bytes ${a}-${b}/20`);
      expect(r.headers.get('content-length'), spec).toBe(String(b - a + 1));
      expect(r.body.equals(data.subarray(a, b + 1)), spec).toBe(true);
      expect(r.headers.get('accept-ranges')).toBe('bytes');
      const head = await call(s, 'HEAD', `/${c}/o`, { headers: { Range: spec } });
      expect([head.status, head.headers.get('content-range'), head.headers.get('content-length'), head.body.length], `HEAD ${spec}`).toEqual([206, `bytes ${a}-${b}/20`, String(b - a + 1), 0]);
    }
    const bad = await range('bytes=20-');
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe('bytes */20');
    expectBaseHeaders(bad);
    const zero = await call(s, 'GET', `/${c}/zero`, { headers: { Range: 'bytes=0-0' } });
    expect(zero.status).toBe(416);
    expect(zero.headers.get('content-range')).toBe('bytes */0');
  });

  it('a large (file-backed) object reads back byte-identical, whole and in ranges', async () => {
    const big = Buffer.alloc(700_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 9)) & 0xff;
    await put(c, 'big.bin', big);
    const whole = await call(s, 'GET', `/${c}/big.bin`);
    expect(whole.body.equals(big)).toBe(true);
    expect(whole.headers.get('etag')).toBe(md5(big));
    const ranges: [number, number][] = [
      [0, 0],
      [65_535, 65_537],
      [100_000, 499_999],
      [699_990, 699_999],
    ];
    for (const [a, b] of ranges) {
      const r = await call(s, 'GET', `/${c}/big.bin`, { headers: { Range: `bytes=${a}-${b}` } });
      expect(r.status).toBe(206);
      expect(r.headers.get('content-range')).toBe(`bytes ${a}-${b}/${big.length}`);
      expect(r.body.equals(big.subarray(a, b + 1))).toBe(true);
    }
  });

  it('multiple ranges: only the first range is served (RGW)', async () => {
    const r = await call(s, 'GET', `/${c}/o`, { headers: { Range: 'bytes=0-1,5-9' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe('bytes 0-1/20');
    expect(r.text).toBe('01');
    expect(r.headers.get('content-type')).toBe('text/x-test');
  });

  it('a malformed Range or another unit is ignored: 200 with the whole body', async () => {
    for (const spec of ['bytes=abc', 'items=0-1', 'bytes=5-2', 'bytes=-']) {
      const r = await call(s, 'GET', `/${c}/o`, { headers: { Range: spec } });
      expect(r.status, spec).toBe(200);
      expect(r.body.equals(data), spec).toBe(true);
    }
  });

  it('conditional GET/HEAD: If-Match 412, If-None-Match 304, If-Modified-Since 304, If-Unmodified-Since 412', async () => {
    const etag = md5(data);
    const lm = (await call(s, 'HEAD', `/${c}/o`)).headers.get('last-modified')!;
    const past = new Date(Date.parse(lm) - 3600_000).toUTCString();
    const future = new Date(Date.parse(lm) + 3600_000).toUTCString();
    const cases: [Record<string, string>, number][] = [
      [{ 'If-Match': etag }, 200],
      [{ 'If-Match': `"${etag}"` }, 200],
      [{ 'If-Match': '*' }, 200],
      [{ 'If-Match': `"other", "${etag}"` }, 200],
      [{ 'If-Match': 'nope' }, 412],
      [{ 'If-None-Match': etag }, 304],
      [{ 'If-None-Match': `"${etag}"` }, 304],
      [{ 'If-None-Match': '*' }, 304],
      [{ 'If-None-Match': 'other' }, 200],
      [{ 'If-Modified-Since': lm }, 304],
      [{ 'If-Modified-Since': future }, 304],
      [{ 'If-Modified-Since': past }, 200],
      [{ 'If-Unmodified-Since': past }, 412],
      [{ 'If-Unmodified-Since': lm }, 200],
      [{ 'If-Unmodified-Since': future }, 200],
      [{ 'If-Modified-Since': 'not a date' }, 200],
      [{ 'If-Unmodified-Since': 'not a date' }, 200],
    ];
    for (const method of ['GET', 'HEAD']) {
      for (const [headers, status] of cases) {
        const r = await call(s, method, `/${c}/o`, { headers });
        expect(r.status, `${method} ${JSON.stringify(headers)}`).toBe(status);
        if (status === 304) {
          expect(r.body.length).toBe(0);
          expect(r.headers.get('etag')).toBe(etag);
          expect(r.headers.get('last-modified')).toBe(lm);
        }
        if (status === 200 && method === 'GET') expect(r.body.equals(data)).toBe(true);
      }
    }
  });

  it('metadata set through the native PUT is what engine.headObject returns (keys lower-case), UTF-8 values included', async () => {
    const value = 'héllo wörld ✓';
    const res = await fetch(`${s.storageUrl}/${c}/meta-shared`, {
      method: 'PUT',
      body: 'x',
      headers: {
        'X-Auth-Token': s.token,
        'X-Object-Meta-Foo-Bar': 'Baz',
        'X-Object-Meta-UPPER': 'Case',
        // Header values travel as bytes: send the UTF-8 bytes of the text.
        'X-Object-Meta-Text': Buffer.from(value, 'utf8').toString('latin1'),
      },
    });
    expect(res.status).toBe(201);
    const info = s.engine.headObject(ref(c), 'meta-shared');
    expect(info.meta).toEqual({ 'foo-bar': 'Baz', upper: 'Case', text: value });
    // And metadata the engine sets shows on the native GET.
    await s.engine.putObject(ref(c), 'from-engine', 'y', { meta: { 'set-by': 'engine' }, contentType: 'text/x-engine' });
    const r = await call(s, 'HEAD', `/${c}/from-engine`);
    expect(r.headers.get('x-object-meta-set-by')).toBe('engine');
    expect(r.headers.get('content-type')).toBe('text/x-engine');
    const back = await call(s, 'HEAD', `/${c}/meta-shared`);
    expect(Buffer.from(back.headers.get('x-object-meta-text')!, 'latin1').toString('utf8')).toBe(value);
  });

  it('unknown methods are 405', async () => {
    expect((await call(s, 'PATCH', `/${c}/o`)).status).toBe(405);
    expect((await call(s, 'PATCH', `/${c}`)).status).toBe(405);
  });
});

// ---------------------------------------------------------------------------------------------
describe('objects: POST and DELETE (N9, N10; §6.4, §6.5)', () => {
  const c = 'posts';
  beforeAll(() => mkContainer(c));

  it('POST 202 replaces the whole metadata set; bytes and ETag stay; Content-Type may change', async () => {
    await put(c, 'o', 'payload', { 'X-Object-Meta-A': '1', 'X-Object-Meta-B': '2', 'Content-Type': 'text/plain' });
    const r = await call(s, 'POST', `/${c}/o`, { headers: { 'X-Object-Meta-C': '3' } });
    expect(r.status).toBe(202);
    expect(r.body.length).toBe(0);
    expect(r.headers.get('content-length')).toBe('0');
    let g = await call(s, 'GET', `/${c}/o`);
    expect(g.headers.get('x-object-meta-a')).toBeNull();
    expect(g.headers.get('x-object-meta-b')).toBeNull();
    expect(g.headers.get('x-object-meta-c')).toBe('3');
    expect(g.headers.get('etag')).toBe(md5('payload'));
    expect(g.headers.get('content-type')).toBe('text/plain');
    expect(g.text).toBe('payload');
    expect(s.engine.headObject(ref(c), 'o').meta).toEqual({ c: '3' });
    await call(s, 'POST', `/${c}/o`, { headers: { 'Content-Type': 'application/x-new' } });
    g = await call(s, 'GET', `/${c}/o`);
    expect(g.headers.get('content-type')).toBe('application/x-new');
    expect(g.headers.get('x-object-meta-c')).toBeNull();
  });

  it('POST 404 for a missing object; metadata limits apply (400)', async () => {
    expect((await call(s, 'POST', `/${c}/missing`, { headers: { 'X-Object-Meta-A': '1' } })).status).toBe(404);
    await put(c, 'limits', 'x');
    const r = await call(s, 'POST', `/${c}/limits`, { headers: { 'X-Object-Meta-Big': 'v'.repeat(257) } });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/Metadata value longer than 256: X-Object-Meta-big/i);
  });

  it('DELETE 204 (empty body), then 404', async () => {
    await put(c, 'gone', 'x');
    const r = await call(s, 'DELETE', `/${c}/gone`);
    expect(r.status).toBe(204);
    expect(r.body.length).toBe(0);
    expect((await call(s, 'GET', `/${c}/gone`)).status).toBe(404);
    expect((await call(s, 'DELETE', `/${c}/gone`)).status).toBe(404);
    expect((await call(s, 'DELETE', `/${fresh('nosuch')}/gone`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
describe('server-side copy (N7, N8; seed 4.1.3; §6.6)', () => {
  const c = 'copy-src';
  const d = 'copy-dst';
  beforeAll(async () => {
    await mkContainer(c);
    await mkContainer(d);
    await put(c, 'dir/file.txt', 'copy me', { 'Content-Type': 'text/x-src', 'X-Object-Meta-Origin': 'source', 'X-Object-Meta-Keep': 'k' });
  });

  it('COPY with Destination: 201 with ETag, Last-Modified, X-Copied-From (%2F), -Account, -Last-Modified, metadata, Content-Type', async () => {
    const srcLm = (await call(s, 'HEAD', `/${c}/dir/file.txt`)).headers.get('last-modified');
    const r = await call(s, 'COPY', `/${c}/dir/file.txt`, { headers: { Destination: `/${d}/copied.txt`, 'X-Object-Meta-Extra': 'e' } });
    expect(r.status).toBe(201);
    expect(r.body.length).toBe(0);
    expect(r.headers.get('content-length')).toBe('0');
    expect(r.headers.get('etag')).toBe(md5('copy me'));
    expect(r.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(r.headers.get('x-copied-from')).toBe(`${c}/dir%2Ffile.txt`);
    expect(r.headers.get('x-copied-from-account')).toMatch(/^(AUTH_)?test(\$|%24)tester$/);
    expect(r.headers.get('x-copied-from-last-modified')).toBe(srcLm);
    expect(r.headers.get('x-object-meta-origin')).toBe('source');
    expect(r.headers.get('x-object-meta-keep')).toBe('k');
    expect(r.headers.get('x-object-meta-extra')).toBe('e');
    expect(r.headers.get('content-type')).toBe('text/x-src');
    expectBaseHeaders(r);
    const g = await call(s, 'GET', `/${d}/copied.txt`);
    expect(g.text).toBe('copy me');
    expect(g.headers.get('x-object-meta-origin')).toBe('source');
    expect(g.headers.get('x-object-meta-extra')).toBe('e');
    expect(g.headers.get('content-type')).toBe('text/x-src');
  });

  it('COPY accepts a Destination without the leading slash, and URL-encoded names', async () => {
    const r = await call(s, 'COPY', `/${c}/dir/file.txt`, { headers: { Destination: `${d}/no%20slash` } });
    expect(r.status).toBe(201);
    expect((await call(s, 'GET', `/${d}/no%20slash`)).text).toBe('copy me');
    expect(s.engine.headObject(ref(d), 'no slash').size).toBe(7);
    const back = await call(s, 'PUT', `/${c}/from%20encoded`, { headers: { 'X-Copy-From': `${d}/no%20slash` } });
    expect(back.status).toBe(201);
    expect(back.headers.get('x-copied-from')).toBe(`${d}/no%20slash`);
    expect(s.engine.headObject(ref(c), 'from encoded').etag).toBe(md5('copy me'));
  });

  it('PUT with X-Copy-From: 201, request metadata appended, request Content-Type replaces', async () => {
    const r = await call(s, 'PUT', `/${d}/via-put`, {
      headers: { 'X-Copy-From': `/${c}/dir/file.txt`, 'X-Object-Meta-Keep': 'overridden', 'Content-Type': 'text/x-new' },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-copied-from')).toBe(`${c}/dir%2Ffile.txt`);
    expect(r.headers.get('x-copied-from-last-modified')).toMatch(HTTP_DATE);
    const g = await call(s, 'GET', `/${d}/via-put`);
    expect(g.text).toBe('copy me');
    expect(g.headers.get('x-object-meta-origin')).toBe('source');
    expect(g.headers.get('x-object-meta-keep')).toBe('overridden');
    expect(g.headers.get('content-type')).toBe('text/x-new');
    // Without the leading slash too.
    expect((await call(s, 'PUT', `/${d}/via-put2`, { headers: { 'X-Copy-From': `${c}/dir/file.txt` } })).status).toBe(201);
  });

  it('X-Fresh-Metadata: true drops the source metadata and keeps only the request metadata', async () => {
    for (const [method, path, header] of [
      ['COPY', `/${c}/dir/file.txt`, { Destination: `/${d}/fresh1` }],
      ['PUT', `/${d}/fresh2`, { 'X-Copy-From': `${c}/dir/file.txt` }],
    ] as const) {
      const r = await call(s, method, path, { headers: { ...header, 'X-Fresh-Metadata': 'true', 'X-Object-Meta-Only': 'me' } });
      expect(r.status).toBe(201);
    }
    for (const name of ['fresh1', 'fresh2']) {
      const g = await call(s, 'HEAD', `/${d}/${name}`);
      expect(g.headers.get('x-object-meta-origin'), name).toBeNull();
      expect(g.headers.get('x-object-meta-keep'), name).toBeNull();
      expect(g.headers.get('x-object-meta-only'), name).toBe('me');
    }
  });

  it('destination container missing → 404; missing source → 404; missing Destination → 412; bad X-Copy-From → 412', async () => {
    expect((await call(s, 'COPY', `/${c}/dir/file.txt`, { headers: { Destination: `/${fresh('nosuch')}/o` } })).status).toBe(404);
    expect((await call(s, 'PUT', `/${fresh('nosuch')}/o`, { headers: { 'X-Copy-From': `${c}/dir/file.txt` } })).status).toBe(404);
    expect((await call(s, 'COPY', `/${c}/missing`, { headers: { Destination: `/${d}/o` } })).status).toBe(404);
    expect((await call(s, 'PUT', `/${d}/o`, { headers: { 'X-Copy-From': `${c}/missing` } })).status).toBe(404);
    expect((await call(s, 'PUT', `/${d}/o`, { headers: { 'X-Copy-From': `${fresh('nosuch')}/x` } })).status).toBe(404);
    expect((await call(s, 'COPY', `/${c}/dir/file.txt`)).status).toBe(412);
    expect((await call(s, 'PUT', `/${d}/o`, { headers: { 'X-Copy-From': 'no-slash' } })).status).toBe(412);
    expect((await call(s, 'HEAD', `/${d}/o`)).status).toBe(404);
  });

  it('copying an object onto itself with no metadata resets its metadata; with metadata, adds it', async () => {
    await put(d, 'self', 'self bytes', { 'X-Object-Meta-A': '1', 'Content-Type': 'text/x-self' });
    const r = await call(s, 'COPY', `/${d}/self`, { headers: { Destination: `/${d}/self` } });
    expect(r.status).toBe(201);
    let h = (await call(s, 'HEAD', `/${d}/self`)).headers;
    expect(h.get('x-object-meta-a')).toBeNull();
    expect(h.get('etag')).toBe(md5('self bytes'));
    expect((await call(s, 'GET', `/${d}/self`)).text).toBe('self bytes');
    await call(s, 'POST', `/${d}/self`, { headers: { 'X-Object-Meta-A': '1' } });
    expect((await call(s, 'PUT', `/${d}/self`, { headers: { 'X-Copy-From': `${d}/self`, 'X-Object-Meta-B': '2' } })).status).toBe(201);
    h = (await call(s, 'HEAD', `/${d}/self`)).headers;
    expect(h.get('x-object-meta-a')).toBe('1');
    expect(h.get('x-object-meta-b')).toBe('2');
  });

  it('conditional copy (evaluated against the source): If-Match / Copy-If-Match, If-None-Match / Copy-If-None-Match', async () => {
    const etag = md5('copy me');
    const copy = (headers: Record<string, string>) => call(s, 'COPY', `/${c}/dir/file.txt`, { headers: { Destination: `/${d}/cond`, ...headers } });
    expect((await copy({ 'If-Match': 'nope' })).status).toBe(412);
    expect((await copy({ 'Copy-If-Match': 'nope' })).status).toBe(412);
    expect((await copy({ 'If-None-Match': etag })).status).toBe(412);
    expect((await copy({ 'Copy-If-None-Match': etag })).status).toBe(412);
    expect((await call(s, 'HEAD', `/${d}/cond`)).status).toBe(404);
    expect((await copy({ 'If-Match': etag })).status).toBe(201);
    expect((await copy({ 'Copy-If-Match': etag })).status).toBe(201);
  });

  it('cross-account copy needs permission on the other account (Destination-Account / X-Copy-From-Account)', async () => {
    const theirs = fresh('theirs');
    const o = { base: s.otherStorageUrl, token: s.otherToken };
    expect((await call(s, 'PUT', `/${theirs}`, o)).status).toBe(201);
    expect((await call(s, 'PUT', `/${theirs}/src`, { ...o, body: 'their bytes' })).status).toBe(201);
    const to = await call(s, 'COPY', `/${c}/dir/file.txt`, { headers: { Destination: `/${theirs}/from-me`, 'Destination-Account': `AUTH_${OTHER_ACCOUNT}` } });
    expect(to.status).toBe(403);
    const from = await call(s, 'PUT', `/${d}/from-them`, { headers: { 'X-Copy-From': `${theirs}/src`, 'X-Copy-From-Account': `AUTH_${OTHER_ACCOUNT}` } });
    expect(from.status).toBe(403);
    expect((await call(s, 'HEAD', `/${d}/from-them`)).status).toBe(404);
    // Granted by the other account's ACLs, both work.
    await call(s, 'POST', `/${theirs}`, { ...o, headers: { 'X-Container-Read': ACCOUNT, 'X-Container-Write': ACCOUNT } });
    const ok = await call(s, 'PUT', `/${d}/from-them`, { headers: { 'X-Copy-From': `${theirs}/src`, 'X-Copy-From-Account': `AUTH_${OTHER_ACCOUNT}` } });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('x-copied-from-account')).toMatch(/test(\$|%24)other$/);
    expect((await call(s, 'GET', `/${d}/from-them`)).text).toBe('their bytes');
    const to2 = await call(s, 'COPY', `/${c}/dir/file.txt`, { headers: { Destination: `/${theirs}/from-me`, 'Destination-Account': `AUTH_${OTHER_ACCOUNT}` } });
    expect(to2.status).toBe(201);
    expect((await call(s, 'GET', `/${theirs}/from-me`, o)).text).toBe('copy me');
  });

  it('copy keeps large objects byte-identical across containers', async () => {
    const big = Buffer.alloc(300_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    await put(c, 'big', big);
    expect((await call(s, 'PUT', `/${d}/big`, { headers: { 'X-Copy-From': `${c}/big` } })).status).toBe(201);
    const g = await call(s, 'GET', `/${d}/big`);
    expect(g.body.equals(big)).toBe(true);
    expect(g.headers.get('etag')).toBe(md5(big));
  });
});

// ---------------------------------------------------------------------------------------------
describe('expiry: X-Delete-At / X-Delete-After (§9)', () => {
  const c = 'expiry';
  beforeAll(() => mkContainer(c));
  const now = () => Math.floor(Date.now() / 1000);

  it('400 for past or non-integer values, on PUT and POST', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'X-Delete-At': String(now() - 10) }, 'X-Delete-At in past'],
      [{ 'X-Delete-At': 'tomorrow' }, 'Non-integer X-Delete-At'],
      [{ 'X-Delete-At': `${now() + 100}.5` }, 'Non-integer X-Delete-At'],
      [{ 'X-Delete-After': '-5' }, 'X-Delete-After in past'],
      [{ 'X-Delete-After': 'soon' }, 'Non-integer X-Delete-After'],
    ];
    await put(c, 'exists', 'x');
    for (const [headers, message] of cases) {
      const r = await call(s, 'PUT', `/${c}/bad`, { body: 'x', headers });
      expect(r.status, JSON.stringify(headers)).toBe(400);
      expect(r.text).toContain(message);
      const p = await call(s, 'POST', `/${c}/exists`, { headers });
      expect(p.status, `POST ${JSON.stringify(headers)}`).toBe(400);
    }
    expect((await call(s, 'HEAD', `/${c}/bad`)).status).toBe(404);
  });

  it('GET/HEAD of a live object show X-Delete-At; POST can set and clear it', async () => {
    const at = now() + 3600;
    await put(c, 'later', 'x', { 'X-Delete-At': String(at) });
    expect((await call(s, 'HEAD', `/${c}/later`)).headers.get('x-delete-at')).toBe(String(at));
    await put(c, 'after', 'x', { 'X-Delete-After': '3600' });
    const after = Number((await call(s, 'GET', `/${c}/after`)).headers.get('x-delete-at'));
    expect(Math.abs(after - (now() + 3600))).toBeLessThanOrEqual(2);
    expect((await call(s, 'POST', `/${c}/later`, { headers: { 'X-Remove-Delete-At': '1' } })).status).toBe(202);
    expect((await call(s, 'HEAD', `/${c}/later`)).headers.get('x-delete-at')).toBeNull();
    expect((await call(s, 'POST', `/${c}/later`, { headers: { 'X-Delete-At': String(at + 1) } })).status).toBe(202);
    expect((await call(s, 'HEAD', `/${c}/later`)).headers.get('x-delete-at')).toBe(String(at + 1));
  });

  it('an expired object is 404 on GET/HEAD and missing from listings, even before any sweep', async () => {
    await put(c, 'short', 'x', { 'X-Delete-After': '1' });
    await put(c, 'short-at', 'x', { 'X-Delete-At': String(now() + 1) });
    expect((await call(s, 'GET', `/${c}/short`)).status).toBe(200);
    const gone = await waitFor(async () => (await call(s, 'GET', `/${c}/short`)).status === 404, 4000);
    expect(gone).toBe(true);
    expect(await waitFor(async () => (await call(s, 'HEAD', `/${c}/short-at`)).status === 404, 4000)).toBe(true);
    expect((await call(s, 'HEAD', `/${c}/short`)).status).toBe(404);
    const rows = JSON.parse((await call(s, 'GET', `/${c}?format=json`)).text) as { name: string }[];
    expect(rows.map((r) => r.name)).not.toContain('short');
    expect(rows.map((r) => r.name)).not.toContain('short-at');
    expect((await call(s, 'COPY', `/${c}/short`, { headers: { Destination: `/${c}/copy` } })).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
describe('metadata limits (§7.1)', () => {
  const c = 'metalimits';
  beforeAll(() => mkContainer(c));
  const metaHeaders = (prefix: string, n: number, valueLen: number, nameLen = 0) => {
    const h: Record<string, string> = {};
    for (let i = 0; i < n; i++) h[`${prefix}${String(i).padStart(Math.max(nameLen, 1), 'k')}`] = 'v'.repeat(valueLen);
    return h;
  };
  const expect400 = async (r: Reply, message: RegExp | string) => {
    expect(r.status, r.text).toBe(400);
    if (typeof message === 'string') expect(r.text).toContain(message);
    else expect(r.text).toMatch(message);
    expectBaseHeaders(r);
  };

  it('object: name 128 / value 256 bytes are fine; 129 / 257 are 400 with the Swift messages', async () => {
    await put(c, 'ok', 'x', { [`X-Object-Meta-${'n'.repeat(128)}`]: 'v'.repeat(256) });
    await expect400(await call(s, 'PUT', `/${c}/bad`, { body: 'x', headers: { [`x-object-meta-${'n'.repeat(129)}`]: 'v' } }), new RegExp(`Metadata name too long: X-Object-Meta-${'n'.repeat(129)}`, 'i'));
    await expect400(await call(s, 'PUT', `/${c}/bad`, { body: 'x', headers: { 'x-object-meta-k': 'v'.repeat(257) } }), /Metadata value longer than 256: X-Object-Meta-k/i);
    expect((await call(s, 'HEAD', `/${c}/bad`)).status).toBe(404);
  });

  it('object: 90 items are fine, 91 are 400; over 4096 bytes in total is 400', async () => {
    await put(c, 'ninety', 'x', metaHeaders('X-Object-Meta-', 90, 10));
    await expect400(await call(s, 'PUT', `/${c}/bad`, { body: 'x', headers: metaHeaders('X-Object-Meta-', 91, 10) }), 'Too many metadata items; max 90');
    await expect400(await call(s, 'PUT', `/${c}/bad`, { body: 'x', headers: metaHeaders('X-Object-Meta-', 17, 250, 10) }), 'Total metadata too large; max 4096');
    await expect400(await call(s, 'POST', `/${c}/ninety`, { headers: metaHeaders('X-Object-Meta-', 91, 10) }), 'Too many metadata items; max 90');
  });

  it('an empty metadata name is 400 "Metadata name cannot be empty"', async () => {
    await expect400(await call(s, 'PUT', `/${c}/bad`, { body: 'x', headers: { 'X-Object-Meta-': 'value' } }), 'Metadata name cannot be empty');
    await expect400(await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Meta-': 'value' } }), 'Metadata name cannot be empty');
  });

  it('container and account: the count is checked after merging with the existing metadata', async () => {
    const m = fresh('meta');
    await mkContainer(m, metaHeaders('X-Container-Meta-a', 50, 5));
    await expect400(await call(s, 'POST', `/${m}`, { headers: metaHeaders('X-Container-Meta-b', 41, 5) }), 'Too many metadata items; max 90');
    expect((await call(s, 'POST', `/${m}`, { headers: metaHeaders('X-Container-Meta-b', 40, 5) })).status).toBe(204);
    await expect400(await call(s, 'POST', `/${m}`, { headers: { 'X-Container-Meta-Big': 'v'.repeat(257) } }), /Metadata value longer than 256: X-Container-Meta-big/i);
    await expect400(await call(s, 'PUT', `/${fresh('meta')}`, { headers: { [`X-Container-Meta-${'n'.repeat(129)}`]: 'v' } }), 'Metadata name too long');

    const u = await addUser(s, 'meta$limits');
    const post = (headers: Record<string, string>) => call(s, 'POST', '', { base: u.storageUrl, token: u.token, headers });
    expect((await post(metaHeaders('X-Account-Meta-a', 60, 5))).status).toBe(204);
    await expect400(await post(metaHeaders('X-Account-Meta-b', 31, 5)), 'Too many metadata items; max 90');
    await expect400(await post({ 'X-Account-Meta-Big': 'v'.repeat(257) }), /Metadata value longer than 256: X-Account-Meta-big/i);
    await expect400(await post(metaHeaders('X-Account-Meta-c', 20, 250, 10)), 'Total metadata too large; max 4096');
  });

  it('account and container metadata must be valid UTF-8 (400 "Metadata must be valid UTF-8")', async () => {
    const m = fresh('utf8');
    await mkContainer(m);
    const invalid = '\xff\xfebad'; // the bytes FF FE: not UTF-8
    await expect400(await call(s, 'POST', `/${m}`, { headers: { 'X-Container-Meta-Bad': invalid } }), 'Metadata must be valid UTF-8');
    await expect400(await call(s, 'PUT', `/${fresh('utf8')}`, { headers: { 'X-Container-Meta-Bad': invalid } }), 'Metadata must be valid UTF-8');
    await expect400(await call(s, 'POST', '', { headers: { 'X-Account-Meta-Bad': invalid } }), 'Metadata must be valid UTF-8');
    expect((await call(s, 'HEAD', `/${m}`)).headers.get('x-container-meta-bad')).toBeNull();
    // Valid UTF-8 is fine and comes back as the same bytes.
    const text = Buffer.from('grüße ✓', 'utf8').toString('latin1');
    expect((await call(s, 'POST', `/${m}`, { headers: { 'X-Container-Meta-Text': text } })).status).toBe(204);
    expect((await call(s, 'HEAD', `/${m}`)).headers.get('x-container-meta-text')).toBe(text);
    expect(s.engine.getContainer(ref(m)).meta.text).toBe('grüße ✓');
  });

  it('object metadata values are not validated as UTF-8: other bytes are stored and returned as received', async () => {
    const m = fresh('bytes');
    await mkContainer(m);
    const invalid = '\xff\xfebad';
    const r = await call(s, 'PUT', `/${m}/o`, { body: 'x', headers: { 'X-Object-Meta-Bytes': invalid } });
    expect(r.status).toBe(201);
    const raw = await rawRequest(s.port, `HEAD ${storagePath(s)}/${m}/o HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${s.token}\r\nConnection: close\r\n\r\n`);
    expect(raw.headers['x-object-meta-bytes']).toBe(invalid);
  });

  it('a header value longer than 8192 bytes is 400 "Header value too long"', async () => {
    const r = await call(s, 'PUT', `/${c}/longheader`, { body: 'x', headers: { 'X-Long-Header': 'h'.repeat(8193) } });
    await expect400(r, /Header value too long: X-Long-Header/i);
    expect((await call(s, 'HEAD', `/${c}/longheader`)).status).toBe(404);
    expect((await call(s, 'PUT', `/${c}/longheader`, { body: 'x', headers: { 'X-Long-Header': 'h'.repeat(8192) } })).status).toBe(201);
    await expect400(await call(s, 'POST', `/${c}/longheader`, { headers: { 'X-Long-Header': 'h'.repeat(8193) } }), /Header value too long/);
    await expect400(await call(s, 'POST', `/${c}`, { headers: { 'X-Long-Header': 'h'.repeat(8193) } }), /Header value too long/);
    await expect400(await call(s, 'PUT', `/${fresh('long')}`, { headers: { 'X-Long-Header': 'h'.repeat(8193) } }), /Header value too long/);
    await expect400(await call(s, 'POST', '', { headers: { 'X-Long-Header': 'h'.repeat(8193) } }), /Header value too long/);
  });
});

// ---------------------------------------------------------------------------------------------
describe('ACLs and public containers (§11, §1.3)', () => {
  it('no ACL: anonymous 401, another user 403 (object, listing, container HEAD, writes)', async () => {
    const c = fresh('private');
    await mkContainer(c);
    await put(c, 'o', 'secret');
    for (const [method, path] of [
      ['GET', `/${c}/o`],
      ['HEAD', `/${c}/o`],
      ['GET', `/${c}`],
      ['HEAD', `/${c}`],
      ['PUT', `/${c}/new`],
      ['DELETE', `/${c}/o`],
      ['POST', `/${c}`],
    ] as const) {
      const anon = await call(s, method, path, { token: null, ...(method === 'PUT' ? { body: 'x' } : {}) });
      expect(anon.status, `anonymous ${method} ${path}`).toBe(401);
      expectBaseHeaders(anon, `anonymous ${method} ${path}`);
      const other = await call(s, method, path, { token: s.otherToken, ...(method === 'PUT' ? { body: 'x' } : {}) });
      expect(other.status, `other ${method} ${path}`).toBe(403);
    }
    expect((await call(s, 'GET', `/${c}/o`)).text).toBe('secret');
    expect((await call(s, 'HEAD', `/${c}/new`)).status).toBe(404);
    // Strangers cannot tell missing containers from private ones.
    expect((await call(s, 'GET', `/${fresh('nosuch')}/o`, { token: null })).status).toBe(401);
    expect((await call(s, 'GET', `/${fresh('nosuch')}/o`, { token: s.otherToken })).status).toBe(403);
  });

  it('a large object in a readable container does not hand out segments its reader may not read (SLO, DLO, COPY)', async () => {
    const pub = fresh('pub');
    const secret = fresh('secret');
    await mkContainer(pub, { 'X-Container-Read': '.r:*' });
    await mkContainer(secret);
    await put(secret, 'seg1', 'secret bytes');
    const manifest = JSON.stringify([{ path: `/${secret}/seg1`, etag: null, size_bytes: null }]);
    expect((await call(s, 'PUT', `/${pub}/slo?multipart-manifest=put`, { body: manifest })).status).toBe(201);
    await put(pub, 'dlo', '', { 'X-Object-Manifest': `${secret}/seg` });
    for (const o of ['slo', 'dlo']) {
      expect((await call(s, 'GET', `/${pub}/${o}`)).text, 'the owner reads it').toBe('secret bytes');
      expect((await call(s, 'PUT', `/${secret}/copy-of-${o}`, { headers: { 'X-Copy-From': `${pub}/${o}` } })).status, 'and copies it').toBe(201);
      expect((await call(s, 'GET', `/${secret}/copy-of-${o}`)).text).toBe('secret bytes');
    }
    const theirs = fresh('theirs');
    const other = { base: s.otherStorageUrl, token: s.otherToken };
    expect((await call(s, 'PUT', `/${theirs}`, other)).status).toBe(201);
    for (const o of ['slo', 'dlo']) {
      for (const token of [null, s.otherToken]) {
        const r = await call(s, 'GET', `/${pub}/${o}`, { token });
        expect([o, token ? 'other account' : 'anonymous', r.status, r.text.includes('secret')]).toEqual([o, token ? 'other account' : 'anonymous', 403, false]);
        // HEAD of a DLO lists its segment container for its size and ETag: denied just the same.
        if (o === 'dlo') expect((await call(s, 'HEAD', `/${pub}/${o}`, { token })).status).toBe(403);
      }
      const copied = await call(s, 'PUT', `/${theirs}/${o}`, { ...other, headers: { 'X-Copy-From': `${pub}/${o}`, 'X-Copy-From-Account': `AUTH_${ACCOUNT}` } });
      expect([o, copied.status]).toEqual([o, 403]);
    }
    expect((await call(s, 'GET', `/${theirs}?format=json`, other)).text).toBe('[]');
    // The same through the compatible API, anonymously (the bucket's .r:* makes its objects public).
    const viaS3 = await fetch(`${s.url}/test:${pub}/slo`);
    expect([viaS3.status, /<Code>AccessDenied<\/Code>/.test(await viaS3.text())]).toEqual([403, true]);
    // Once the segment container is readable as well, so are the large objects.
    await call(s, 'POST', `/${secret}`, { headers: { 'X-Container-Read': '.r:*' } });
    for (const o of ['slo', 'dlo']) expect((await call(s, 'GET', `/${pub}/${o}`, { token: null })).text).toBe('secret bytes');
    expect(await (await fetch(`${s.url}/test:${pub}/slo`)).text()).toBe('secret bytes');
  });

  it('X-Container-Read: .r:* lets anyone GET/HEAD objects, but not list; no anonymous writes', async () => {
    const c = fresh('public');
    await mkContainer(c, { 'X-Container-Read': '.r:*' });
    await put(c, 'pub.txt', 'public bytes');
    const g = await call(s, 'GET', `/${c}/pub.txt`, { token: null });
    expect(g.status).toBe(200);
    expect(g.text).toBe('public bytes');
    expect(g.headers.get('etag')).toBe(md5('public bytes'));
    expect((await call(s, 'HEAD', `/${c}/pub.txt`, { token: null })).status).toBe(200);
    expect((await call(s, 'GET', `/${c}/pub.txt`, { token: s.otherToken })).status).toBe(200);
    expect((await call(s, 'GET', `/${c}/missing`, { token: null })).status).toBe(404);
    expect((await call(s, 'GET', `/${c}?format=json`, { token: null })).status).toBe(401);
    expect((await call(s, 'HEAD', `/${c}`, { token: null })).status).toBe(401);
    expect((await call(s, 'PUT', `/${c}/anon`, { token: null, body: 'x' })).status).toBe(401);
    expect((await call(s, 'DELETE', `/${c}/pub.txt`, { token: null })).status).toBe(401);
    expect((await call(s, 'POST', `/${c}/pub.txt`, { token: null, headers: { 'X-Object-Meta-A': '1' } })).status).toBe(401);
    expect((await call(s, 'PUT', `/${c}/other`, { token: s.otherToken, body: 'x' })).status).toBe(403);
    // Public reads work through the /v1 form of the URL too.
    const v1 = await call(s, 'GET', `/${c}/pub.txt`, { token: null, base: `${s.url}/v1/AUTH_test%24tester` });
    expect(v1.status).toBe(200);
  });

  it('X-Container-Read: .r:*,.rlistings also allows anonymous listing (GET/HEAD container)', async () => {
    const c = fresh('listed');
    await mkContainer(c, { 'X-Container-Read': '.r:*,.rlistings' });
    await put(c, 'a', '1');
    const l = await call(s, 'GET', `/${c}?format=json`, { token: null });
    expect(l.status).toBe(200);
    expect((JSON.parse(l.text) as { name: string }[]).map((r) => r.name)).toEqual(['a']);
    expect((await call(s, 'HEAD', `/${c}`, { token: null })).status).toBe(204);
    expect((await call(s, 'GET', `/${c}/a`, { token: null })).status).toBe(200);
    // Still not the account, nor container changes.
    expect((await call(s, 'GET', '?format=json', { token: null })).status).toBe(401);
    expect((await call(s, 'POST', `/${c}`, { token: null, headers: { 'X-Container-Meta-A': '1' } })).status).toBe(401);
    expect((await call(s, 'DELETE', `/${c}`, { token: null })).status).toBe(401);
  });

  it('messy ACLs are normalised (".referrer : *" is ".r:*", spaces dropped) and then work', async () => {
    const c = fresh('messy');
    await mkContainer(c, { 'X-Container-Read': ' .referrer : * , .rlistings ' });
    expect((await call(s, 'HEAD', `/${c}`)).headers.get('x-container-read')).toBe('.r:*,.rlistings');
    await put(c, 'a', 'messy');
    expect((await call(s, 'GET', `/${c}/a`, { token: null })).status).toBe(200);
    expect((await call(s, 'GET', `/${c}?format=json`, { token: null })).status).toBe(200);
    await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Read': '.ref:*' } });
    expect((await call(s, 'HEAD', `/${c}`)).headers.get('x-container-read')).toBe('.r:*');
    expect((await call(s, 'GET', `/${c}/a`, { token: null })).status).toBe(200);
  });

  it('X-Container-Read naming a user grants that user read and list; X-Container-Write grants object writes', async () => {
    const c = fresh('shared');
    await mkContainer(c, { 'X-Container-Read': OTHER_ACCOUNT });
    await put(c, 'a', 'shared');
    const base = s.storageUrl;
    expect((await call(s, 'GET', `/${c}/a`, { token: s.otherToken, base })).text).toBe('shared');
    expect((await call(s, 'GET', `/${c}?format=json`, { token: s.otherToken, base })).status).toBe(200);
    expect((await call(s, 'GET', `/${c}/a`, { token: null })).status).toBe(401);
    expect((await call(s, 'PUT', `/${c}/b`, { token: s.otherToken, body: 'x' })).status).toBe(403);
    expect((await call(s, 'POST', `/${c}`, { token: s.otherToken, headers: { 'X-Container-Read': '.r:*' } })).status).toBe(403);

    const w = fresh('writable');
    await mkContainer(w, { 'X-Container-Write': OTHER_ACCOUNT });
    expect((await call(s, 'PUT', `/${w}/by-other`, { token: s.otherToken, body: 'written' })).status).toBe(201);
    expect((await call(s, 'GET', `/${w}/by-other`)).text).toBe('written');
    expect((await call(s, 'GET', `/${w}/by-other`, { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'GET', `/${w}?format=json`, { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'DELETE', `/${w}/by-other`, { token: s.otherToken })).status).toBe(204);
    expect((await call(s, 'DELETE', `/${w}`, { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'PUT', `/${w}/x`, { token: null, body: 'x' })).status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------
describe('bad input never crashes or hangs the server', () => {
  it('malformed percent-encoding, invalid UTF-8 (%FF) and NUL (%00) in the path are 4xx / 412', async () => {
    const c = fresh('bad');
    await mkContainer(c);
    const bad = await call(s, 'GET', `/${c}/a%ZZb`);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expectBaseHeaders(bad);
    for (const path of [`/${c}/a%FFb`, `/${c}/a%00b`, `/${c}/%C3`, `/${c}/%ED%A0%80`]) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const r = await call(s, method, path, method === 'PUT' ? { body: 'x' } : {});
        expect(r.status, `${method} ${path}`).toBe(412);
        expectBaseHeaders(r, `${method} ${path}`);
      }
    }
    expect((await call(s, 'GET', `/${c}?format=json&prefix=%FF`)).status).toBeGreaterThanOrEqual(400);
    expect((await call(s, 'GET', `/${c}?format=json&prefix=%ZZ`)).status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse((await call(s, 'GET', `/${c}?format=json`)).text)).toEqual([]);
  });

  it('paths that address nothing: empty account, junk after /v1, double slashes', async () => {
    for (const path of ['/swift/v1/AUTH_', '/swift/v1/', '/swift/v1/nope', '/swift/junk']) {
      const r = await fetch(`${s.url}${path}`, { headers: { 'X-Auth-Token': s.token } });
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expectBaseHeaders(r, path);
    }
    const r = await call(s, 'GET', '//o');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
  });

  it('a huge header block is 4xx, and the server keeps serving', async () => {
    const raw = await rawRequest(
      s.port,
      `GET ${storagePath(s)} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${s.token}\r\nX-Huge: ${'h'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
    const garbage = await rawRequest(s.port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(garbage.status === 0 || (garbage.status >= 400 && garbage.status < 500)).toBe(true);
    expect((await call(s, 'HEAD', '')).status).toBe(204);
  });

  it('a client that disconnects in the middle of a download does not disturb the server', async () => {
    const c = fresh('abort');
    await mkContainer(c);
    const big = Buffer.alloc(3_000_000, 0x5a);
    await put(c, 'big', big);
    for (let i = 0; i < 5; i++) {
      const ctl = new AbortController();
      const res = await fetch(`${s.storageUrl}/${c}/big`, { headers: { 'X-Auth-Token': s.token }, signal: ctl.signal });
      const reader = res.body!.getReader();
      await reader.read();
      ctl.abort();
      await reader.read().catch(() => undefined);
    }
    const whole = await call(s, 'GET', `/${c}/big`);
    expect(whole.body.equals(big)).toBe(true);
  });

  it('many concurrent requests with bad input leave the server healthy', async () => {
    const c = fresh('storm');
    await mkContainer(c);
    const jobs: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      jobs.push(call(s, 'PUT', `/${c}/o${i}`, { body: `v${i}` }));
      jobs.push(call(s, 'GET', `/${c}/%FF${i}`));
      jobs.push(call(s, 'GET', `/${c}?limit=99999`));
      jobs.push(call(s, 'PUT', `/${c}/bad${i}`, { body: 'x', headers: { ETag: 'f'.repeat(32) } }));
    }
    await Promise.all(jobs);
    const rows = JSON.parse((await call(s, 'GET', `/${c}?format=json`)).text) as unknown[];
    expect(rows).toHaveLength(40);
  });
});
