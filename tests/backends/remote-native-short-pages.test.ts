// A Swift server may answer a listing with fewer entries than asked while more follow (the seed,
// 4.1.1: "a client ends iteration only when a request with marker returns an empty result"; Ceph
// RGW was seen answering 991 of 1,000). A proxy in front of Coffer's own native API drops the
// last entry of every full answer, so each answer is one short; nothing may be lost.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RemoteNativeBackend } from '../../src-main/backends/remote-native.js';
import { Engine } from '../../src-main/engine/index.js';
import { ACCOUNT, allEntries, startCoffer, v1Token, type Coffer } from './remote-native-setup.js';

let coffer: Coffer;
let proxy: ReturnType<typeof createServer>;
let short: RemoteNativeBackend;

beforeAll(async () => {
  coffer = await startCoffer();
  const target = new URL(coffer.url);
  proxy = createServer((req, res) => {
    const limit = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit'));
    const fwd = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        let body = Buffer.concat(chunks);
        if (limit > 1 && /json/.test(String(r.headers['content-type']))) {
          const rows = JSON.parse(body.toString()) as unknown[];
          if (Array.isArray(rows) && rows.length === limit) body = Buffer.from(JSON.stringify(rows.slice(0, -1)));
        }
        const headers = { ...r.headers, 'content-length': String(body.length) };
        res.writeHead(r.statusCode ?? 502, headers).end(body);
      });
    });
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const { token, storageUrl } = await v1Token(coffer);
  short = new RemoteNativeBackend({ auth: { type: 'token', token, storageUrl: storageUrl.replace(coffer.url, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`) }, backoffMs: 5 });
});
afterAll(async () => {
  short?.close();
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await coffer?.close();
});

it('lists every object and every container when the server answers short pages', async () => {
  // Seeded in the store itself: what is under test is the listing through the proxy.
  const { engine } = coffer.app;
  await engine.createContainer(ACCOUNT, 'many');
  const names = Array.from({ length: 1100 }, (_, i) => `o-${String(i).padStart(4, '0')}`);
  for (const n of names) await engine.putObject(Engine.ref(ACCOUNT, 'many'), n, Buffer.from('x'));
  for (const pageSize of [10, 1000, 10_000]) {
    expect(await allEntries(short.listFolder('many', { delimiter: '', pageSize })), `pageSize ${pageSize}`).toEqual(names);
  }
  // 1,000 containers (an account's most): one full answer, cut to 999.
  for (let i = 0; i < 999; i++) await engine.createContainer(ACCOUNT, `c-${String(i).padStart(4, '0')}`);
  expect((await short.listContainers()).length).toBe(1000);
});
