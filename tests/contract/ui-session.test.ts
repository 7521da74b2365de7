// The browser build's session across restarts: one secret per data directory, private to its
// user, so the printed link, bookmarks and open tabs outlive the server; and a server that stops
// ends its event streams instead of waiting for the tabs to go.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';

let dir: string;
let staticDir: string;
const running: AppContext[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-ui-session-'));
  staticDir = join(dir, 'ui');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Coffer</title>');
});
afterEach(async () => {
  for (const ctx of running.splice(0)) await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<AppContext> {
  const ctx = await createAppContext({ dataDir: join(dir, 'store'), port: 0, ui: { staticDir } });
  running.push(ctx);
  return ctx;
}

async function stop(ctx: AppContext): Promise<void> {
  running.splice(running.indexOf(ctx), 1);
  await ctx.close();
}

async function cookieFrom(ctx: AppContext): Promise<string> {
  const res = await fetch(ctx.uiUrl!, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

const page = async (ctx: AppContext, cookie: string) => (await fetch(`${ctx.server.url}/_coffer/`, { headers: { Cookie: cookie } })).status;
const secretFile = () => join(dir, 'store', 'ui-session.key');

describe('the browser session outlives a restart', () => {
  it('prints the same link after a restart, and a tab opened before it stays signed in', async () => {
    const first = await start();
    const cookie = await cookieFrom(first);
    const link = new URL(first.uiUrl!).searchParams.get('token');
    await stop(first);

    const second = await start();
    expect(new URL(second.uiUrl!).searchParams.get('token')).toBe(link);
    expect(await page(second, cookie)).toBe(200);
    expect((statSync(secretFile()).mode & 0o777).toString(8)).toBe('600');
  });

  it('keeps the secret private: a file others could read is made 0600 again', async () => {
    await stop(await start());
    chmodSync(secretFile(), 0o644);
    await start();
    expect((statSync(secretFile()).mode & 0o777).toString(8)).toBe('600');
  });

  it('ends every session when the secret file is deleted, and replaces a damaged one', async () => {
    const first = await start();
    const cookie = await cookieFrom(first);
    await stop(first);
    rmSync(secretFile());
    const second = await start();
    expect(await page(second, cookie)).toBe(401);
    const fresh = await cookieFrom(second);
    await stop(second);
    writeFileSync(secretFile(), 'short');
    const third = await start();
    expect(await page(third, fresh)).toBe(401);
    expect(await page(third, await cookieFrom(third))).toBe(200);
  });
});

describe('a stopping server', () => {
  it('ends the event streams of open tabs and closes within its grace period', async () => {
    const ctx = await start();
    const cookie = await cookieFrom(ctx);
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const ended = new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: ctx.server.port, path: '/_coffer/events', headers: { Cookie: cookie } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          opened();
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    await open;
    const closing = stop(ctx);
    expect(await ended).toContain(': connected');
    await closing;
  });
});
