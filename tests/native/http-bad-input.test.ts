// Raw HTTP tests of the native (Swift-style) API: bad input.
import { describe, expect, it } from 'vitest';
import { expectBaseHeaders, useNativeServer } from './http-kit.js';
import { call, rawRequest, storagePath, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

describe('bad input never crashes or hangs the server', () => {
  it('malformed percent-encoding, invalid UTF-8 (%FF) and NUL (%00) in the path are 4xx / 412', async () => {
    const c = fresh('bad');
    await mkContainer(c);
    const bad = await call(s, 'GET', `/${c}/a%ZZb`);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expectBaseHeaders(bad);
    for (const path of [`/${c}/a%FFb`, `/${c}/a%00b`, `/${c}/%C3`, `/${c}/%ED%A0%80`]) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const r = await call(s, method, path, method === 'PUT' ? { body: 'x' } : {});
        expect(r.status, `${method} ${path}`).toBe(412);
        expectBaseHeaders(r, `${method} ${path}`);
      }
    }
    expect((await call(s, 'GET', `/${c}?format=json&prefix=%FF`)).status).toBeGreaterThanOrEqual(400);
    expect((await call(s, 'GET', `/${c}?format=json&prefix=%ZZ`)).status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse((await call(s, 'GET', `/${c}?format=json`)).text)).toEqual([]);
  });

  it('paths that address nothing: empty account, junk after /v1, double slashes', async () => {
    for (const path of ['/swift/v1/AUTH_', '/swift/v1/', '/swift/v1/nope', '/swift/junk']) {
      const r = await fetch(`${s.url}${path}`, { headers: { 'X-Auth-Token': s.token } });
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expectBaseHeaders(r, path);
    }
    const r = await call(s, 'GET', '//o');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
  });

  it('//v1/AUTH_… is the native API\'s 404, as Swift answers it (not an S3 error)', async () => {
    for (const path of [`/${storagePath(s)}?format=json`, `/${storagePath(s)}/c/o`]) {
      const r = await rawRequest(s.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: ${s.token}\r\nConnection: close\r\n\r\n`);
      expect([r.status, r.headers['x-trans-id'] !== undefined, r.body.includes('<Error>')], path).toEqual([404, true, false]);
    }
  });

  it('a huge header block is 4xx, and the server keeps serving', async () => {
    const raw = await rawRequest(
      s.port,
      `GET ${storagePath(s)} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${s.token}\r\nX-Huge: ${'h'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
    const garbage = await rawRequest(s.port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(garbage.status === 0 || (garbage.status >= 400 && garbage.status < 500)).toBe(true);
    expect((await call(s, 'HEAD', '')).status).toBe(204);
  });

  it('a client that disconnects in the middle of a download does not disturb the server', async () => {
    const c = fresh('abort');
    await mkContainer(c);
    const big = Buffer.alloc(3_000_000, 0x5a);
    await put(c, 'big', big);
    for (let i = 0; i < 5; i++) {
      const ctl = new AbortController();
      const res = await fetch(`${s.storageUrl}/${c}/big`, { headers: { 'X-Auth-Token': s.token }, signal: ctl.signal });
      const reader = res.body!.getReader();
      await reader.read();
      ctl.abort();
      await reader.read().catch(() => undefined);
    }
    const whole = await call(s, 'GET', `/${c}/big`);
    expect(whole.body.equals(big)).toBe(true);
  });

  it('many concurrent requests with bad input leave the server healthy', async () => {
    const c = fresh('storm');
    await mkContainer(c);
    const jobs: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      jobs.push(call(s, 'PUT', `/${c}/o${i}`, { body: `v${i}` }));
      jobs.push(call(s, 'GET', `/${c}/%FF${i}`));
      jobs.push(call(s, 'GET', `/${c}?limit=99999`));
      jobs.push(call(s, 'PUT', `/${c}/bad${i}`, { body: 'x', headers: { ETag: 'f'.repeat(32) } }));
    }
    await Promise.all(jobs);
    const rows = JSON.parse((await call(s, 'GET', `/${c}?format=json`)).text) as unknown[];
    expect(rows).toHaveLength(40);
  });
});
