// Raw HTTP tests of the native (Swift-style) API: ACLs and public containers.
import { describe, expect, it } from 'vitest';
import { md5, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { ACCOUNT, call, OTHER_ACCOUNT, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

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
    // The ACLs themselves are the owner's to read (as Swift): a reader learns nothing of who else may.
    expect((await call(s, 'HEAD', `/${c}`)).headers.get('x-container-read')).toBe(OTHER_ACCOUNT);
    for (const m of ['HEAD', 'GET'] as const) {
      const r = await call(s, m, `/${c}?format=json`, { token: s.otherToken, base });
      expect([r.status, r.headers.get('x-container-read')], `${m} by a reader`).toEqual([m === 'HEAD' ? 204 : 200, null]);
    }

    const w = fresh('writable');
    await mkContainer(w, { 'X-Container-Write': OTHER_ACCOUNT });
    expect((await call(s, 'PUT', `/${w}/by-other`, { token: s.otherToken, body: 'written' })).status).toBe(201);
    expect((await call(s, 'GET', `/${w}/by-other`)).text).toBe('written');
    expect((await call(s, 'GET', `/${w}/by-other`, { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'GET', `/${w}?format=json`, { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'DELETE', `/${w}/by-other`, { token: s.otherToken })).status).toBe(204);
    expect((await call(s, 'DELETE', `/${w}`, { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'PUT', `/${w}/x`, { token: null, body: 'x' })).status).toBe(401);

    const pub = fresh('public-listing');
    await mkContainer(pub, { 'X-Container-Read': '.r:*,.rlistings', 'X-Container-Write': OTHER_ACCOUNT });
    const anon = await call(s, 'GET', `/${pub}?format=json`, { token: null });
    expect([anon.status, anon.headers.get('x-container-read'), anon.headers.get('x-container-write')]).toEqual([200, null, null]);
  });
});
