import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytes, md5, request, startServer, type XloServer } from './xlo-server.js';

let s: XloServer;
const parts = [bytes(80_000, 11), bytes(5, 12), bytes(66_000, 13)];
const whole = Buffer.concat(parts);
const dloEtag = (ps: Buffer[]) => `"${md5(ps.map((p) => md5(p)).join(''))}"`;

beforeAll(async () => {
  s = await startServer();
  for (const c of ['c', 'c_segments']) await request(s, 'PUT', `/${c}`);
  // Out of order on purpose: a DLO joins its segments in name order.
  for (const i of [2, 0, 1]) await request(s, 'PUT', `/c_segments/my%20file/00${i}`, { body: parts[i]! });
  await request(s, 'PUT', '/c_segments/other/000', { body: 'not mine' });
});
afterAll(() => s.close());

describe('dynamic large objects (DLO)', () => {
  it('a PUT with X-Object-Manifest makes a manifest that GET/HEAD join in name order', async () => {
    const put = await request(s, 'PUT', '/c/dlo', { body: '', headers: { 'X-Object-Manifest': 'c_segments/my%20file/' } });
    expect(put.status).toBe(201);
    expect(put.headers.get('etag')).toBe(md5(''));
    const head = await request(s, 'HEAD', '/c/dlo');
    expect(head.headers.get('content-length')).toBe(String(whole.length));
    expect(head.headers.get('etag')).toBe(dloEtag(parts));
    expect(head.headers.get('x-object-manifest')).toBe('c_segments/my%20file/');
    const get = await request(s, 'GET', '/c/dlo');
    expect(get.status).toBe(200);
    expect(get.headers.get('x-object-manifest')).toBe('c_segments/my%20file/');
    expect(get.body.equals(whole)).toBe(true);
  });

  it('serves ranges across segments', async () => {
    const r = await request(s, 'GET', '/c/dlo', { headers: { Range: 'bytes=79998-80006' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 79998-80006/${whole.length}`);
    expect(r.body.equals(whole.subarray(79998, 80007))).toBe(true);
  });

  it('is dynamic: a new segment is part of the next read', async () => {
    await request(s, 'PUT', '/c_segments/my%20file/003', { body: 'tail' });
    const r = await request(s, 'GET', '/c/dlo');
    expect(r.body.equals(Buffer.concat([whole, Buffer.from('tail')]))).toBe(true);
    expect(r.headers.get('etag')).toBe(dloEtag([...parts, Buffer.from('tail')]));
    await request(s, 'DELETE', '/c_segments/my%20file/003');
  });

  it('lists the manifest with its own size; ?multipart-manifest=get returns its own bytes', async () => {
    const list = JSON.parse((await request(s, 'GET', '/c?format=json')).text) as { name: string; bytes: number }[];
    expect(list.find((o) => o.name === 'dlo')?.bytes).toBe(0);
    const raw = await request(s, 'GET', '/c/dlo?multipart-manifest=get');
    expect(raw.status).toBe(200);
    expect(raw.body.length).toBe(0);
  });

  it('an empty prefix match or a missing container is an empty object', async () => {
    await request(s, 'PUT', '/c/none', { body: '', headers: { 'X-Object-Manifest': 'nowhere/x' } });
    const r = await request(s, 'GET', '/c/none');
    expect([r.status, r.body.length, r.headers.get('etag')]).toEqual([200, 0, `"${md5('')}"`]);
  });

  it('refuses a malformed X-Object-Manifest', async () => {
    for (const v of ['justcontainer', 'c_segments/', '/c_segments/x', 'c/x?y']) {
      const r = await request(s, 'PUT', '/c/bad', { body: '', headers: { 'X-Object-Manifest': v } });
      expect([v, r.status, r.text]).toEqual([v, 400, 'X-Object-Manifest must be in the format container/prefix']);
    }
  });

  it('DELETE removes the manifest only', async () => {
    expect((await request(s, 'DELETE', '/c/dlo')).status).toBe(204);
    expect((await request(s, 'HEAD', '/c/dlo')).status).toBe(404);
    expect((await request(s, 'HEAD', '/c_segments/my%20file/000')).status).toBe(200);
  });
});
