// Raw HTTP tests of the native (Swift-style) API: account GET/HEAD/POST.
import { beforeAll, describe, expect, it } from 'vitest';
import { X_TIMESTAMP, ISO_MILLIS, xml, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { addUser, call, rawRequest, type TestServer } from './server.js';

let s!: TestServer;
useNativeServer((server) => (s = server));

describe('account (seed 2.1, N1; §3, §5.5)', () => {
  let u: { account: string; token: string; storageUrl: string };
  const acall = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    call(s, method, path, { base: u.storageUrl, token: u.token, headers, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    u = await addUser(s, 'acct$owner');
  });

  it('empty account: HEAD 204 with zero counts; plain listing 204, JSON [] (also the default), XML a childless root', async () => {
    const head = await acall('HEAD', '');
    expect(head.status).toBe(204);
    expect(head.headers.get('x-account-container-count')).toBe('0');
    expect(head.headers.get('x-account-object-count')).toBe('0');
    expect(head.headers.get('x-account-bytes-used')).toBe('0');
    const plain = await acall('GET', '?format=plain');
    expect(plain.status).toBe(204);
    expect(plain.body.length).toBe(0);
    for (const q of ['?format=json', '']) {
      const json = await acall('GET', q);
      expect(json.status, q).toBe(200);
      expect(json.headers.get('content-type'), q).toBe('application/json; charset=utf-8');
      expect(json.text, q).toBe('[]');
    }
    const x = await acall('GET', '?format=xml');
    expect(x.status).toBe(200);
    expect(x.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(x.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    const doc = xml.parse(x.text) as { account: { '@_name': string; container?: unknown[] } | string };
    expect(doc.account).toBeDefined();
    expect(typeof doc.account === 'string' || doc.account.container === undefined).toBe(true);
    expect(x.text).not.toContain('<container>');
  });

  it('HEAD and GET carry the 2.1 headers: counts, bytes, -Actual, storage policy headers, X-Timestamp', async () => {
    await acall('PUT', '/alpha');
    await acall('PUT', '/beta');
    await acall('PUT', '/alpha/one', {}, 'x');
    await acall('PUT', '/beta/two', {}, 'y'.repeat(5000));
    for (const method of ['HEAD', 'GET']) {
      const r = await acall(method, method === 'GET' ? '?format=json' : '');
      expect(r.status).toBe(method === 'HEAD' ? 204 : 200);
      const h = (n: string) => r.headers.get(n);
      expect(h('x-account-container-count')).toBe('2');
      expect(h('x-account-object-count')).toBe('2');
      expect(h('x-account-bytes-used')).toBe('5001');
      expect(h('x-account-bytes-used-actual')).toBe(String(4096 + 8192));
      const policy = 'x-account-storage-policy-default-placement';
      expect(h(`${policy}-container-count`)).toBe('2');
      expect(h(`${policy}-object-count`)).toBe('2');
      expect(h(`${policy}-bytes-used`)).toBe('5001');
      expect(h(`${policy}-bytes-used-actual`)).toBe(String(4096 + 8192));
      expect(h('x-timestamp')).toMatch(X_TIMESTAMP);
      expect(h('x-account-meta-quota-bytes')).toBeNull();
    }
  });

  it('listing shapes: JSON {name,count,bytes,last_modified}, XML <account name="AUTH_…"><container>…, plain lines', async () => {
    const json = await acall('GET', '?format=json');
    const rows = JSON.parse(json.text) as Record<string, unknown>[];
    expect(rows.map((r) => r.name)).toEqual(['alpha', 'beta']);
    expect(rows[0]).toMatchObject({ name: 'alpha', count: 1, bytes: 1 });
    expect(rows[1]).toMatchObject({ name: 'beta', count: 1, bytes: 5000 });
    for (const r of rows) expect(r.last_modified).toMatch(ISO_MILLIS);
    const x = await acall('GET', '?format=xml');
    const doc = xml.parse(x.text) as { account: { '@_name': string; container: Record<string, string>[] } };
    // The root names the account as the storage URL does, as Swift's listing_formats (it had been
    // the bare TENANT$NAME, which no Swift client can match against the URL it holds).
    expect(doc.account['@_name']).toBe(`AUTH_${u.account}`);
    expect(u.storageUrl.endsWith(`/AUTH_${u.account}`)).toBe(true);
    // One entry a line, as Swift writes it.
    expect(x.text).toMatch(/<account name="[^"]*">\n<container><name>alpha<\/name>.*<\/container>\n<container>.*<\/container>\n<\/account>$/s);
    expect(doc.account.container.map((c) => [c.name, c.count, c.bytes])).toEqual([
      ['alpha', '1', '1'],
      ['beta', '1', '5000'],
    ]);
    const plain = await acall('GET', '?format=plain');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(plain.text).toBe('alpha\nbeta\n');
    const accept = await acall('GET', '', { Accept: 'application/json' });
    expect(JSON.parse(accept.text)).toHaveLength(2);
  });

  it('listing parameters: limit, marker, end_marker, prefix, reverse; limit > 10000 is 412, a limit not all digits ignored', async () => {
    await acall('PUT', '/gamma');
    const names = async (q: string) => (JSON.parse((await acall('GET', `?format=json${q}`)).text) as { name: string }[]).map((r) => r.name);
    expect(await names('&limit=2')).toEqual(['alpha', 'beta']);
    expect(await names('&marker=alpha')).toEqual(['beta', 'gamma']);
    expect(await names('&marker=beta&limit=1')).toEqual(['gamma']);
    expect(await names('&marker=gamma')).toEqual([]);
    expect(await names('&end_marker=gamma')).toEqual(['alpha', 'beta']);
    expect(await names('&prefix=g')).toEqual(['gamma']);
    expect(await names('&reverse=true')).toEqual(['gamma', 'beta', 'alpha']);
    const tooMany = await acall('GET', '?format=json&limit=10001');
    expect(tooMany.status).toBe(412);
    expect(tooMany.text).toContain('Maximum limit is 10000');
    expect((await acall('GET', '?format=json&limit=10000')).status).toBe(200);
    // As Swift: a limit that is not all digits is ignored (the default limit).
    for (const junk of ['abc', '-1', '5000.0']) expect(await names(`&limit=${junk}`), junk).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('account listings honour delimiter (subdir entries, as Swift), with prefix, marker, end_marker, reverse in every spelling', async () => {
    for (const c of ['logs-2024', 'logs-2025', 'photos-a', 'photos-b-c']) await acall('PUT', `/${c}`);
    type Entry = { name?: string; subdir?: string };
    const entries = async (q: string) => (JSON.parse((await acall('GET', `?${q}`)).text) as Entry[]).map((r) => r.subdir ?? r.name);
    expect(await entries('delimiter=-')).toEqual(['alpha', 'beta', 'gamma', 'logs-', 'photos-']);
    expect(await entries('delimiter=-&prefix=photos-')).toEqual(['photos-a', 'photos-b-']);
    expect(await entries('delimiter=-&limit=4')).toEqual(['alpha', 'beta', 'gamma', 'logs-']);
    // The next page starts after the subdir the last one ended on.
    expect(await entries('delimiter=-&marker=logs-')).toEqual(['photos-']);
    expect(await entries('delimiter=-&end_marker=logs-2025')).toEqual(['alpha', 'beta', 'gamma', 'logs-']);
    for (const spelling of ['true', 't', 'yes', 'y', 'on', '1']) {
      expect(await entries(`delimiter=-&reverse=${spelling}`), spelling).toEqual(['photos-', 'logs-', 'gamma', 'beta', 'alpha']);
    }
    expect(await entries('reverse=true&prefix=logs&end_marker=logs-2024')).toEqual(['logs-2025']);
    const plain = await acall('GET', '?format=plain&delimiter=-&prefix=l');
    expect(plain.text).toBe('logs-\n');
    // An account's XML subdir is the bare <subdir name="…"/> (Swift's account_to_xml; a container's has a <name> child too).
    const x = xml.parse((await acall('GET', '?format=xml&delimiter=-&prefix=l')).text) as { account: { subdir: unknown } };
    expect(x.account.subdir).toEqual({ '@_name': 'logs-' });
    for (const c of ['logs-2024', 'logs-2025', 'photos-a', 'photos-b-c']) await acall('DELETE', `/${c}`);
  });

  it('POST merges metadata, X-Remove-Account-Meta-* and an empty value remove it; names come back Title-Cased', async () => {
    expect((await acall('POST', '', { 'X-Account-Meta-Color': 'blue' })).status).toBe(204);
    expect((await acall('POST', '', { 'X-Account-Meta-Shoe-Size': '42', 'x-account-meta-lower': 'Case Kept' })).status).toBe(204);
    let h = (await acall('HEAD', '')).headers;
    expect(h.get('x-account-meta-color')).toBe('blue');
    expect(h.get('x-account-meta-shoe-size')).toBe('42');
    expect(h.get('x-account-meta-lower')).toBe('Case Kept');
    const raw = await rawRequest(s.port, `HEAD ${new URL(u.storageUrl).pathname} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${u.token}\r\nConnection: close\r\n\r\n`);
    expect(raw.head).toContain('X-Account-Meta-Shoe-Size: 42');
    expect((await acall('POST', '', { 'X-Remove-Account-Meta-Color': 'x', 'X-Account-Meta-Shoe-Size': '' })).status).toBe(204);
    h = (await acall('HEAD', '')).headers;
    expect(h.get('x-account-meta-color')).toBeNull();
    expect(h.get('x-account-meta-shoe-size')).toBeNull();
    expect(h.get('x-account-meta-lower')).toBe('Case Kept');
    // GET carries the same account headers.
    expect((await acall('GET', '?format=json')).headers.get('x-account-meta-lower')).toBe('Case Kept');
  });

  it('quota headers appear once an administrator sets a quota; the owner cannot set them by POST', async () => {
    await s.engine.setAccountQuota(u.account, { maxBytes: 123456, maxObjects: 7 });
    for (const method of ['HEAD', 'GET']) {
      const r = await acall(method, '?format=json');
      expect(r.headers.get('x-account-meta-quota-bytes')).toBe('123456');
      expect(r.headers.get('x-account-meta-quota-count')).toBe('7');
    }
    const post = await acall('POST', '', { 'X-Account-Meta-Quota-Bytes': '999999999' });
    expect(post.status).toBe(403);
    expect((await acall('HEAD', '')).headers.get('x-account-meta-quota-bytes')).toBe('123456');
    await s.engine.setAccountQuota(u.account, { maxBytes: -1, maxObjects: -1 });
    expect((await acall('HEAD', '')).headers.get('x-account-meta-quota-bytes')).toBeNull();
  });

  it('account quota: 413 "Upload exceeds quota." once bytes or count would go over', async () => {
    const q = await addUser(s, 'acct$quota');
    const qcall = (method: string, path: string, body?: string) =>
      call(s, method, path, { base: q.storageUrl, token: q.token, ...(body !== undefined ? { body } : {}) });
    await qcall('PUT', '/c');
    await s.engine.setAccountQuota(q.account, { maxBytes: 10_000 });
    expect((await qcall('PUT', '/c/a', 'a'.repeat(3000))).status).toBe(201);
    const over = await qcall('PUT', '/c/b', 'b'.repeat(8000));
    expect(over.status).toBe(413);
    expect(over.text).toContain('Upload exceeds quota.');
    expectBaseHeaders(over, 'quota 413');
    expect((await qcall('HEAD', '/c/b')).status).toBe(404);
    await s.engine.setAccountQuota(q.account, { maxBytes: -1, maxObjects: 1 });
    expect((await qcall('PUT', '/c/b', 'b')).status).toBe(413);
    // Deleting is always allowed, and frees room.
    expect((await qcall('DELETE', '/c/a')).status).toBe(204);
    expect((await qcall('PUT', '/c/b', 'b')).status).toBe(201);
  });

  it('plain PUT and DELETE on the account are 405, with Allow (accounts are the administrator\'s: coffer user create)', async () => {
    for (const m of ['PUT', 'DELETE']) {
      const r = await acall(m, '');
      expect([r.status, r.headers.get('allow')], m).toEqual([405, 'GET, HEAD, POST']);
    }
  });
});
