import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import type { RpcResult, Transport } from '../../src-shared/rpc/envelope.js';

export interface ContractEnv {
  ctx: AppContext;
  dir: string;
  /** Session cookie for the HTTP transport. */
  cookie: string;
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
  return {
    ctx,
    dir,
    cookie,
    async close() {
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The contract over HTTP as the browser build uses it (cookie session, same origin). */
export function httpTransport(env: ContractEnv): Transport {
  const base = `${env.ctx.server.url}/_coffer`;
  const headers = { 'Content-Type': 'application/json', Cookie: env.cookie, Origin: env.ctx.server.url };
  return {
    async call(method, arg) {
      const res = await fetch(`${base}/rpc`, { method: 'POST', headers, body: JSON.stringify({ method, arg }) });
      return (await res.json()) as RpcResult;
    },
    subscribe(event, listener) {
      const controller = new AbortController();
      void (async () => {
        const res = await fetch(`${base}/events`, { headers: { Cookie: env.cookie }, signal: controller.signal });
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const name = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (name === event && data) listener(JSON.parse(data));
          }
        }
      })().catch(() => undefined);
      return () => controller.abort();
    },
  };
}

/** What Electron IPC does to values: structured clone, which drops class identity (e.g. Errors). */
export function ipcShapedTransport(env: ContractEnv): Transport {
  const inner = env.ctx.rpc.asTransport();
  return {
    call: async (method, arg) => structuredClone(await inner.call(method, structuredClone(arg))),
    subscribe: (event, listener) => inner.subscribe(event, (p) => listener(structuredClone(p))),
  };
}
