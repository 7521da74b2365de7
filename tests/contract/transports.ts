import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { Transport } from '../../src-shared/rpc/envelope.js';
import { httpTransport as shippedHttpTransport } from '../../src-renderer/api/transport.js';
import { page, type Page } from './page.js';

export interface ContractEnv {
  ctx: AppContext;
  dir: string;
  /** Session cookie for the HTTP transport. */
  cookie: string;
  /** The stand-in pages the HTTP transports run in, closed (their event streams) before the app. */
  pages: Page[];
  close(): Promise<void>;
}

/** A real app (engine, services, server with the browser build) on a temp dir. */
export async function startApp(): Promise<ContractEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-contract-'));
  const staticDir = join(dir, 'ui');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Coffer</title>');
  const ctx = await createAppContext({ dataDir: join(dir, 'store'), port: 0, ui: { staticDir } });
  const res = await fetch(ctx.uiUrl!, { redirect: 'manual' });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const pages: Page[] = [];
  return {
    ctx,
    dir,
    cookie,
    pages,
    async close() {
      for (const tab of pages) tab.close();
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The contract over HTTP through the browser build's own transport (src-renderer/api/transport.ts),
 * run by a stand-in for its page: the page's fetch and EventSource, with the session cookie.
 */
export function httpTransport(env: ContractEnv): Transport {
  const tab = page(env.ctx.server.url, env.cookie);
  env.pages.push(tab);
  return shippedHttpTransport('/_coffer', tab);
}

/** What Electron IPC does to values: structured clone, which drops class identity (e.g. Errors). */
export function ipcShapedTransport(env: ContractEnv): Transport {
  const inner = env.ctx.rpc.asTransport();
  return {
    call: async (method, arg) => structuredClone(await inner.call(method, structuredClone(arg))),
    subscribe: (event, listener) => inner.subscribe(event, (p) => listener(structuredClone(p))),
  };
}
