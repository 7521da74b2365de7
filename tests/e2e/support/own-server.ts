// A store of a spec's own, for specs that change what every other spec relies on (which local
// account the app shows) or that stop and start a server: seeded like the shared one (small:
// without the 3,000-object folder), served by the real `coffer serve --ui` on a free loopback
// port, and stopped, restarted or removed by the spec.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

export interface OwnServer {
  /** http://127.0.0.1:PORT */
  base: string;
  /** The printed UI URL, with its session token. */
  uiUrl: string;
  data: string;
  stop(): Promise<void>;
  /** Stops it and serves the same data again (same port). */
  restart(): Promise<void>;
  /** Stops it and deletes its data. */
  dispose(): Promise<void>;
}

function serve(data: string, port: number): Promise<{ child: ChildProcess; uiUrl: string }> {
  const child = spawn(process.execPath, ['src-main/bin/coffer.mjs', 'serve', '--data', data, '--port', String(port), '--ui', '--quiet'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`coffer serve did not start within ${START_TIMEOUT_MS} ms:\n${out}`));
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Browser UI[^\n]*?: (http:\/\/\S+\/_coffer\/\?token=\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, uiUrl: match[1]! });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`coffer serve exited with ${code}:\n${out}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // An open event stream can keep it serving a while; the data is safe either way.
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

export async function startOwnServer(): Promise<OwnServer> {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-e2e-own-'));
  const data = join(dir, 'store');
  execFileSync(process.execPath, ['--import', 'tsx', 'tests/e2e/support/seed.ts', data], { cwd: root, stdio: 'inherit', timeout: 60_000, env: { ...process.env, COFFER_SEED_SMALL: '1' } });
  const port = await freePort();
  let running = await serve(data, port);
  const server: OwnServer = {
    base: `http://127.0.0.1:${port}`,
    uiUrl: running.uiUrl,
    data,
    stop: () => stopChild(running.child),
    async restart() {
      await stopChild(running.child);
      running = await serve(data, port);
      server.uiUrl = running.uiUrl;
    },
    async dispose() {
      await stopChild(running.child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Opens the app of a server of its own (its session cookie comes with the URL). */
export async function openApp(page: Page, server: OwnServer): Promise<void> {
  await page.goto(server.uiUrl);
  await expect(page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: /Local store/ })).toBeVisible();
}

/**
 * The contract of a server of its own, as the renderer calls it, with the session of `request`
 * (a page's, or a context of its own: cookies ignore ports, so two servers on 127.0.0.1 cannot
 * share one browser context).
 */
export async function rpcAt<T = unknown>(request: APIRequestContext, server: OwnServer, method: string, arg: unknown): Promise<T> {
  const res = await request.post(`${server.base}/_coffer/rpc`, { data: { method, arg } });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
  if (!body.ok) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.value;
}
