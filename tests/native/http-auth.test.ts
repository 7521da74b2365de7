// Raw HTTP tests of the native (Swift-style) API: v1 auth, the headers on every native response, and /info.
import { describe, expect, it } from 'vitest';
import { MAX_ACCOUNT_NAME_BYTES, MAX_CONTAINER_NAME_BYTES, MAX_OBJECT_NAME_BYTES } from '../../src-shared/names.js';
import { issueToken } from '../../src-main/http/native/auth.js';
import { md5, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { ACCOUNT, addUser, call, rawRequest, SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

describe('v1 auth (§1)', () => {
  it('answers 200 (as tempauth) with X-Storage-Url, X-Auth-Token (= X-Storage-Token) and X-Auth-Token-Expires', async () => {
    const res = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': SWIFT_KEY } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expectBaseHeaders(res, 'auth');
    const storage = res.headers.get('x-storage-url')!;
    expect(storage).toBe(`${s.url}/v1/AUTH_${ACCOUNT}`);
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

  it('401 for a wrong key, missing headers or an unknown user (as Swift: a refusal does not tell which users exist), 405 for other methods', async () => {
    const wrong = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-auth-token')).toBeNull();
    expectBaseHeaders(wrong, 'auth 401');
    const missing = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': SWIFT_USER } });
    expect(missing.status).toBe(401);
    const none = await fetch(`${s.url}/auth/1.0`);
    expect(none.status).toBe(401);
    const unknown = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': 'test$nobody:swift', 'X-Auth-Key': SWIFT_KEY } });
    expect(unknown.status).toBe(401);
    // The realm is the account part of an unknown user, as tempauth says it ("unknown" for a wrong key).
    expect(unknown.headers.get('www-authenticate')).toBe('Swift realm="test$nobody"');
    expect(wrong.headers.get('www-authenticate')).toBe('Swift realm="unknown"');
    expect(unknown.headers.get('x-auth-token')).toBeNull();
    expectBaseHeaders(unknown, 'auth unknown user');
    for (const method of ['POST', 'HEAD']) {
      const other = await fetch(`${s.url}/auth/1.0`, { method, headers: { 'X-Auth-User': SWIFT_USER, 'X-Auth-Key': SWIFT_KEY } });
      expect([other.status, other.headers.get('x-auth-token')], method).toEqual([405, null]);
    }
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
    expect(r.headers['x-storage-url']).toBe(`http://storage.example:8080/v1/AUTH_${ACCOUNT}`);
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
    // Every 401 says how to authenticate (RFC 9110 11.6.1), its realm the account in the path as Swift's.
    const realm = `Swift realm="AUTH_${ACCOUNT}"`;
    for (const r of [bad, await call(s, 'GET', '', { token: null }), await call(s, 'GET', '/no-such-container/o', { token: null })]) {
      expect(r.headers.get('www-authenticate')).toBe(realm);
    }
    const elsewhere = await call(s, 'GET', '', { token: null, base: `${s.url}/v1/AUTH_nobody%C3%BC` });
    expect([elsewhere.status, elsewhere.headers.get('www-authenticate')]).toEqual([401, 'Swift realm="unknown"']);
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

  it('204 responses (HEAD of an account or container) carry no Content-Length and no body (RFC 9110 8.6)', async () => {
    const c = fresh('len');
    await mkContainer(c);
    for (const path of ['', `/${c}`]) {
      const r = await call(s, 'HEAD', path);
      expect(r.status).toBe(204);
      expect(r.headers.get('content-length')).toBeNull();
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
      // The name limits are the engine's, which refuses longer names on writes.
      expect(info.swift).toMatchObject({
        max_object_name_length: MAX_OBJECT_NAME_BYTES,
        max_object_name_size: MAX_OBJECT_NAME_BYTES,
        max_container_name_length: MAX_CONTAINER_NAME_BYTES,
        max_account_name_length: MAX_ACCOUNT_NAME_BYTES,
      });
    }
  });

  it('answers GET and HEAD only: other methods are 405 with Allow, as Swift', async () => {
    expect((await fetch(`${s.url}/info`, { method: 'HEAD' })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const r = await fetch(`${s.url}/info`, { method });
      expect([r.status, r.headers.get('allow')], method).toEqual([405, 'GET, HEAD']);
    }
  });
});
