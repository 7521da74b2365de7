// The desktop app's previews: the coffer-object: scheme's handler, run under plain Node against a
// real app context (no Electron here), answering web Requests as Electron's protocol.handle
// passes them: ranges, inline and inert replies, CORS for the file: page, arguments checked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { BULK_BODY_BYTES, heapGrowthBounded } from '../../src-main/engine/index.js';
import { OBJECT_SCHEME, objectProtocolHandler } from '../../src-main/electron/object-protocol.js';

let dir: string;
let app: AppContext;
let handle: (r: Request) => Promise<Response>;
let account: string;
const BODY = Buffer.from('0123456789'.repeat(100));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-object-protocol-'));
  app = await createAppContext({ dataDir: join(dir, 'store'), port: 0, engine: { noSync: true } });
  account = `local:${app.localAccount.id}`;
  const backend = app.app.registry.backend(account);
  await backend.createContainer('media');
  await backend.upload('media', 'clip.wav', { stream: Readable.from([BODY]), size: BODY.length }, { contentType: 'audio/wav' });
  handle = objectProtocolHandler(app.objects);
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const url = (params: Record<string, string>, host = 'object') => `${OBJECT_SCHEME}://${host}/?${new URLSearchParams(params).toString()}`;

describe('the coffer-object: scheme', () => {
  it('serves a range as 206, inline, sandboxed and readable by the app page', async () => {
    const res = await handle(new Request(url({ account, container: 'media', name: 'clip.wav' }), { headers: { Range: 'bytes=10-19' } }));
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('0123456789');
  });

  it('answers a range past the end with 416, a preflight with what it allows', async () => {
    const past = await handle(new Request(url({ account, container: 'media', name: 'clip.wav' }), { headers: { Range: 'bytes=5000-' } }));
    expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */1000']);
    const preflight = await handle(new Request(url({ account, container: 'media', name: 'clip.wav' }), { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Range/);
  });

  it('refuses what the page cannot mean: missing or oversized arguments, another host, another method, an unknown connection', async () => {
    expect((await handle(new Request(url({ account, container: 'media' })))).status).toBe(400);
    expect((await handle(new Request(url({ account, container: 'media', name: 'x'.repeat(5000) })))).status).toBe(400);
    expect((await handle(new Request(url({ account, container: 'media', name: 'clip.wav' }, 'elsewhere')))).status).toBe(404);
    expect((await handle(new Request(url({ account, container: 'media', name: 'clip.wav' }), { method: 'DELETE' }))).status).toBe(405);
    const unknown = await handle(new Request(url({ account: 'nobody', container: 'media', name: 'clip.wav' })));
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(await unknown.json()).toHaveProperty('error');
    expect((await handle(new Request(url({ account, container: 'media', name: 'none.wav' })))).status).toBe(404);
  });

  it('lifts the bound on the heap growth while a large object streams to the page, and it is back once the page lets go', async () => {
    const until = async (check: () => boolean) => {
      for (const end = Date.now() + 3000; !check() && Date.now() < end; ) await sleep(20);
      return check();
    };
    const video = Buffer.alloc(4 * BULK_BODY_BYTES, 1);
    await app.app.registry.backend(account).upload('media', 'clip.mp4', { stream: Readable.from([video]), size: video.length }, { contentType: 'video/mp4' });
    expect(await until(heapGrowthBounded)).toBe(true);
    const res = await handle(new Request(url({ account, container: 'media', name: 'clip.mp4' })));
    expect(res.status).toBe(200);
    expect(heapGrowthBounded()).toBe(false);
    // The video element reads a little and seeks elsewhere: the stream is cancelled.
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(await until(heapGrowthBounded)).toBe(true);
    // A small one leaves it alone.
    const small = await handle(new Request(url({ account, container: 'media', name: 'clip.wav' })));
    expect(heapGrowthBounded()).toBe(true);
    expect(Buffer.from(await small.arrayBuffer()).equals(BODY)).toBe(true);
  });
});

