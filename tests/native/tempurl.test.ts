import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, request, startServer, type XloServer } from './xlo-server.js';

let s: XloServer;
const KEY = 'account-key';
const PATH = `/v1/AUTH_${ACCOUNT}/c/dir/file.txt`;
const future = () => Math.floor(Date.now() / 1000) + 300;

type Digest = 'sha1' | 'sha256' | 'sha512';
function sign(method: string, expires: number | string, path: string, key = KEY, digest: Digest = 'sha256', base64 = false): string {
  const mac = createHmac(digest, key).update(`${method}\n${expires}\n${path}`);
  return base64 ? `${digest}:${mac.digest('base64url')}` : mac.digest('hex');
}
const tempUrl = (path: string, sig: string, expires: number | string, extra = '') =>
  `${s.url}${path}?temp_url_sig=${encodeURIComponent(sig)}&temp_url_expires=${expires}${extra}`;

beforeAll(async () => {
  s = await startServer();
  await request(s, 'POST', '', { headers: { 'X-Account-Meta-Temp-URL-Key': KEY } });
  await request(s, 'PUT', '/c');
  await request(s, 'PUT', '/c/dir/file.txt', {
    body: 'hello',
    headers: { 'X-Object-Meta-Secret': 's', 'X-Object-Meta-Public-Tag': 'p', 'Content-Type': 'text/plain' },
  });
});
afterAll(() => s.close());

