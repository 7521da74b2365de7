// Raw HTTP tests of the native (Swift-style) API: expiry (X-Delete-At/After) and metadata limits.
import { beforeAll, describe, expect, it } from 'vitest';
import { ref, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { addUser, call, rawRequest, storagePath, waitFor, type Reply, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

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

  it('any integer is taken and capped at 9999999999, as Swift does; huge negatives are in the past', async () => {
    await put(c, 'src', 'x');
    const capped: [string, string][] = [
      ['X-Delete-At', '99999999999999999999'],
      ['X-Delete-At', '18446744073709551616'],
      ['X-Delete-At', `+${'9'.repeat(400)}`],
      ['X-Delete-After', '9'.repeat(40)],
    ];
    for (const [h, v] of capped) {
      const what = `${h}: ${v.slice(0, 24)}`;
      expect((await call(s, 'PUT', `/${c}/capped`, { body: 'x', headers: { [h]: v } })).status, what).toBe(201);
      expect((await call(s, 'HEAD', `/${c}/capped`)).headers.get('x-delete-at'), what).toBe('9999999999');
      expect((await call(s, 'POST', `/${c}/src`, { headers: { [h]: v } })).status, what).toBe(202);
      expect((await call(s, 'PUT', `/${c}/copied`, { headers: { [h]: v, 'X-Copy-From': `/${c}/src` } })).status, what).toBe(201);
      expect((await call(s, 'HEAD', `/${c}/copied`)).headers.get('x-delete-at'), what).toBe('9999999999');
    }
    await put(c, 'kept', 'original', { 'X-Object-Meta-K': 'v', 'X-Delete-At': String(now() + 3600) });
    const before = await call(s, 'HEAD', `/${c}/kept`);
    const refused: [string, string, string][] = [
      ['X-Delete-At', '1e400', 'Non-integer X-Delete-At'],
      ['X-Delete-After', '1e400', 'Non-integer X-Delete-After'],
      ['X-Delete-At', '1.5e10', 'Non-integer X-Delete-At'],
      ['X-Delete-At', `-${'9'.repeat(40)}`, 'X-Delete-At in past'],
      ['X-Delete-After', `-${'9'.repeat(400)}`, 'X-Delete-After in past'],
    ];
    for (const [h, v, message] of refused) {
      for (const [method, headers] of [['PUT', {}], ['POST', {}], ['PUT', { 'X-Copy-From': `/${c}/src` }]] as const) {
        const r = await call(s, method, `/${c}/kept`, { ...(method === 'PUT' && !('X-Copy-From' in headers) ? { body: 'new' } : {}), headers: { ...headers, [h]: v } });
        expect([r.status, r.text], `${method} ${h}: ${v.slice(0, 24)}`).toEqual([400, message]);
      }
    }
    const after = await call(s, 'HEAD', `/${c}/kept`);
    for (const k of ['etag', 'x-object-meta-k', 'x-delete-at', 'last-modified', 'content-length']) expect(after.headers.get(k), k).toBe(before.headers.get(k));
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
    // Served until it expires (checked on one with time to spare: a loaded machine can take a second between two requests).
    await put(c, 'not-yet', 'x', { 'X-Delete-After': '600' });
    expect((await call(s, 'GET', `/${c}/not-yet`)).status).toBe(200);
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
