// Raw HTTP tests of the native (Swift-style) API: object PUT.
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { md5, HTTP_DATE, TRANS_ID, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { call, rawRequest, storagePath, waitFor, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

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
    // A name that is only what could be an extension has none (mime alone says model/obj, text/plain).
    for (const name of ['obj', 'txt', '.txt', 'dir/json', 'dir/.json']) {
      await put(c, name, Buffer.from('x'));
      expect((await call(s, 'HEAD', `/${c}/${name}`)).headers.get('content-type'), name).toBe('application/octet-stream');
    }
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
