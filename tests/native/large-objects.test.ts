import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytes, md5, request, startServer, type XloServer } from './xlo-server.js';

let s: XloServer;
// Sizes mix inline (<= 64 KiB) and blob-backed segments.
const parts = [bytes(100_000, 1), bytes(10, 2), bytes(70_000, 3)];
const whole = Buffer.concat(parts);
const sloEtag = md5(parts.map((p) => md5(p)).join(''));
const manifest = (names = ['p1', 'p2', 'p3']) =>
  JSON.stringify(names.map((n, i) => ({ path: `/segs/${n}`, etag: md5(parts[i]!), size_bytes: parts[i]!.length })));

beforeAll(async () => {
  s = await startServer();
  for (const c of ['c', 'segs']) expect((await request(s, 'PUT', `/${c}`)).status).toBe(201);
  for (const [i, p] of parts.entries()) expect((await request(s, 'PUT', `/segs/p${i + 1}`, { body: p })).status).toBe(201);
});
afterAll(() => s.close());

describe('static large objects (SLO)', () => {
  it('stores a manifest and answers with the quoted MD5 of the segment ETags', async () => {
    const r = await request(s, 'PUT', '/c/big?multipart-manifest=put', { body: manifest(), headers: { 'Content-Type': 'video/mp4' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe(`"${sloEtag}"`);
    const head = await request(s, 'HEAD', '/c/big');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(whole.length));
    expect(head.headers.get('etag')).toBe(`"${sloEtag}"`);
    expect(head.headers.get('x-static-large-object')).toBe('True');
    expect(head.headers.get('content-type')).toBe('video/mp4');
  });

  it('GET joins the segments byte for byte', async () => {
    const r = await request(s, 'GET', '/c/big');
    expect(r.status).toBe(200);
    expect(r.body.equals(whole)).toBe(true);
  });

  it.each([
    ['bytes=99990-100015', 99990, 100015],
    ['bytes=99995-100009', 99995, 100009],
    ['bytes=0-0', 0, 0],
    ['bytes=100005-', 100005, whole.length - 1],
    ['bytes=-70005', whole.length - 70005, whole.length - 1],
    ['bytes=150000-999999999', 150000, whole.length - 1],
  ])('Range %s across segment boundaries', async (range, start, end) => {
    const r = await request(s, 'GET', '/c/big', { headers: { Range: range } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/${whole.length}`);
    expect(r.body.equals(whole.subarray(start, end + 1))).toBe(true);
  });

  it('an unsatisfiable range is 416 with the total size', async () => {
    const r = await request(s, 'GET', '/c/big', { headers: { Range: `bytes=${whole.length}-` } });
    expect(r.status).toBe(416);
    expect(r.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  it('conditionals compare with the SLO ETag', async () => {
    expect((await request(s, 'GET', '/c/big', { headers: { 'If-None-Match': `"${sloEtag}"` } })).status).toBe(304);
    expect((await request(s, 'GET', '/c/big', { headers: { 'If-Match': '"nope"' } })).status).toBe(412);
  });

  it('lists with the total size; the container counts the manifest document\'s bytes, as Swift does', async () => {
    const list = JSON.parse((await request(s, 'GET', '/c?format=json')).text) as { name: string; bytes: number; hash: string }[];
    const document = (await request(s, 'GET', '/c/big?multipart-manifest=get')).body;
    // Swift 2.30: `hash` is the stored manifest document's MD5, `slo_etag` the large object's quoted ETag.
    expect(list.find((o) => o.name === 'big')).toMatchObject({ bytes: whole.length, hash: md5(document), slo_etag: `"${sloEtag}"` });
    const head = await request(s, 'HEAD', '/c');
    const others = list.filter((o) => o.name !== 'big').reduce((n, o) => n + o.bytes, 0);
    expect(head.headers.get('x-container-bytes-used')).toBe(String(others + document.length));
  });

  it('?multipart-manifest=get returns the stored manifest; format=raw the PUT form, which can be PUT again', async () => {
    const r = await request(s, 'GET', '/c/big?multipart-manifest=get');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const rows = JSON.parse(r.text) as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ name: '/segs/p1', hash: md5(parts[0]!), bytes: 100_000, content_type: 'application/octet-stream' });
    expect(rows[0]!.last_modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    const raw = await request(s, 'GET', '/c/big?multipart-manifest=get&format=raw');
    expect(JSON.parse(raw.text)).toEqual(JSON.parse(manifest()));
    expect((await request(s, 'PUT', '/c/again?multipart-manifest=put', { body: raw.text })).headers.get('etag')).toBe(`"${sloEtag}"`);
  });

  it('refuses bad manifests with Swift-style messages', async () => {
    const put = (body: string, headers: Record<string, string> = {}) => request(s, 'PUT', '/c/bad?multipart-manifest=put', { body, headers });
    let r = await put(JSON.stringify([{ path: '/segs/missing', etag: null, size_bytes: null }]));
    expect([r.status, r.text]).toEqual([400, 'Errors:\n/segs/missing, 404 Not Found\n']);
    r = await put(JSON.stringify([{ path: '/segs/p1', etag: 'f'.repeat(32), size_bytes: 5 }]), { Accept: 'application/json' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toEqual({ Errors: [['/segs/p1', 'Size Mismatch'], ['/segs/p1', 'Etag Mismatch']] });
    expect((await put('not json')).status).toBe(400);
    expect((await put(JSON.stringify([{ path: 'nocontainer' }]))).text).toMatch(/^Index 0: path does not refer to an object/);
    expect((await put(JSON.stringify([{ path: '/segs/p1', foo: 1 }]))).text).toBe('Index 0: extraneous keys "foo"');
    expect((await put(JSON.stringify([{ path: '/segs/p1', range: '2-1' }]))).text).toBe('Index 0: invalid range');
    expect((await put(JSON.stringify([{ path: '/segs/p1', range: '0-1,3-4' }]))).text).toBe('Index 0: multiple ranges (only one allowed)');
    expect((await put(JSON.stringify([{ path: '/segs/p2', size_bytes: 10, range: '10-' }]))).text).toBe('Index 0: unsatisfiable range');
    expect((await put(JSON.stringify([{ path: '/segs/p2', range: '10-' }]))).text).toBe('Errors:\n/segs/p2, Unsatisfiable Range\n');
    expect((await put('{}')).text).toBe('Manifest must be a list.\n');
    const many = JSON.stringify(Array.from({ length: 1001 }, () => ({ path: '/segs/p2', etag: null, size_bytes: null })));
    expect((await put(many)).status).toBe(413);
    expect((await put(manifest(), { ETag: '"0123456789abcdef0123456789abcdef"' })).status).toBe(422);
    expect((await request(s, 'PUT', '/c/bad', { body: 'x', headers: { 'X-Static-Large-Object': 'True' } })).status).toBe(400);
    expect((await request(s, 'HEAD', '/c/bad')).status).toBe(404);
  });

  it('only the last segment may be empty', async () => {
    await request(s, 'PUT', '/segs/empty', { body: '' });
    const seg = (n: string, size: number) => ({ path: `/segs/${n}`, etag: null, size_bytes: size });
    const bad = await request(s, 'PUT', '/c/e?multipart-manifest=put', { body: JSON.stringify([seg('empty', 0), seg('p2', 10)]) });
    expect(bad.text).toBe('Errors:\n/segs/empty, Too small; each segment must be at least 1 byte.\n');
    const ok = await request(s, 'PUT', '/c/e?multipart-manifest=put', { body: JSON.stringify([seg('p2', 10), seg('empty', 0)]) });
    expect(ok.status).toBe(201);
    expect((await request(s, 'GET', '/c/e')).body.equals(parts[1]!)).toBe(true);
  });

  it('reads nested SLOs, and a copy of an SLO is a plain object with the joined bytes', async () => {
    const body = JSON.stringify([{ path: '/c/big', etag: sloEtag, size_bytes: whole.length }, { path: '/segs/p2', etag: null, size_bytes: null }]);
    expect((await request(s, 'PUT', '/c/nested?multipart-manifest=put', { body })).status).toBe(201);
    const expected = Buffer.concat([whole, parts[1]!]);
    expect((await request(s, 'GET', '/c/nested')).body.equals(expected)).toBe(true);
    const tail = await request(s, 'GET', '/c/nested', { headers: { Range: 'bytes=169990-170009' } });
    expect(tail.body.equals(expected.subarray(169990, 170010))).toBe(true);
    expect((JSON.parse((await request(s, 'GET', '/c/nested?multipart-manifest=get')).text) as { sub_slo?: boolean }[])[0]!.sub_slo).toBe(true);
    expect((await request(s, 'PUT', '/c/flat', { headers: { 'X-Copy-From': '/c/big' }, body: '' })).status).toBe(201);
    const flat = await request(s, 'GET', '/c/flat');
    expect(flat.body.equals(whole)).toBe(true);
    expect(flat.headers.get('etag')).toBe(md5(whole));
    expect(flat.headers.get('x-static-large-object')).toBeNull();
  });

  it('a segment replaced after the manifest was stored is not served as part of it', async () => {
    await request(s, 'PUT', '/segs/q1', { body: 'aaaa' });
    await request(s, 'PUT', '/segs/q2', { body: 'bbbb' });
    const body = JSON.stringify([{ path: '/segs/q1' }, { path: '/segs/q2' }].map((p) => ({ ...p, etag: null, size_bytes: null })));
    await request(s, 'PUT', '/c/fragile?multipart-manifest=put', { body });
    await request(s, 'PUT', '/segs/q1', { body: 'cccc' });
    expect((await request(s, 'GET', '/c/fragile')).status).toBe(409);
    expect((await request(s, 'PUT', '/c/fragile-copy', { headers: { 'X-Copy-From': '/c/fragile' }, body: '' })).status).toBe(409);
  });

  it('DELETE removes only the manifest; ?multipart-manifest=delete also its segments, with a bulk-style report', async () => {
    await request(s, 'PUT', '/c/gone?multipart-manifest=put', { body: manifest() });
    expect((await request(s, 'DELETE', '/c/gone')).status).toBe(204);
    expect((await request(s, 'HEAD', '/segs/p1')).status).toBe(200);
    for (const [i, p] of parts.entries()) await request(s, 'PUT', `/segs/d${i}`, { body: p });
    await request(s, 'PUT', '/c/del?multipart-manifest=put', { body: manifest(['d0', 'd1', 'd2']) });
    const r = await request(s, 'DELETE', '/c/del?multipart-manifest=delete', { headers: { Accept: 'application/json' } });
    expect(r.status).toBe(200);
    // Swift's SLO deletes answer through its bulk middleware: the matched type, no charset, chunked.
    expect([r.headers.get('content-type'), r.headers.get('content-length'), r.headers.get('transfer-encoding')]).toEqual(['application/json', null, 'chunked']);
    expect(JSON.parse(r.text)).toEqual({ 'Number Deleted': 4, 'Number Not Found': 0, 'Response Body': '', 'Response Status': '200 OK', Errors: [] });
    for (const n of ['/c/del', '/segs/d0', '/segs/d1', '/segs/d2']) expect((await request(s, 'HEAD', n)).status).toBe(404);
    const plain = await request(s, 'DELETE', '/segs/p2?multipart-manifest=delete');
    expect(plain.text).toBe('Number Deleted: 0\nNumber Not Found: 0\nResponse Body: \nResponse Status: 400 Bad Request\nErrors:\n/segs/p2, Not an SLO manifest\n');
    const missing = await request(s, 'DELETE', '/c/nothing?multipart-manifest=delete', { headers: { Accept: 'application/json' } });
    expect(JSON.parse(missing.text)).toMatchObject({ 'Number Not Found': 1, 'Response Status': '200 OK' });
  });
});
