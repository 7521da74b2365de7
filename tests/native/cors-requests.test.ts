// CORS on actual native requests, as Swift 2.30's proxy answers them (cors_validation,
// strict_cors_mode): the container's X-Container-Meta-Access-Control-* metadata, set with
// python-swiftclient, decides what a browser's request (plain fetch with an Origin, as a page
// sends it) is answered with; a form post copies its file PUT's Access-Control-* headers.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, storagePath, SWIFT_KEY, SWIFT_USER, type TestServer } from './server.js';
import { python, swiftClientEnv } from './swift-tools.js';
import { useServerWithScratch } from './http-kit.js';

let s!: TestServer;
let work!: string;
useServerWithScratch('coffer-cors-', (server, scratch) => ((s = server), (work = scratch)));

/** Runs python-swiftclient statements as the tester (`c`: swiftclient.client, `url`, `tok`). */
function swiftclient(statements: string): Promise<void> {
  const file = join(work, `s-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, `import sys\nfrom swiftclient import client as c\nurl, tok = c.get_auth(sys.argv[1], sys.argv[2], sys.argv[3])\n${statements}\n`);
  return new Promise((resolve, reject) => {
    execFile(python(), [file, s.authUrl, SWIFT_USER, SWIFT_KEY], { env: swiftClientEnv(), timeout: 50_000 }, (err, _out, stderr) => (err ? reject(new Error(stderr)) : resolve()));
  });
}

/** A container allowing `origins`, exposing two names of its own, with `obj` carrying metadata. */
async function corsContainer(name: string, origins: string): Promise<void> {
  await swiftclient(`
c.put_container(url, tok, '${name}')
c.post_container(url, tok, '${name}', {'X-Container-Meta-Access-Control-Allow-Origin': '${origins}', 'X-Container-Meta-Access-Control-Expose-Headers': 'X-Custom-One x-custom-two'})
c.put_object(url, tok, '${name}', 'obj', b'hello', content_type='text/plain', headers={'X-Object-Meta-Color': 'red'})
`);
}

const SWIFT_EXPOSED = ['cache-control', 'content-language', 'content-type', 'expires', 'last-modified', 'pragma', 'etag', 'x-timestamp', 'x-trans-id', 'x-openstack-request-id'];
const exposed = (h: Headers) => (h.get('access-control-expose-headers') ?? '').split(', ').filter(Boolean).sort();
// The Vary CORS adds; a listing negotiated by Accept also varies on Accept (Swift's listing_formats), which is not CORS's.
const corsVary = (h: Headers) => h.get('vary')?.split(',').map((v) => v.trim()).filter((v) => v !== 'Accept').join(', ') || null;
const cors = (h: Headers) => [h.get('access-control-allow-origin'), corsVary(h), h.get('access-control-expose-headers') !== null];
const A = { Origin: 'https://a.example' };

describe('CORS answers on container and object requests (Swift cors_validation)', () => {
  it('an allowed origin gets itself back, Vary: Origin, and Swift\'s exposed headers with the answer\'s metadata and the container\'s own', async () => {
    await corsContainer('cors-a', 'https://b.example https://a.example');
    const get = await call(s, 'GET', '/cors-a/obj', { headers: A });
    expect([get.status, get.text]).toEqual([200, 'hello']);
    expect(cors(get.headers)).toEqual(['https://a.example', 'Origin', true]);
    expect(exposed(get.headers)).toEqual([...SWIFT_EXPOSED, 'x-object-meta-color', 'x-custom-one', 'x-custom-two'].sort());
    // The container's HEAD exposes its own metadata names.
    const head = await call(s, 'HEAD', '/cors-a', { headers: A });
    expect(exposed(head.headers)).toEqual(
      [...SWIFT_EXPOSED, 'x-container-meta-access-control-allow-origin', 'x-container-meta-access-control-expose-headers', 'x-custom-one', 'x-custom-two'].sort(),
    );
    // Writes too: PUT, POST, DELETE of objects, a listing.
    const writes = [
      await call(s, 'PUT', '/cors-a/new', { headers: A, body: 'x' }),
      await call(s, 'POST', '/cors-a/new', { headers: { ...A, 'X-Object-Meta-Shade': 'blue' } }),
      await call(s, 'GET', '/cors-a?format=json', { headers: A }),
      await call(s, 'DELETE', '/cors-a/new', { headers: A }),
    ];
    expect(writes.map((r) => [r.status, ...cors(r.headers)])).toEqual([
      [201, 'https://a.example', 'Origin', true],
      [202, 'https://a.example', 'Origin', true],
      [200, 'https://a.example', 'Origin', true],
      [204, 'https://a.example', 'Origin', true],
    ]);
  });

  it('`*` alone is answered `*` (no Vary); `*` among others allows any origin, answered with itself', async () => {
    await corsContainer('cors-any', '*');
    await corsContainer('cors-mixed', 'https://a.example *');
    const any = await call(s, 'GET', '/cors-any/obj', { headers: { Origin: 'https://z.example' } });
    expect(cors(any.headers)).toEqual(['*', null, true]);
    const mixed = await call(s, 'GET', '/cors-mixed/obj', { headers: { Origin: 'https://z.example' } });
    expect(cors(mixed.headers)).toEqual(['https://z.example', 'Origin', true]);
  });

  it('strict mode: nothing for an origin not listed, a wildcard inside an origin, a container without CORS, the account, or no Origin', async () => {
    await corsContainer('cors-strict', 'https://*.example https://a.example');
    await swiftclient(`c.put_container(url, tok, 'cors-none')\nc.put_object(url, tok, 'cors-none', 'obj', b'x')`);
    const answers = [
      await call(s, 'GET', '/cors-strict/obj', { headers: { Origin: 'https://evil.example' } }),
      await call(s, 'GET', '/cors-strict/obj', { headers: { Origin: 'https://b.example' } }),
      await call(s, 'GET', '/cors-none/obj', { headers: A }),
      await call(s, 'HEAD', '', { headers: A }),
      await call(s, 'GET', '/cors-strict/obj'),
    ];
    const none = [null, null, false];
    expect(answers.map((r) => [r.status, ...cors(r.headers)])).toEqual([[200, ...none], [200, ...none], [200, ...none], [204, ...none], [200, ...none]]);
  });

  it('errors inside the container carry the answer (a script reads why), a refused token does not', async () => {
    await corsContainer('cors-err', 'https://a.example');
    const answers = [
      await call(s, 'GET', '/cors-err/nope', { headers: A }),
      await call(s, 'GET', '/cors-err/obj', { headers: A, token: null }),
      await call(s, 'GET', '/cors-err/obj', { headers: A, token: s.otherToken }),
      await call(s, 'GET', '/cors-err/obj', { headers: A, token: 'AUTH_tkbogus' }),
      await call(s, 'GET', '/cors-missing/obj', { headers: A }),
    ];
    expect(answers.map((r) => [r.status, r.headers.get('access-control-allow-origin')])).toEqual([
      [404, 'https://a.example'],
      [401, 'https://a.example'],
      [403, 'https://a.example'],
      [401, null],
      [404, null],
    ]);
  });

  it('a form post copies the Access-Control-* headers of its file\'s PUT (no Vary)', async () => {
    await corsContainer('cors-form', 'https://a.example');
    await swiftclient(`c.post_account(url, tok, {'X-Account-Meta-Temp-URL-Key': 'cors-form-key'})`);
    const expires = Math.floor(Date.now() / 1000) + 300;
    const signature = createHmac('sha256', 'cors-form-key').update([decodeURIComponent(`${storagePath(s)}/cors-form/up/`), '', 1024, 1, expires].join('\n')).digest('hex');
    const form = new FormData();
    for (const [k, v] of [['max_file_size', '1024'], ['max_file_count', '1'], ['expires', String(expires)], ['signature', signature]]) form.append(k!, v!);
    form.append('file', new Blob(['form bytes']), 'f.txt');
    const res = await fetch(`${s.storageUrl}/cors-form/up/`, { method: 'POST', body: form, headers: A });
    expect([res.status, await res.text()]).toEqual([201, '201 Created']);
    expect(cors(res.headers)).toEqual(['https://a.example', null, true]);
    expect(exposed(res.headers)).toEqual([...SWIFT_EXPOSED, 'x-custom-one', 'x-custom-two'].sort());
  });
});
