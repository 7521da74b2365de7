// The remote Swift backend's sign-in and failure handling against Coffer's native API: error
// mapping, re-authentication, retries with backoff, and Keystone v3 (password and application
// credentials, catalog choice) against a minimal token endpoint (tests/backends/fake-keystone.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteNativeBackend } from '../../src-main/backends/remote-native.js';
import { normaliseIdentityUrl, pickEndpoint, tokenRequestBody } from '../../src-main/backends/swift/keystone.js';
import { startFakeKeystone } from './fake-keystone.js';
import { ACCOUNT, allEntries, bytes, containerName, expectCode, flakyProxy, KEY, requests, startCoffer, USER, v1Backend, v1Token, type Coffer } from './remote-native-setup.js';

let coffer: Coffer;
let backend: RemoteNativeBackend;

beforeAll(async () => {
  coffer = await startCoffer();
  backend = v1Backend(coffer);
  await backend.connect();
});
afterAll(async () => {
  backend?.close();
  await coffer?.close();
});

describe('errors and authentication', () => {
  it('maps a wrong key, an unknown user and an unreachable server', async () => {
    const wrong = new RemoteNativeBackend({ authUrl: coffer.authUrl, auth: { type: 'v1', user: USER, key: 'nope' } });
    const err = await expectCode(wrong.listContainers(), 'AuthFailed');
    expect(err.message).toContain('401');
    const unknown = new RemoteNativeBackend({ authUrl: `${coffer.url}/auth/v1.0`, auth: { type: 'v1', user: 'x$y:z', key: 'nope' } });
    await expectCode(unknown.accountInfo(), 'AuthFailed');
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((r) => dead.close(r));
    const away = new RemoteNativeBackend({ authUrl: `http://127.0.0.1:${port}/auth/1.0`, auth: { type: 'v1', user: USER, key: KEY }, backoffMs: 1 });
    await expectCode(away.listContainers(), 'Unreachable');
    const noDns = new RemoteNativeBackend({ authUrl: 'http://no-such-host.invalid/auth/1.0', auth: { type: 'v1', user: USER, key: KEY } });
    await expectCode(noDns.listContainers(), 'Unreachable');
    for (const b of [wrong, unknown, away, noDns]) b.close();
  });

  it('maps 403 and a quota refusal', async () => {
    await coffer.app.engine.createAccount({ id: 'test$other', swiftKeys: [{ sub: 'swift', secretKey: 'other-key' }] });
    const other = await v1Token(coffer, 'test$other:swift', 'other-key');
    const c = containerName('private');
    await backend.createContainer(c);
    const intruder = new RemoteNativeBackend({ auth: { type: 'token', token: other.token, storageUrl: backend.session()!.storageUrl } });
    await expectCode(allEntries(intruder.listFolder(c)), 'AccessDenied');
    intruder.close();
    await coffer.app.engine.setAccountQuota(ACCOUNT, { maxBytes: (await backend.accountInfo()).usage.bytes! + 10 });
    const err = await expectCode(backend.upload(c, 'too-big', { stream: Readable.from([bytes(100)]), size: 100 }), 'QuotaExceeded');
    expect(err.message).toContain('413');
    await coffer.app.engine.setAccountQuota(ACCOUNT, { maxBytes: -1 });
  });

  it('signs in again once when a kept token is rejected', async () => {
    const storageUrl = backend.session()!.storageUrl;
    const stale = v1Backend(coffer, { session: { token: 'AUTH_tkstale.bogus', storageUrl, expiresAt: null } });
    const from = coffer.log.length;
    await stale.listContainers();
    expect(requests(coffer, from, / GET \/auth\/1\.0 /).length).toBe(1);
    expect(requests(coffer, from, / 401 /).length).toBe(1);
    expect(stale.session()!.token).not.toBe('AUTH_tkstale.bogus');
    // Many requests at once after the token dies: one sign-in, not one each.
    (stale.session() as { token: string }).token = 'AUTH_tkstale.again';
    const from2 = coffer.log.length;
    await Promise.all(Array.from({ length: 5 }, () => stale.accountInfo()));
    expect(requests(coffer, from2, / GET \/auth\/1\.0 /).length).toBeLessThanOrEqual(2);
    stale.close();
  });

  it('reports AuthFailed when the key is revoked, and recovers when it is back', async () => {
    const b = v1Backend(coffer);
    await b.accountInfo();
    await coffer.app.engine.removeKey(ACCOUNT, USER);
    const from = coffer.log.length;
    await expectCode(b.accountInfo(), 'AuthFailed');
    // The cached token was tried, then one new sign-in (refused): no loop.
    expect(requests(coffer, from, / GET \/auth\/1\.0 /).length).toBe(1);
    await coffer.app.engine.addSwiftKey(ACCOUNT, 'swift', KEY);
    expect((await b.accountInfo()).id).toBe(ACCOUNT);
    b.close();
  });

  it('cannot renew a pre-issued token', async () => {
    const b = new RemoteNativeBackend({ auth: { type: 'token', token: 'AUTH_tknope.x', storageUrl: backend.session()!.storageUrl } });
    await expectCode(b.listContainers(), 'AuthFailed');
    const good = await v1Token(coffer);
    const ok = new RemoteNativeBackend({ auth: { type: 'token', ...good } });
    expect((await ok.accountInfo()).id).toBe(ACCOUNT);
    b.close();
    ok.close();
  });

  it('retries idempotent requests on 503 and network errors, with backoff', async () => {
    // The first listing request is dropped, the next two get 503, the fourth goes through.
    let resets = 1;
    let refusals = 2;
    const p = await flakyProxy(coffer, (req) => {
      if (req.method !== 'GET' || !req.url?.includes('retry-me?')) return 'pass';
      if (resets > 0) return resets--, 'reset';
      return refusals > 0 ? (refusals--, '503') : 'pass';
    });
    try {
      await backend.createContainer('retry-me');
      expect(await allEntries(p.backend.listFolder('retry-me'))).toEqual([]);
      expect([resets, refusals]).toEqual([0, 0]);
      refusals = 10;
      const err = await expectCode(allEntries(p.backend.listFolder('retry-me')), 'RemoteError');
      expect(err.message).toContain('503 Service Unavailable');
      expect(refusals).toBe(6);
    } finally {
      await p.close();
    }
  });
});

