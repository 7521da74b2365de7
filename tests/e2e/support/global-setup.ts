// Starts the real thing for the browser tests: a store seeded through the engine, then
// `coffer serve --ui` on it (the built renderer at /_coffer/), on the port playwright.config.ts
// picked. The session token it prints reaches the workers through the environment.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 30_000;

function waitForToken(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`coffer serve did not print its UI URL within ${START_TIMEOUT_MS} ms:\n${out}${err}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Browser UI[^\n]*?: (http:\/\/\S+\/_coffer\/\?token=(\S+))/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[2]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`coffer serve exited with ${code}:\n${out}${err}`));
    });
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(join(root, 'dist/renderer/index.html'))) throw new Error('Build the renderer first: npm run test:e2e (runs npm run build)');
  const port = process.env.COFFER_E2E_PORT;
  if (!port) throw new Error('playwright.config.ts sets COFFER_E2E_PORT');
  const dir = mkdtempSync(join(tmpdir(), 'coffer-e2e-'));
  const data = join(dir, 'store');
  execFileSync(process.execPath, ['--import', 'tsx', 'tests/e2e/support/seed.ts', data], { cwd: root, stdio: 'inherit', timeout: 60_000 });
  const child = spawn(process.execPath, ['src-main/bin/coffer.mjs', 'serve', '--data', data, '--port', port, '--ui', '--quiet'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    process.env.COFFER_E2E_TOKEN = await waitForToken(child);
    // For specs that change the store the way another tool would (the coffer CLI on the same data).
    process.env.COFFER_E2E_DATA = data;
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
