// Raw HTTP tests of the native (Swift-style) API: object GET and HEAD.
import { beforeAll, describe, expect, it } from 'vitest';
import { md5, ref, HTTP_DATE, X_TIMESTAMP, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { call, rawRequest, storagePath, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

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

  it('multiple ranges: 206 multipart/byteranges, each part with its Content-Type and Content-Range (as Swift)', async () => {
    const r = await call(s, 'GET', `/${c}/o`, { headers: { Range: 'bytes=0-1,5-9,-2' } });
    expect(r.status).toBe(206);
    const type = r.headers.get('content-type')!;
    const m = /^multipart\/byteranges;\s*boundary=(\S+)$/.exec(type);
    expect(m, type).not.toBeNull();
    const b = m![1]!;
    const part = (range: string, bytes: string) => `--${b}\r\nContent-Type: text/x-test\r\nContent-Range: bytes ${range}/20\r\n\r\n${bytes}\r\n`;
    const expected = `${part('0-1', '01')}${part('5-9', data.subarray(5, 10).toString())}${part('18-19', data.subarray(18).toString())}--${b}--`;
    expect(r.text).toBe(expected);
    expect(r.headers.get('content-length')).toBe(String(Buffer.byteLength(expected)));
    expect(r.headers.get('etag')).toBe(md5(data));
    // One satisfiable range of several is an ordinary 206; none is 416; three overlapping ones are too many.
    const one = await call(s, 'GET', `/${c}/o`, { headers: { Range: 'bytes=2-3,100-200' } });
    expect([one.status, one.headers.get('content-range'), one.text]).toEqual([206, 'bytes 2-3/20', data.subarray(2, 4).toString()]);
    expect((await call(s, 'GET', `/${c}/o`, { headers: { Range: 'bytes=50-60,100-200' } })).status).toBe(416);
    expect((await call(s, 'GET', `/${c}/o`, { headers: { Range: 'bytes=0-9,1-8,2-7,3-6' } })).status).toBe(416);
  });

  it('304, 412 and 416 describe the object as Swift\'s do: ETag, Last-Modified, X-Timestamp and metadata; Accept-Ranges on 304 and 416', async () => {
    const ok = await call(s, 'HEAD', `/${c}/o`);
    for (const [method, headers, status] of [
      ['GET', { 'If-None-Match': md5(data) }, 304],
      ['HEAD', { 'If-None-Match': md5(data) }, 304],
      ['GET', { 'If-Match': 'nope' }, 412],
      ['GET', { Range: 'bytes=100-' }, 416],
    ] as const) {
      const r = await call(s, method, `/${c}/o`, { headers });
      expect(r.status, JSON.stringify(headers)).toBe(status);
      for (const h of ['etag', 'last-modified', 'x-timestamp', 'x-object-meta-color']) {
        expect(r.headers.get(h), `${h} ${JSON.stringify(headers)}`).toBe(ok.headers.get(h));
      }
      // Swift's 412 is an error page of its own type, without Accept-Ranges; 304 and 416 carry both.
      expect(r.headers.get('accept-ranges'), JSON.stringify(headers)).toBe(status === 412 ? null : 'bytes');
      if (status === 416) expect(r.headers.get('content-range')).toBe('bytes */20');
    }
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
    // The two older HTTP-date forms of `future`.
    const f = new Date(Date.parse(future));
    const [day, mon, hms] = [['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][f.getUTCDay()]!, future.slice(8, 11), f.toISOString().slice(11, 19)];
    const rfc850 = `${day}, ${String(f.getUTCDate()).padStart(2, '0')}-${mon}-${String(f.getUTCFullYear()).slice(2)} ${hms} GMT`;
    const asctime = `${day.slice(0, 3)} ${mon} ${String(f.getUTCDate()).padStart(2, ' ')} ${hms} ${f.getUTCFullYear()}`;
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
      // Only HTTP-dates count (RFC 9110): not numbers, five-digit years or 31 February.
      [{ 'If-Unmodified-Since': '1' }, 200],
      [{ 'If-Unmodified-Since': '-1' }, 200],
      [{ 'If-Unmodified-Since': 'Thu, 31 Feb 2000 00:00:00 GMT' }, 200],
      [{ 'If-Modified-Since': 'Sat, 01 Jan 99999 00:00:00 GMT' }, 200],
      [{ 'If-Modified-Since': rfc850 }, 304],
      [{ 'If-Modified-Since': asctime }, 304],
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

  it('unknown methods are 405, saying what is allowed (RFC 9110 15.5.6), the CORS preflight (OPTIONS) included', async () => {
    const object = await call(s, 'PATCH', `/${c}/o`);
    expect([object.status, object.headers.get('allow')]).toEqual([405, 'COPY, DELETE, GET, HEAD, OPTIONS, POST, PUT']);
    const container = await call(s, 'PATCH', `/${c}`);
    expect([container.status, container.headers.get('allow')]).toEqual([405, 'DELETE, GET, HEAD, OPTIONS, POST, PUT']);
  });
});