describe('Keystone v3', () => {
  const password = (body: unknown) => JSON.stringify(body).includes('"password":"pw"');

  it('builds password and application-credential requests', () => {
    expect(tokenRequestBody({ type: 'password', user: 'tester', password: 'pw', project: 'demo' })).toEqual({
      auth: {
        identity: { methods: ['password'], password: { user: { name: 'tester', domain: { id: 'default' }, password: 'pw' } } },
        scope: { project: { name: 'demo', domain: { id: 'default' } } },
      },
    });
    expect(tokenRequestBody({ type: 'password', user: { id: 'u1' }, password: 'pw', project: { id: 'p1' } })).toEqual({
      auth: { identity: { methods: ['password'], password: { user: { id: 'u1', password: 'pw' } } }, scope: { project: { id: 'p1' } } },
    });
    expect(tokenRequestBody({ type: 'password', user: 'tester', userDomain: 'Users', password: 'pw', project: 'demo', projectDomain: { id: 'd2' } })).toMatchObject({
      auth: { identity: { password: { user: { domain: { name: 'Users' } } } }, scope: { project: { name: 'demo', domain: { id: 'd2' } } } },
    });
    expect(tokenRequestBody({ type: 'application-credential', id: 'ac1', secret: 's' })).toEqual({
      auth: { identity: { methods: ['application_credential'], application_credential: { id: 'ac1', secret: 's' } } },
    });
    expect(tokenRequestBody({ type: 'application-credential', name: 'backup', user: 'tester', userDomain: 'Default', secret: 's' })).toEqual({
      auth: { identity: { methods: ['application_credential'], application_credential: { name: 'backup', user: { name: 'tester', domain: { name: 'Default' } }, secret: 's' } } },
    });
    expect(() => tokenRequestBody({ type: 'application-credential', name: 'backup', secret: 's' })).toThrow(/id, or its name and its user/);
  });

  it('normalises the identity URL and picks the endpoint by interface and region', () => {
    for (const u of ['http://k:5000', 'http://k:5000/', 'http://k:5000/v3', 'http://k:5000/v3/', 'http://k:5000/v2.0']) expect(normaliseIdentityUrl(u)).toBe('http://k:5000/v3');
    const catalog = [
      { type: 'identity', endpoints: [{ interface: 'public', region_id: 'R1', url: 'http://id' }] },
      {
        type: 'object-store',
        endpoints: [
          { interface: 'internal', region_id: 'R1', url: 'http://internal-r1' },
          { interface: 'public', region_id: 'R1', url: 'http://public-r1/' },
          { interface: 'public', region_id: 'R2', url: 'http://public-r2' },
          { interface: 'admin', region: 'R2', url: 'http://admin-r2' },
        ],
      },
    ];
    expect(pickEndpoint(catalog, 'public')).toBe('http://public-r1');
    expect(pickEndpoint(catalog, 'public', 'R2')).toBe('http://public-r2');
    expect(pickEndpoint(catalog, 'internal')).toBe('http://internal-r1');
    expect(pickEndpoint(catalog, 'admin', 'R2')).toBe('http://admin-r2');
    expect(() => pickEndpoint(catalog, 'internal', 'R2')).toThrow(/no object-store endpoint for interface internal in region R2/);
  });

  it('signs in with a password, by names and by ids, and uses the catalog endpoint', async () => {
    const ks = await startFakeKeystone({ issue: () => v1Token(coffer), accept: password });
    try {
      const b = new RemoteNativeBackend({ authUrl: `${ks.url}/v3/`, auth: { type: 'password', user: 'tester', password: 'pw', project: 'demo', projectDomain: 'Default' } });
      expect((await b.accountInfo()).id).toBe(ACCOUNT);
      expect(b.session()!.displayName).toBe('tester / demo');
      expect(b.session()!.expiresAt).toBeGreaterThan(Date.now() + 3000_000);
      expect(ks.bodies[0]).toEqual({
        auth: {
          identity: { methods: ['password'], password: { user: { name: 'tester', domain: { id: 'default' }, password: 'pw' } } },
          scope: { project: { name: 'demo', domain: { name: 'Default' } } },
        },
      });
      const byId = new RemoteNativeBackend({ authUrl: ks.url, auth: { type: 'password', user: { id: 'u1' }, password: 'pw', project: { id: 'p1' } } });
      await byId.listContainers();
      expect(ks.bodies[1]).toEqual({ auth: { identity: { methods: ['password'], password: { user: { id: 'u1', password: 'pw' } } }, scope: { project: { id: 'p1' } } } });
      const wrong = new RemoteNativeBackend({ authUrl: ks.url, auth: { type: 'password', user: 'tester', password: 'bad', project: 'demo' } });
      const err = await expectCode(wrong.listContainers(), 'AuthFailed');
      expect(err.message).toContain('requires authentication');
      for (const x of [b, byId, wrong]) x.close();
    } finally {
      await ks.close();
    }
  });

  it('signs in with application credentials', async () => {
    const ks = await startFakeKeystone({ issue: () => v1Token(coffer), accept: (body) => JSON.stringify(body).includes('"secret":"s3cret"') });
    try {
      const byId = new RemoteNativeBackend({ authUrl: ks.url, auth: { type: 'application-credential', id: 'ac1', secret: 's3cret' } });
      await byId.listContainers();
      const byName = new RemoteNativeBackend({ authUrl: ks.url, auth: { type: 'application-credential', name: 'backup', user: 'tester', secret: 's3cret' } });
      await byName.listContainers();
      expect(ks.bodies).toEqual([
        { auth: { identity: { methods: ['application_credential'], application_credential: { id: 'ac1', secret: 's3cret' } } } },
        { auth: { identity: { methods: ['application_credential'], application_credential: { name: 'backup', user: { name: 'tester', domain: { id: 'default' } }, secret: 's3cret' } } } },
      ]);
      byId.close();
      byName.close();
    } finally {
      await ks.close();
    }
  });

  it('chooses the catalog endpoint by region and interface', async () => {
    const ks = await startFakeKeystone({
      issue: () => v1Token(coffer),
      accept: password,
      endpoints: (url) => [
        { interface: 'public', region_id: 'RegionOne', url: 'http://127.0.0.1:9/v1/AUTH_wrong' },
        { interface: 'internal', region_id: 'RegionTwo', url: 'http://127.0.0.1:9/v1/AUTH_internal' },
        { interface: 'public', region_id: 'RegionTwo', url },
      ],
    });
    try {
      const auth = { type: 'password' as const, user: 'tester', password: 'pw', project: 'demo' };
      const two = new RemoteNativeBackend({ authUrl: ks.url, auth, region: 'RegionTwo' });
      expect((await two.accountInfo()).id).toBe(ACCOUNT);
      // Port 9 answers nothing: signing in works, the chosen storage URL is then unreachable.
      const internal = new RemoteNativeBackend({ authUrl: ks.url, auth, region: 'RegionTwo', interface: 'internal', backoffMs: 1 });
      await expectCode(internal.connect(), 'Unreachable');
      expect(internal.session()!.storageUrl).toBe('http://127.0.0.1:9/v1/AUTH_internal');
      const any = new RemoteNativeBackend({ authUrl: ks.url, auth, backoffMs: 1 });
      await expectCode(any.connect(), 'Unreachable');
      expect(any.session()!.storageUrl).toBe('http://127.0.0.1:9/v1/AUTH_wrong');
      const none = new RemoteNativeBackend({ authUrl: ks.url, auth, region: 'RegionThree' });
      await expectCode(none.listContainers(), 'InvalidArgument');
      for (const x of [two, internal, any, none]) x.close();
    } finally {
      await ks.close();
    }
  });

  it('signs in again when the storage rejects a Keystone token', async () => {
    const ks = await startFakeKeystone({ issue: () => v1Token(coffer), accept: password, badTokens: ['AUTH_tkrevoked.x'] });
    try {
      const b = new RemoteNativeBackend({ authUrl: ks.url, auth: { type: 'password', user: 'tester', password: 'pw', project: 'demo' } });
      expect((await b.accountInfo()).id).toBe(ACCOUNT);
      expect(ks.bodies.length).toBe(2);
      b.close();
    } finally {
      await ks.close();
    }
  });
});
