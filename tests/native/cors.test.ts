// Container CORS of the native API, as Swift's proxy answers OPTIONS: the container's
// X-Container-Meta-Access-Control-* metadata decides a browser's preflight (fetch, no token).
import { describe, expect, it } from 'vitest';
import { useNativeServer } from './http-kit.js';
import { call, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer } = useNativeServer((server) => (s = server));

const preflight = (path: string, headers: Record<string, string>) => call(s, 'OPTIONS', path, { token: null, headers });
const ALLOW = 'COPY, DELETE, GET, HEAD, OPTIONS, POST, PUT';

describe('OPTIONS on containers and objects (Swift proxy OPTIONS)', () => {
  it('a preflight the container allows: 200 with the origin, methods, requested headers and max age', async () => {
    const c = fresh('cors');
    await mkContainer(c, { 'X-Container-Meta-Access-Control-Allow-Origin': 'https://a.example https://b.example', 'X-Container-Meta-Access-Control-Max-Age': '300' });
    const r = await preflight(`/${c}/obj`, { Origin: 'https://b.example', 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'X-Auth-Token, Content-Type' });
    expect(r.status).toBe(200);
    expect(Object.fromEntries(['allow', 'access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age'].map((h) => [h, r.headers.get(h)]))).toEqual({
      allow: ALLOW,
      'access-control-allow-origin': 'https://b.example',
      'access-control-allow-methods': 'PUT, POST, OPTIONS, HEAD, GET, DELETE, COPY',
      'access-control-allow-headers': 'x-auth-token, content-type',
      'access-control-max-age': '300',
    });
    // `*` allows any origin and is answered as `*`; the container itself answers too.
    const any = fresh('cors-any');
    await mkContainer(any, { 'X-Container-Meta-Access-Control-Allow-Origin': '*' });
    const star = await preflight(`/${any}`, { Origin: 'https://z.example', 'Access-Control-Request-Method': 'GET' });
    expect([star.status, star.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
  });

  it('401 for an origin not listed, a method not served, a container without CORS or none at all', async () => {
    const c = fresh('cors-no');
    await mkContainer(c, { 'X-Container-Meta-Access-Control-Allow-Origin': 'https://a.example' });
    const plain = fresh('cors-plain');
    await mkContainer(plain);
    const refused = await Promise.all([
      preflight(`/${c}/obj`, { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' }),
      preflight(`/${c}/obj`, { Origin: 'https://a.example', 'Access-Control-Request-Method': 'PATCH' }),
      preflight(`/${plain}/obj`, { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }),
      preflight(`/${fresh('cors-missing')}/obj`, { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }),
    ]);
    expect(refused.map((r) => [r.status, r.headers.get('access-control-allow-origin')])).toEqual(Array(4).fill([401, null]));
  });

  it('without an Origin: a plain 200 saying what is allowed', async () => {
    const c = fresh('cors-opt');
    await mkContainer(c);
    const r = await preflight(`/${c}/obj`, {});
    expect([r.status, r.headers.get('allow')]).toEqual([200, ALLOW]);
  });
});
