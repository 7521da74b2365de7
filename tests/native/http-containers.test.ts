// Raw HTTP tests of the native (Swift-style) API: containers.
import { describe, expect, it } from 'vitest';
import { HTTP_DATE, X_TIMESTAMP, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { call, OTHER_ACCOUNT, startTestServer, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

describe('containers (N2, N3; seed 2.3; §4)', () => {
  it('a PUT past the account\'s container limit is 403 "Reached container limit of N", as Swift\'s proxy answers it', async () => {
    const capped = await startTestServer({ maxContainersPerAccount: 1 });
    try {
      expect((await call(capped, 'PUT', '/one')).status).toBe(201);
      const refused = await call(capped, 'PUT', '/two');
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Reached container limit of 1');
      expect((await call(capped, 'HEAD', '/two')).status).toBe(404);
    } finally {
      await capped.close();
    }
  });

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
    // An unknown designator with a value is refused; without one Swift 2.30 stores it, and so does Coffer (it had been 400).
    expect((await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Read': '.bogus:x' } })).status).toBe(400);
    expect((await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Read': '.bogus' } })).status).toBe(204);
    expect((await call(s, 'HEAD', `/${c}`)).headers.get('x-container-read')).toBe('.bogus');
    expect((await call(s, 'PUT', `/${fresh('acl')}`, { headers: { 'X-Container-Write': '.r:*' } })).status).toBe(400);
  });

  it('X-Versions-Location (legacy versioned writes) is kept and shown; one with a slash is 412, as Swift', async () => {
    const name = fresh('ver');
    expect((await call(s, 'PUT', `/${name}`, { headers: { 'X-Versions-Location': 'archive' } })).status).toBe(201);
    expect((await call(s, 'HEAD', `/${name}`)).headers.get('x-versions-location')).toBe('archive');
    const r = await call(s, 'PUT', `/${fresh('ver')}`, { headers: { 'X-Versions-Location': 'a/b' } });
    expect([r.status, r.text]).toEqual([412, 'Container name cannot contain slashes']);
    expectBaseHeaders(r);
  });

  it('X-Storage-Policy: default-placement accepted, an unknown policy is 400', async () => {
    expect((await call(s, 'PUT', `/${fresh('pol')}`, { headers: { 'X-Storage-Policy': 'default-placement' } })).status).toBe(201);
    expect((await call(s, 'PUT', `/${fresh('pol')}`, { headers: { 'X-Storage-Policy': 'gold' } })).status).toBe(400);
  });

  it('container name rules: up to the advertised length, UTF-8; too long is 400; NUL and invalid UTF-8 are 412', async () => {
    const info = (await (await fetch(`${s.url}/info`)).json()) as { swift: { max_container_name_length: number } };
    const max = info.swift.max_container_name_length;
    // Swift's max_container_name_length (it had been 255, RGW's).
    expect(max).toBe(256);
    expect((await call(s, 'PUT', `/${'c'.repeat(max)}`)).status).toBe(201);
    const long = await call(s, 'PUT', `/${'c'.repeat(max + 1)}`);
    expect(long.status).toBe(400);
    expect(long.text).toContain(`Container name length of ${max + 1} longer than`);
    expect((await call(s, 'PUT', `/${'c'.repeat(300)}`)).status).toBe(400);
    const unicode = fresh('bücher');
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
    // Copies count too, byte for byte as Swift counts them: 3 × 3,000 fit in 10,000, a fourth does not.
    expect((await call(s, 'PUT', `/${c}/a2`, { headers: { 'X-Copy-From': `${c}/a` } })).status).toBe(201);
    expect((await call(s, 'PUT', `/${c}/a3`, { headers: { 'X-Copy-From': `${c}/a` } })).status).toBe(201);
    expect((await call(s, 'PUT', `/${c}/a4`, { headers: { 'X-Copy-From': `${c}/a` } })).status).toBe(413);

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

  it('a quota of more digits than a number holds exactly stands as the largest exact one (Swift takes any digits)', async () => {
    const c = fresh('cq');
    await mkContainer(c, { 'X-Container-Meta-Quota-Bytes': '9'.repeat(25), 'X-Container-Meta-Quota-Count': '18446744073709551616' });
    const head = await call(s, 'HEAD', `/${c}`);
    expect(head.headers.get('x-container-meta-quota-bytes')).toBe(String(Number.MAX_SAFE_INTEGER));
    expect(head.headers.get('x-container-meta-quota-count')).toBe(String(Number.MAX_SAFE_INTEGER));
    await put(c, 'a', 'fits');
    for (const v of ['1e400', '-1', '1.5']) {
      const r = await call(s, 'POST', `/${c}`, { headers: { 'X-Container-Meta-Quota-Bytes': v } });
      expect([r.status, r.text], v).toEqual([400, 'Invalid bytes quota.']);
    }
  });
});
