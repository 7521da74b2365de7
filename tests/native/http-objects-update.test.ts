// Raw HTTP tests of the native (Swift-style) API: object POST and DELETE, and server-side copy.
import { beforeAll, describe, expect, it } from 'vitest';
import { md5, ref, HTTP_DATE, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { ACCOUNT, call, OTHER_ACCOUNT, rawRequest, storagePath, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

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

  it('DELETE with X-If-Delete-At: only when it is the object\'s X-Delete-At (412 otherwise, 400 when not an integer), as Swift', async () => {
    const at = Math.floor(Date.now() / 1000) + 3600;
    await put(c, 'expiring', 'x', { 'X-Delete-At': String(at) });
    await put(c, 'lasting', 'x');
    const del = (name: string, v: string) => call(s, 'DELETE', `/${c}/${name}`, { headers: { 'X-If-Delete-At': v } });
    const wrong = await del('expiring', String(at + 1));
    expect([wrong.status, wrong.text]).toEqual([412, 'X-If-Delete-At and X-Delete-At do not match']);
    expect((await del('lasting', String(at))).status).toBe(412);
    expect((await del('expiring', 'soon')).status).toBe(400);
    expect((await del('missing', String(at))).status).toBe(404);
    expect((await call(s, 'HEAD', `/${c}/expiring`)).status).toBe(200);
    expect((await del('expiring', String(at))).status).toBe(204);
    expect((await call(s, 'HEAD', `/${c}/expiring`)).status).toBe(404);
  });

  it('Transfer-Encoding with more than one coding is 501, as Swift', async () => {
    const raw = await rawRequest(
      s.port,
      `PUT ${storagePath(s)}/${c}/te HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: ${s.token}\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n1\r\nx\r\n0\r\n\r\n`,
    );
    expect(raw.status).toBe(501);
    expect(raw.body).toContain('Unsupported Transfer-Coding');
    expect((await call(s, 'HEAD', `/${c}/te`)).status).toBe(404);
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
