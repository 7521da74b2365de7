// The browser build's object endpoint (/_coffer/download) as previews use it: byte ranges
// (206 with Content-Range, 416 past the end, several ranges answered whole), inline and inert
// for previews, and the same session and origin checks as every /_coffer request, through the
// local store, a remote S3 connection and a remote Swift connection (both to this very server).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { createClient } from '../../src-shared/rpc/client.js';

let dir: string;
let app: AppContext;
let cookie: string;
const connections: Record<string, string> = {};
const api = () => createClient(app.rpc.asTransport()).services;
const BODY = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const CONTAINER = 'ranges';
const NAME = 'clips/sample.bin';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-ui-ranges-'));
  const staticDir = join(dir, 'ui');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Coffer</title>');
  app = await createAppContext({ dataDir: join(dir, 'store'), port: 0, ui: { staticDir }, engine: { noSync: true } });
  cookie = ((await fetch(app.uiUrl!, { redirect: 'manual' })).headers.get('set-cookie') ?? '').split(';')[0]!;
  const far = await app.engine.createAccount({ id: 'far$away', swiftKeys: [{ sub: 'swift' }] });
  const url = app.server.url;
  connections.local = `local:${app.localAccount.id}`;
  connections.s3 = (await api().accounts.add({ name: 's3', config: { kind: 's3', endpoint: url, accessKeyId: far.keys[0]!.accessKey, secretAccessKey: far.keys[0]!.secretKey } })).id;
  connections.swift = (await api().accounts.add({ name: 'swift', config: { kind: 'swift', authUrl: `${url}/auth/1.0`, auth: { type: 'v1', user: far.swiftKeys[0]!.user, key: far.swiftKeys[0]!.secretKey } } })).id;
  for (const kind of ['local', 's3'] as const) {
    const backend = app.app.registry.backend(connections[kind]!);
    await backend.createContainer(CONTAINER);
    await backend.upload(CONTAINER, NAME, { stream: Readable.from([BODY]), size: BODY.length }, { contentType: 'application/octet-stream' });
    await backend.upload(CONTAINER, 'art/logo.svg', { stream: Readable.from([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')]) }, { contentType: 'application/octet-stream' });
  }
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

function objectUrl(account: string, name = NAME, extra: Record<string, string> = {}): string {
  return `${app.server.url}/_coffer/download?${new URLSearchParams({ account, container: CONTAINER, name, ...extra }).toString()}`;
}

/** fetch() sets Host itself; node:http sends the one given. */
function statusWithHost(url: string, host: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject).end();
  });
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers: { Cookie: cookie, ...headers } });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

// The remote Swift connection reads the far account, where the S3 connection stored the objects.
describe.each(['local', 's3', 'swift'])('object ranges through the %s backend', (kind) => {
  const account = () => connections[kind]!;

  it('serves one range as 206 with its Content-Range, and says it takes ranges', async () => {
    const res = await get(objectUrl(account()), { Range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('content-length')).toBe('100');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(await bytes(res)).toEqual(BODY.subarray(100, 200));
  });

  it('serves an open range to the end and a suffix range', async () => {
    const open = await get(objectUrl(account()), { Range: 'bytes=990-' });
    expect([open.status, open.headers.get('content-range')]).toEqual([206, 'bytes 990-999/1000']);
    expect(await bytes(open)).toEqual(BODY.subarray(990));
    const suffix = await get(objectUrl(account()), { Range: 'bytes=-5' });
    expect([suffix.status, suffix.headers.get('content-range')]).toEqual([206, 'bytes 995-999/1000']);
    expect(await bytes(suffix)).toEqual(BODY.subarray(995));
  });

  it('answers a range past the end with 416 and the size, and a range of a missing object 404', async () => {
    const res = await get(objectUrl(account()), { Range: 'bytes=1000-' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
    expect(await res.json()).toMatchObject({ code: 'InvalidRange' });
    const missing = await get(objectUrl(account(), 'clips/none.bin'), { Range: 'bytes=0-9' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NoSuchKey' });
  });
});

describe('ranges a preview never asks for', () => {
  it('answers several ranges with the whole object, and ranges that overlap as the one they make', async () => {
    const several = await get(objectUrl(connections.local!), { Range: 'bytes=0-9,500-509' });
    expect(several.status).toBe(200);
    expect(several.headers.get('content-range')).toBeNull();
    expect(await bytes(several)).toEqual(BODY);
    const overlapping = await get(objectUrl(connections.local!), { Range: 'bytes=0-9,5-19' });
    expect([overlapping.status, overlapping.headers.get('content-range')]).toEqual([206, 'bytes 0-19/1000']);
  });

  it('ignores a malformed range or another unit, and a range whose If-Range names another version', async () => {
    for (const range of ['bytes=abc', 'items=0-9']) {
      const res = await get(objectUrl(connections.local!), { Range: range });
      expect(res.status, range).toBe(200);
      expect((await bytes(res)).length, range).toBe(1000);
    }
    const current = await get(objectUrl(connections.local!), { Range: 'bytes=0-0' });
    const etag = current.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await get(objectUrl(connections.local!), { Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
    const stale = await get(objectUrl(connections.local!), { Range: 'bytes=0-9', 'If-Range': '"0123456789abcdef0123456789abcdef"' });
    expect(stale.status).toBe(200);
    expect((await bytes(stale)).length).toBe(1000);
  });
});

describe('previews are inline and inert', () => {
  it('a preview is inline, sandboxed without scripts, and may be framed by the app only', async () => {
    const res = await get(objectUrl(connections.local!, NAME, { inline: '1' }), { Range: 'bytes=0-9' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="sample.bin"; filename*=UTF-8''sample.bin`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp.split(';').map((d) => d.trim())).toEqual(expect.arrayContaining(['sandbox', "default-src 'none'", "frame-ancestors 'self'"]));
    expect(csp).not.toMatch(/script-src/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a preview of an object stored without a type is served as its name says; a download keeps the stored type', async () => {
    const preview = await get(objectUrl(connections.local!, 'art/logo.svg', { inline: '1' }));
    expect(preview.headers.get('content-type')).toBe('image/svg+xml');
    const download = await get(objectUrl(connections.local!, 'art/logo.svg'));
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
  });
});

describe('a range needs the session like any /_coffer request', () => {
  it('serves the range with the session, and refuses it without one, from another site or another host name', async () => {
    const url = objectUrl(connections.local!);
    expect((await get(url, { Range: 'bytes=0-9' })).status).toBe(206);
    const anonymous = await fetch(url, { headers: { Range: 'bytes=0-9' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-range')).toBeNull();
    expect((await get(url, { Range: 'bytes=0-9', Origin: 'http://evil.example' })).status).toBe(403);
    // DNS rebinding: a page on another name that resolves here still sends its own Host.
    expect(await statusWithHost(url, 'evil.example', { Cookie: cookie, Range: 'bytes=0-9' })).toBe(403);
  });
});