describe('TempURL', () => {
  it('is the documented HMAC (Appendix A.4)', () => {
    const path = '/v1/AUTH_account/container/object';
    expect(sign('GET', 1512508563, path, 'mykey')).toBe('732fcac368abb10c78a4cbe95c3fab7f311584532bf779abd5074e13cbe8b88b');
    expect(sign('GET', 1512508563, path, 'mykey', 'sha1')).toBe('a83dcf0587a84542b5f23a7807c38ff4bcaa6924');
  });

  it('a signed GET needs no token, with and without the /swift prefix', async () => {
    const exp = future();
    for (const prefix of ['', '/swift']) {
      const r = await request(s, 'GET', tempUrl(`${prefix}${PATH}`, sign('GET', exp, PATH), exp), { token: null });
      expect([prefix, r.status, r.text]).toEqual([prefix, 200, 'hello']);
      expect(r.headers.get('content-disposition')).toBe(`attachment; filename="file.txt"; filename*=UTF-8''file.txt`);
      expect(r.headers.get('expires')).toBe(new Date(exp * 1000).toUTCString());
      expect(r.headers.get('x-object-meta-secret')).toBeNull();
      expect(r.headers.get('x-object-meta-public-tag')).toBe('p');
    }
    // Signed over the path with /swift (the storage URL's own path) works too.
    const r = await request(s, 'GET', tempUrl(`/swift${PATH}`, sign('GET', exp, `/swift${PATH}`), exp), { token: null });
    expect(r.status).toBe(200);
  });

  it.each([
    ['sha1', false],
    ['sha256', true],
    ['sha512', false],
    ['sha512', true],
  ] as const)('accepts %s signatures (base64: %s)', async (digest, base64) => {
    const exp = future();
    const sig = sign('GET', exp, PATH, KEY, digest, base64);
    expect((await request(s, 'GET', tempUrl(PATH, sig, exp), { token: null })).status).toBe(200);
  });

  it('accepts ISO 8601 expiry (signed over the epoch seconds)', async () => {
    const exp = future();
    const iso = new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect((await request(s, 'GET', tempUrl(PATH, sign('GET', exp, PATH), iso), { token: null })).status).toBe(200);
  });

  it('filename and inline set Content-Disposition; a stored one is the default', async () => {
    const exp = future();
    const sig = sign('GET', exp, PATH);
    const disp = async (extra: string) => (await request(s, 'GET', tempUrl(PATH, sig, exp, extra), { token: null })).headers.get('content-disposition');
    expect(await disp('&filename=my%20report.txt')).toBe(`attachment; filename="my report.txt"; filename*=UTF-8''my%20report.txt`);
    expect(await disp('&inline')).toBe('inline');
    expect(await disp('&inline&filename=a.txt')).toBe(`inline; filename="a.txt"; filename*=UTF-8''a.txt`);
    await request(s, 'POST', '/c/dir/file.txt', { headers: { 'Content-Disposition': 'attachment; filename="stored.txt"' } });
    expect(await disp('')).toBe('attachment; filename="stored.txt"');
  });

  it('HEAD works with a URL signed for GET; other methods need their own signature', async () => {
    const exp = future();
    const getSig = sign('GET', exp, PATH);
    expect((await request(s, 'HEAD', tempUrl(PATH, getSig, exp), { token: null })).status).toBe(200);
    expect((await request(s, 'DELETE', tempUrl(PATH, getSig, exp), { token: null })).status).toBe(401);
    expect((await request(s, 'HEAD', '/c/dir/file.txt')).status).toBe(200);
  });

  it('PUT, POST and DELETE with their signatures', async () => {
    const exp = future();
    const path = `/v1/AUTH_${ACCOUNT}/c/up.bin`;
    expect((await request(s, 'PUT', tempUrl(path, sign('PUT', exp, path), exp), { token: null, body: 'uploaded' })).status).toBe(201);
    expect((await request(s, 'GET', '/c/up.bin')).text).toBe('uploaded');
    const post = await request(s, 'POST', tempUrl(path, sign('POST', exp, path), exp), { token: null, headers: { 'X-Object-Meta-A': 'b' } });
    expect(post.status).toBe(202);
    expect((await request(s, 'HEAD', '/c/up.bin')).headers.get('x-object-meta-a')).toBe('b');
    const manifest = { token: null, body: '', headers: { 'X-Object-Manifest': 'c/x' } };
    const refused = await request(s, 'PUT', tempUrl(path, sign('PUT', exp, path), exp), manifest);
    expect([refused.status, refused.text]).toEqual([400, "The header 'X-Object-Manifest' is not allowed in this tempurl"]);
    expect((await request(s, 'DELETE', tempUrl(path, sign('DELETE', exp, path), exp), { token: null })).status).toBe(204);
    expect((await request(s, 'HEAD', '/c/up.bin')).status).toBe(404);
  });

  it('refuses expired, forged, malformed or misplaced signatures with 401', async () => {
    const past = Math.floor(Date.now() / 1000) - 10;
    const exp = future();
    const bad = [
      tempUrl(PATH, sign('GET', past, PATH), past),
      tempUrl(PATH, sign('GET', exp, PATH, 'wrong-key'), exp),
      tempUrl(PATH, sign('GET', exp, PATH), exp + 1),
      tempUrl(PATH, 'abc', exp),
      tempUrl(PATH, sign('GET', exp, PATH), 'tomorrow'),
      `${s.url}${PATH}?temp_url_sig=${sign('GET', exp, PATH)}`,
      tempUrl(`/v1/AUTH_${ACCOUNT}/c/dir/other.txt`, sign('GET', exp, PATH), exp),
      tempUrl(`/v1/AUTH_${ACCOUNT}/c`, sign('GET', exp, `/v1/AUTH_${ACCOUNT}/c`), exp),
    ];
    for (const url of bad) {
      const r = await request(s, 'GET', url, { token: null });
      expect([url, r.status, r.text]).toEqual([url, 401, '401 Unauthorized: Temp URL invalid\n']);
    }
  });

  it('container keys and second keys sign too; prefix URLs cover the names under the prefix', async () => {
    await request(s, 'POST', '/c', { headers: { 'X-Container-Meta-Temp-URL-Key-2': 'ckey' } });
    await request(s, 'POST', '', { headers: { 'X-Account-Meta-Temp-URL-Key-2': 'akey2' } });
    const exp = future();
    for (const key of ['ckey', 'akey2']) {
      expect((await request(s, 'GET', tempUrl(PATH, sign('GET', exp, PATH, key), exp), { token: null })).status).toBe(200);
    }
    const prefixSig = sign('GET', exp, `prefix:/v1/AUTH_${ACCOUNT}/c/dir/`);
    expect((await request(s, 'GET', tempUrl(PATH, prefixSig, exp, '&temp_url_prefix=dir/'), { token: null })).status).toBe(200);
    await request(s, 'PUT', '/c/top.txt', { body: 'x' });
    const outside = tempUrl(`/v1/AUTH_${ACCOUNT}/c/top.txt`, prefixSig, exp, '&temp_url_prefix=dir/');
    expect((await request(s, 'GET', outside, { token: null })).status).toBe(401);
  });

  it('/info publishes the tempurl, slo and bulk_delete capabilities', async () => {
    const info = JSON.parse((await request(s, 'GET', `${s.url}/info`, { token: null })).text) as Record<string, Record<string, unknown>>;
    expect(info.tempurl).toMatchObject({ methods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'], allowed_digests: ['sha1', 'sha256', 'sha512'] });
    expect(info.slo).toMatchObject({ max_manifest_segments: 1000 });
    expect(info.bulk_delete).toMatchObject({ max_deletes_per_request: 10000 });
  });
});
