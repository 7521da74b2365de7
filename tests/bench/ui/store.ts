// The UI benchmark's store and server: a container seeded straight through the engine, then the
// real `coffer serve --ui` on it, serving the built renderer (dist/renderer).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../../src-main/engine/index.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The account `coffer serve` adopts as its local store (it takes the first one it finds). */
const ACCOUNT = 'coffer$admin';

export interface BenchFolder {
  /** Folder name as the grid shows it at the container's top level. */
  label: string;
  count: number;
  /** Object labels (relative to the folder) of the first and last entries, in listing order. */
  first: string;
  last: string;
}

const objectLabel = (i: number) => `obj-${String(i).padStart(6, '0')}.txt`;

export function benchFolder(label: string, count: number): BenchFolder {
  return { label, count, first: objectLabel(0), last: objectLabel(count - 1) };
}

/**
 * Writes every folder into one container. noSync: a throwaway store written as fast as the
 * engine goes; the server reopens it with the normal, durable options. Bodies are small (inline
 * in the index), sized 0..99 bytes so the size column varies.
 */
export async function seed(dataDir: string, container: string, folders: BenchFolder[], log: (m: string) => void): Promise<{ objects: number; seconds: number }> {
  const t0 = performance.now();
  const engine = await Engine.open(dataDir, { noSync: true, expirySweepMs: 0 });
  let objects = 0;
  try {
    await engine.createAccount({ id: ACCOUNT, displayName: 'Coffer admin', swiftKeys: [{ sub: 'swift' }] });
    await engine.createContainer(ACCOUNT, container);
    const ref = Engine.ref(ACCOUNT, container);
    for (const f of folders) {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < f.count; i++) {
        writes.push(engine.putObject(ref, `${f.label}/${objectLabel(i)}`, 'x'.repeat(i % 100), { contentType: 'text/plain' }));
        if (writes.length >= 500) await Promise.all(writes.splice(0));
        if (i > 0 && i % 20_000 === 0) log(`seed: ${f.label} ${i}/${f.count}`);
      }
      await Promise.all(writes);
      objects += f.count;
    }
  } finally {
    await engine.close();
  }
  return { objects, seconds: (performance.now() - t0) / 1000 };
}

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Makes sure dist/renderer matches the sources: BENCH_UI_BUILD=auto (default) builds when it is
 * missing or older than any renderer input, always builds every time, never uses what is there
 * (and says so when it is older than its sources).
 */
export function ensureRendererBuilt(log: (m: string) => void): { built: boolean; reason: string } {
  const index = join(ROOT, 'dist/renderer/index.html');
  const mode = process.env.BENCH_UI_BUILD ?? 'auto';
  const inputs = ['src-renderer', 'src-shared', 'vite.config.ts'].map((p) => join(ROOT, p));
  let reason: string;
  if (!existsSync(index)) reason = 'dist/renderer missing';
  else if (mode === 'always') reason = 'BENCH_UI_BUILD=always';
  else if (Math.max(...inputs.map(newestMtime)) > statSync(index).mtimeMs) reason = 'dist/renderer older than its sources';
  else return { built: false, reason: 'dist/renderer up to date' };
  if (mode === 'never') {
    if (!existsSync(index)) throw new Error(`${reason} and BENCH_UI_BUILD=never: run npm run build`);
    return { built: false, reason: `${reason}, used as is (BENCH_UI_BUILD=never)` };
  }
  log(`build: ${reason}: vite build`);
  // Only the renderer: `coffer serve` runs the main process's TypeScript through tsx.
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: ['ignore', 2, 2], timeout: 180_000 });
  return { built: true, reason };
}

export { freePort } from '../http/servers.js';

export interface Served {
  child: ChildProcess;
  /** The browser UI URL with its session token. */
  url: string;
}

/** Starts `coffer serve --ui` and reads the session URL it prints. */
export function serve(dataDir: string, port: number, timeoutMs = 30_000): Promise<Served> {
  const child = spawn(process.execPath, ['src-main/bin/coffer.mjs', 'serve', '--data', dataDir, '--port', String(port), '--ui', '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = (err: Error) => {
      clearTimeout(timer);
      void stop(child);
      reject(err);
    };
    const timer = setTimeout(() => fail(new Error(`coffer serve printed no UI URL within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Browser UI[^\n]*?: (http:\/\/\S+\/_coffer\/\?token=\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => fail(new Error(`coffer serve exited with ${code}:\n${out}`)));
  });
}

/** SIGTERM, then SIGKILL after 5 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
