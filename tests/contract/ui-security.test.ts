import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type ContractEnv } from './transports.js';

let env: ContractEnv;
beforeAll(async () => {
  env = await startApp();
});
afterAll(() => env.close());

const url = (path: string) => `${env.ctx.server.url}/_coffer${path}`;
const rpc = (headers: Record<string, string>) =>
  fetch(url('/rpc'), { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ method: 'localStore.status', arg: {} }) });

/** A raw request with a Host header of our choosing (fetch always sends the real one). */
function withHost(host: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: env.ctx.server.port, path: '/_coffer/rpc', method: 'POST', headers: { Host: host, Cookie: cookie, 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ method: 'localStore.status', arg: {} }));
  });
}

describe('the browser build over HTTP is as safe as the desktop app', () => {
  it('turns the printed session token into an HttpOnly SameSite=Strict cookie', async () => {
    const res = await fetch(env.ctx.uiUrl!, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('set-cookie')).toMatch(/^coffer_session=[\w-]+; HttpOnly; SameSite=Strict; Path=\/_coffer; Max-Age=\d+$/);
    expect((await fetch(`${url('/')}?token=wrong`, { redirect: 'manual' })).status).toBe(401);
  });

  it('refuses calls without the session cookie', async () => {
    expect((await rpc({})).status).toBe(401);
    expect((await rpc({ Cookie: 'coffer_session=guess' })).status).toBe(401);
    expect((await rpc({ Cookie: env.cookie })).status).toBe(200);
  });

  it('refuses other origins (CSRF) and other host names (DNS rebinding)', async () => {
    expect((await rpc({ Cookie: env.cookie, Origin: 'http://evil.example' })).status).toBe(403);
    expect(await withHost('evil.example', env.cookie)).toBe(403);
    expect(await withHost(`localhost:${env.ctx.server.port}`, env.cookie)).toBe(200);
  });

  it('serves the renderer with a strict CSP and nothing outside its folder', async () => {
    const page = await fetch(url('/'), { headers: { Cookie: env.cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(url('/..%2F..%2Fstore%2Fconnections.json'), { headers: { Cookie: env.cookie } })).status).toBe(404);
  });

  it('streams a planned browser upload into an object, verified, and serves it back as a download', async () => {
    await env.ctx.engine.createContainer(env.ctx.localAccount.id, 'web');
    const call = async (method: string, arg: unknown) => {
      const res = await fetch(url('/rpc'), { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: env.cookie, Origin: env.ctx.server.url }, body: JSON.stringify({ method, arg }) });
      const body = (await res.json()) as { ok: boolean; value: never };
      expect(body.ok).toBe(true);
      return body.value as { batchId: string; items: { id: string; name: string }[] };
    };
    const plan = await call('transfers.planUpload', { account: 'local', container: 'web', prefix: 'dropped', files: [{ relativePath: 'file.bin', size: 300_000 }] });
    const { items } = await call('transfers.startUpload', { batchId: plan.batchId, conflict: 'replace' });
    expect(items).toMatchObject([{ name: 'dropped/file.bin', relativePath: 'file.bin' }]);
    const body = Buffer.alloc(300_000, 3);
    const post = (headers: Record<string, string>) =>
      fetch(`${url('/upload')}?id=${items[0]!.id}`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream', ...headers }, body: new Uint8Array(body) });
    expect((await post({ Origin: env.ctx.server.url })).status).toBe(401);
    const res = await post({ Cookie: env.cookie, Origin: env.ctx.server.url });
    expect(await res.json()).toMatchObject({ ok: true, value: { state: 'done', size: 300_000, verified: true } });
    expect(env.ctx.engine.headObject({ tenant: env.ctx.localAccount.tenant, container: 'web' }, 'dropped/file.bin').size).toBe(300_000);
    // The same id cannot be fed twice.
    expect(await (await post({ Cookie: env.cookie, Origin: env.ctx.server.url })).json()).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });

    const download = await fetch(`${url('/download')}?account=local&container=web&name=${encodeURIComponent('dropped/file.bin')}`, { headers: { Cookie: env.cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="file.bin"; filename*=UTF-8''file.bin`);
    expect(Buffer.from(await download.arrayBuffer()).equals(body)).toBe(true);
    expect((await fetch(`${url('/download')}?account=local&container=web&name=nope`, { headers: { Cookie: env.cookie } })).status).toBe(404);
    expect((await fetch(`${url('/download')}?account=local&container=web&name=dropped%2Ffile.bin`)).status).toBe(401);
  });
});
