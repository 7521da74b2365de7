// Swift symlinks (issue #27), as Swift 2.30's symlink middleware serves them, over plain HTTP
// against a real server; through python-swiftclient and the `swift` CLI in swift-cli-symlink.test.ts.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, call, OTHER_ACCOUNT, type TestServer } from './server.js';
import { useServerWithScratch } from './http-kit.js';

let s!: TestServer;
useServerWithScratch('coffer-symlink-', (server) => (s = server));

const AUTH = `AUTH_${encodeURIComponent(ACCOUNT)}`;

describe('symlinks over plain HTTP', () => {
  it('refuses a body, a malformed target, a link to itself, and POST with X-Symlink-Target', async () => {
    await call(s, 'PUT', '/bad');
    const withBody = await call(s, 'PUT', '/bad/l', { headers: { 'X-Symlink-Target': 'bad/x' }, body: 'x' });
    expect([withBody.status, withBody.text]).toEqual([400, 'Symlink requests require a zero byte body']);
    const slash = await call(s, 'PUT', '/bad/l', { headers: { 'X-Symlink-Target': '/bad/x' }, body: '' });
    expect([slash.status, slash.text]).toEqual([412, 'X-Symlink-Target header must be of the form <container name>/<object name>']);
    const noObject = await call(s, 'PUT', '/bad/l', { headers: { 'X-Symlink-Target': 'bad' }, body: '' });
    expect(noObject.status).toBe(412);
    const self = await call(s, 'PUT', '/bad/l', { headers: { 'X-Symlink-Target': 'bad/l' }, body: '' });
    expect([self.status, self.text]).toEqual([400, 'Symlink cannot target itself']);
    const post = await call(s, 'POST', '/bad/l', { headers: { 'X-Symlink-Target': 'bad/x' } });
    expect([post.status, post.text]).toEqual([400, 'A PUT request is required to set a symlink target']);
  });

  it('follows at most two links in a row (409 past that), and a loop is the same 409', async () => {
    await call(s, 'PUT', '/chain');
    await call(s, 'PUT', '/chain/end', { body: 'end' });
    for (const [from, to] of [['a', 'b'], ['b', 'c'], ['c', 'end'], ['x', 'y'], ['y', 'x']]) {
      expect((await call(s, 'PUT', `/chain/${from}`, { headers: { 'X-Symlink-Target': `chain/${to}` }, body: '' })).status).toBe(201);
    }
    expect((await call(s, 'GET', '/chain/b')).text).toBe('end');
    const far = await call(s, 'GET', '/chain/a');
    expect([far.status, far.text]).toEqual([409, 'Too many levels of symbolic links, maximum allowed is 2']);
    expect((await call(s, 'HEAD', '/chain/x')).status).toBe(409);
  });

  it('POST to a link changes the link and answers 307 to its target', async () => {
    await call(s, 'PUT', '/post');
    await call(s, 'PUT', '/post/ln', { headers: { 'X-Symlink-Target': 'post/obj' }, body: '' });
    // fetch would follow the redirect (and POST again): read the 307 itself.
    const r = await fetch(`${s.storageUrl}/post/ln`, { method: 'POST', redirect: 'manual', headers: { 'X-Auth-Token': s.token, 'X-Object-Meta-Note': 'on-link' } });
    expect(r.status).toBe(307);
    expect(await r.text()).toBe('The requested POST was applied to a symlink. POST directly to the target to apply requested metadata.');
    expect(r.headers.get('location')).toBe(`/v1/${AUTH}/post/obj`);
    const self = await call(s, 'HEAD', '/post/ln?symlink=get');
    expect(self.headers.get('x-object-meta-note')).toBe('on-link');
  });

  it('reads the target as the caller: a link into a container the caller cannot read is refused', async () => {
    await call(s, 'PUT', '/private');
    await call(s, 'PUT', '/private/secret', { body: 'secret' });
    await call(s, 'PUT', '/open', { headers: { 'X-Container-Read': '.r:*' } });
    await call(s, 'PUT', '/open/ln', { headers: { 'X-Symlink-Target': 'private/secret' }, body: '' });
    await call(s, 'PUT', '/open/pub', { body: 'public' });
    await call(s, 'PUT', '/open/ln2', { headers: { 'X-Symlink-Target': 'open/pub' }, body: '' });
    expect((await call(s, 'GET', '/open/ln', { token: null })).status).toBe(401);
    expect((await call(s, 'GET', '/open/ln', { token: s.otherToken })).status).toBe(403);
    expect((await call(s, 'GET', '/open/ln2', { token: null })).text).toBe('public');
    // A link in another account, through X-Symlink-Target-Account, is read with the caller's rights there.
    const other = await call(s, 'PUT', '/open/cross', { headers: { 'X-Symlink-Target': 'c/o', 'X-Symlink-Target-Account': `AUTH_${OTHER_ACCOUNT}` }, body: '' });
    expect(other.status).toBe(201);
    expect((await call(s, 'GET', '/open/cross')).status).toBe(403);
  });
});
