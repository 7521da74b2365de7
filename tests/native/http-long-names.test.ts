// Raw HTTP tests of the native (Swift-style) API: names past their limits in every position.
// Swift answers 404 for a read of a name no object can have (only PUT checks the length: 400
// "Object name length of N longer than 1024"), and lists as for any other marker or prefix.
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeName, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { call, v1Auth, type Reply, type TestServer } from './server.js';

let s!: TestServer;
const { mkContainer, put } = useNativeServer((server) => (s = server));
const c = 'longnames';
/** 1025 bytes, then past lmdb's key limit (1978), then far past it. */
const LONG = ['n'.repeat(1025), 'é'.repeat(1000), 'n'.repeat(6000)];
const NAMES = ['a', 'b/1', 'b/2', 'n'.repeat(1024), `${'n'.repeat(1023)}o`, 'z'];
const bytes = (x: string) => Buffer.from(x, 'utf8');
const after = (m: string) => [...NAMES].sort((x, y) => Buffer.compare(bytes(x), bytes(y))).filter((n) => Buffer.compare(bytes(n), bytes(m)) > 0);
const q = encodeURIComponent;

function expectNot500(r: Reply, what: string): void {
  expect(r.status, `${what}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
  expectBaseHeaders(r, what);
}

beforeAll(async () => {
  await mkContainer(c);
  for (const n of NAMES) await put(c, n, 'x');
});

describe('object names past 1024 bytes', () => {
  it('GET, HEAD, DELETE and POST answer 404; PUT answers 400 with Swift\'s message', async () => {
    for (const name of LONG) {
      const size = Buffer.byteLength(name);
      for (const method of ['GET', 'HEAD', 'DELETE', 'POST']) {
        const r = await call(s, method, `/${c}/${encodeName(name)}`);
        expectNot500(r, `${method} ${size}`);
        expect(r.status, `${method} ${size}`).toBe(404);
      }
      const r = await call(s, 'PUT', `/${c}/${encodeName(name)}`, { body: 'x' });
      expect(r.status).toBe(400);
      expect(r.text).toContain(`Object name length of ${size} longer than 1024`);
      const manifest = await call(s, 'PUT', `/${c}/${encodeName(name)}?multipart-manifest=put`, { body: JSON.stringify([{ path: `/${c}/a` }]) });
      expect(manifest.status).toBe(400);
    }
  });

  it('as a copy source they are 404, as a copy destination 400', async () => {
    for (const name of LONG) {
      const from = await call(s, 'PUT', `/${c}/copied`, { headers: { 'X-Copy-From': `/${c}/${encodeName(name)}` } });
      expectNot500(from, 'X-Copy-From');
      expect(from.status).toBe(404);
      const copy = await call(s, 'COPY', `/${c}/${encodeName(name)}`, { headers: { Destination: `/${c}/copied` } });
      expect(copy.status).toBe(404);
      const to = await call(s, 'COPY', `/${c}/a`, { headers: { Destination: `/${c}/${encodeName(name)}` } });
      expect(to.status).toBe(400);
    }
    expect((await call(s, 'HEAD', `/${c}/copied`)).status).toBe(404);
  });

  it('as an SLO segment they are a missing segment; as a DLO prefix they match no segment', async () => {
    const slo = await call(s, 'PUT', `/${c}/slo?multipart-manifest=put`, { body: JSON.stringify([{ path: `/${c}/${LONG[2]}` }]) });
    expect(slo.status).toBe(400);
    expect(slo.text).toContain('404 Not Found');
    expect((await call(s, 'PUT', `/${c}/dlo`, { body: '', headers: { 'X-Object-Manifest': `${c}/${q(LONG[1]!)}` } })).status).toBe(201);
    const dlo = await call(s, 'GET', `/${c}/dlo`);
    expect([dlo.status, dlo.text]).toEqual([200, '']);
    await call(s, 'DELETE', `/${c}/dlo`);
  });
});

describe('listing parameters past 1024 bytes', () => {
  const list = async (query: string) => {
    const r = await call(s, 'GET', `/${c}?format=json&${query}`);
    expectNot500(r, query.slice(0, 40));
    expect(r.status).toBe(200);
    return (JSON.parse(r.text) as { name?: string; subdir?: string }[]).map((e) => e.name ?? e.subdir);
  };

  it('a prefix or path matches nothing (200 with [] in JSON, 204 in plain text)', async () => {
    for (const name of LONG) {
      expect(await list(`prefix=${q(name)}`)).toEqual([]);
      expect(await list(`path=${q(name)}`)).toEqual([]);
      expect(await list(`prefix=${q(name)}&delimiter=/&reverse=on`)).toEqual([]);
      expect((await call(s, 'GET', `/${c}?format=plain&prefix=${q(name)}`)).status).toBe(204);
    }
  });

  it('a marker or end_marker selects exactly the names a byte-wise comparison selects', async () => {
    for (const name of LONG) {
      expect(await list(`marker=${q(name)}`)).toEqual(after(name));
      expect(await list(`end_marker=${q(name)}`)).toEqual(NAMES.filter((n) => !after(name).includes(n)));
      expect(await list(`reverse=on&end_marker=${q(name)}`)).toEqual(after(name).reverse());
    }
    // A stored name of 1024 bytes followed by more: that name is before the marker, not after.
    const marker = `${'n'.repeat(1024)}${'n'.repeat(3000)}`;
    expect(await list(`marker=${q(marker)}`)).toEqual([`${'n'.repeat(1023)}o`, 'z']);
    expect(await list(`end_marker=${q(marker)}&prefix=n`)).toEqual(['n'.repeat(1024)]);
    // Account listings take them too.
    for (const name of LONG) {
      for (const p of ['marker', 'end_marker', 'prefix']) {
        const r = await call(s, 'GET', `?format=json&${p}=${q(name)}`);
        expectNot500(r, `account ${p}`);
        expect(r.status).toBe(200);
      }
    }
  });
});

describe('container, account and user names past their limits', () => {
  it('a container name past 256 bytes is 404 on every request but PUT (400)', async () => {
    for (const n of [257, 2000, 6000]) {
      const long = 'c'.repeat(n);
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) {
        const r = await call(s, method, `/${long}`);
        expectNot500(r, `${method} container ${n}`);
        expect(r.status).toBe(404);
      }
      expect((await call(s, 'GET', `/${long}/object`)).status).toBe(404);
      expect((await call(s, 'PUT', `/${c}/copied`, { headers: { 'X-Copy-From': `/${long}/a` } })).status).toBe(404);
      expect((await call(s, 'PUT', `/${long}`)).status).toBe(400);
    }
  });

  it('an account in the path, or a user at sign-in, that long is refused, not a server error', async () => {
    const account = `${s.url}/swift/v1/AUTH_${'z'.repeat(6000)}`;
    const r = await call(s, 'GET', '', { base: account });
    expectNot500(r, 'long account');
    expect(r.status).toBe(403);
    expect((await call(s, 'GET', '', { base: account, token: null })).status).toBe(401);
    // As for any unknown user (Swift's tempauth refuses bad v1 credentials with 401).
    await expect(v1Auth(s.url, `${'u'.repeat(6000)}:swift`, 'key')).rejects.toThrow(/: 401$/);
  });
});
