// Every answer of /_coffer is the contract's envelope, failures included, and the browser build's
// own code (the shipped transport, uploads and zip links, run by a stand-in page) reads the
// server's code and message from it: only a failed fetch or an answer without an envelope (a
// proxy's error page) is Unreachable.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src-shared/rpc/client.js';
import { sendUpload, zipUrl } from '../../src-renderer/api/http-uploads.js';
import { httpTransport as shippedHttpTransport, SESSION_EXPIRED } from '../../src-renderer/api/transport.js';
import { page, type Page } from './page.js';
import { startApp, type ContractEnv } from './transports.js';

let env: ContractEnv;
let tab: Page;
beforeAll(async () => {
  env = await startApp();
  tab = page(env.ctx.server.url, env.cookie);
  env.pages.push(tab);
});
afterAll(() => env.close());

const local = 'local';
const services = () => createClient(shippedHttpTransport('/_coffer', tab)).services;

/** A browser upload planned and started into `container`: its item id. */
async function plannedUpload(container: string, name: string): Promise<string> {
  const plan = await services().transfers.planUpload({ account: local, container, prefix: '', files: [{ relativePath: name, size: 5 }] });
  const { items } = await services().transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
  return items[0]!.id;
}

describe("the browser build's uploads", () => {
  it('send the bytes and answer the done item', async () => {
    await services().browse.createContainer({ account: local, container: 'kept' });
    const answer = await sendUpload(await plannedUpload('kept', 'a.txt'), new Blob(['hello']), undefined, tab);
    expect(answer).toMatchObject({ ok: true, value: { state: 'done', name: 'a.txt' } });
    expect((await services().browse.head({ account: local, container: 'kept', name: 'a.txt' })).size).toBe(5);
  });

  it('answer an upload into a container deleted since its plan with NoSuchContainer and its message, not Unreachable', async () => {
    await services().browse.createContainer({ account: local, container: 'gone' });
    const id = await plannedUpload('gone', 'a.txt');
    await services().browse.deleteContainer({ account: local, container: 'gone' });
    const answer = await sendUpload(id, new Blob(['hello']), undefined, tab);
    expect(answer).toMatchObject({ ok: false, error: { code: 'NoSuchContainer', message: expect.stringContaining('gone') } });
    // The item says the same, for the transfer list.
    const { items } = await services().transfers.list({});
    expect(items.find((i) => i.id === id)).toMatchObject({ state: 'failed', error: !answer.ok && answer.error.message });
  });

  it('answer an item that is not waiting for a file with InvalidArgument, and a refused session with AuthFailed', async () => {
    expect(await sendUpload('no-such-item', new Blob(['x']), undefined, tab)).toMatchObject({ ok: false, error: { code: 'InvalidArgument', message: 'No transfer no-such-item' } });
    const stranger = page(env.ctx.server.url, 'coffer_session=not-a-session');
    env.pages.push(stranger);
    const refused = await sendUpload('no-such-item', new Blob(['x']), undefined, stranger);
    expect(refused).toMatchObject({ ok: false, error: { code: 'AuthFailed' } });
    expect(!refused.ok && refused.error.message).toContain(SESSION_EXPIRED);
  });
});

describe("the browser build's zip links", () => {
  it('are prepared for a selection, and refused with the server error for an invalid one', async () => {
    expect(await zipUrl({ account: local, container: 'kept', names: ['a.txt'], prefixes: [], title: 'kept' }, tab)).toMatch(/^\/_coffer\/zip\/[\w-]+$/);
    await expect(zipUrl({ account: local, container: 'kept', names: 'a.txt', prefixes: [], title: 'kept' } as never, tab)).rejects.toMatchObject({
      code: 'InvalidArgument',
      message: 'account, container, names, prefixes and title are required',
    });
  });
});

describe('RPC answers that do not come from the host', () => {
  it('a request the server refuses (too large) is its error, not Unreachable', async () => {
    const result = await shippedHttpTransport('/_coffer', tab).call('browse.listFolder', { account: local, container: 'kept', prefix: 'x'.repeat(5 * 1024 * 1024) });
    expect(result).toEqual({ ok: false, error: { code: 'EntityTooLarge', message: 'Request too large' } });
  });

  describe('a proxy in front of the server', () => {
    let proxy: Server;
    let origin: string;
    beforeAll(async () => {
      proxy = createServer((req, res) => {
        if (req.url?.includes('json')) res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"message":"upstream down"}');
        else res.writeHead(502, 'Bad Gateway', { 'Content-Type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => proxy.close(resolve)));

    it('answering its own error page, or JSON that is not the envelope, is Unreachable with the status', async () => {
      const behind = page(origin, env.cookie);
      expect(await shippedHttpTransport('/_coffer', behind).call('localStore.status', {})).toEqual({ ok: false, error: { code: 'Unreachable', message: '502 Bad Gateway' } });
      expect(await shippedHttpTransport('/json', behind).call('localStore.status', {})).toMatchObject({ ok: false, error: { code: 'Unreachable', message: expect.stringMatching(/^503/) } });
      expect(await sendUpload('x', new Blob(['x']), undefined, behind)).toEqual({ ok: false, error: { code: 'Unreachable', message: '502 Bad Gateway' } });
    });

    it('not answering at all is Unreachable', async () => {
      const port = (proxy.address() as AddressInfo).port;
      await new Promise((resolve) => proxy.close(resolve));
      const nobody = page(`http://127.0.0.1:${port}`, env.cookie);
      expect(await shippedHttpTransport('/_coffer', nobody).call('localStore.status', {})).toMatchObject({ ok: false, error: { code: 'Unreachable' } });
      expect(await sendUpload('x', new Blob(['x']), undefined, nobody)).toMatchObject({ ok: false, error: { code: 'Unreachable' } });
    });
  });
});

describe('every /_coffer failure is the envelope, with a status to match', () => {
  const base = () => `${env.ctx.server.url}/_coffer`;
  const cases: [string, () => Promise<Response>, number, string][] = [
    ['a file of the app that is not there', () => fetch(`${base()}/no-such-file.js`, { headers: { Cookie: env.cookie } }), 404, 'NoSuchKey'],
    ['no session', () => fetch(`${base()}/rpc`, { method: 'POST', body: '{}' }), 401, 'AuthFailed'],
    ['another origin', () => fetch(`${base()}/rpc`, { method: 'POST', headers: { Cookie: env.cookie, Origin: 'http://evil.example' }, body: '{}' }), 403, 'AccessDenied'],
    ['an RPC that is not JSON', () => fetch(`${base()}/rpc`, { method: 'POST', headers: { Cookie: env.cookie }, body: '{' }), 400, 'InvalidArgument'],
    ['a method the endpoint does not take', () => fetch(`${base()}/rpc`, { method: 'PUT', headers: { Cookie: env.cookie }, body: '{}' }), 405, 'NotSupported'],
    ['an upload without its item', () => fetch(`${base()}/upload`, { method: 'POST', headers: { Cookie: env.cookie }, body: 'x' }), 400, 'InvalidArgument'],
    ['a download without its object', () => fetch(`${base()}/download?account=local`, { headers: { Cookie: env.cookie } }), 400, 'InvalidArgument'],
    ['a download of a missing object', () => fetch(`${base()}/download?account=local&container=kept&name=none`, { headers: { Cookie: env.cookie } }), 404, 'NoSuchKey'],
    ['a download from a missing container', () => fetch(`${base()}/download?account=local&container=none&name=none`, { headers: { Cookie: env.cookie } }), 404, 'NoSuchContainer'],
    ['a zip of an invalid selection', () => fetch(`${base()}/zip`, { method: 'POST', headers: { Cookie: env.cookie }, body: '[]' }), 400, 'InvalidArgument'],
    ['a zip link used or expired', () => fetch(`${base()}/zip/00000000-0000-0000-0000-000000000000`, { headers: { Cookie: env.cookie } }), 404, 'NoSuchKey'],
  ];
  it.each(cases)('%s', async (_what, request, status, code) => {
    const res = await request();
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect([res.status, await res.json()]).toEqual([status, { ok: false, error: { code, message: expect.any(String) } }]);
  });
});
