import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src-main/engine/engine.js';
import type { EngineOptions } from '../../src-main/engine/context.js';

export interface TestStore {
  engine: Engine;
  dir: string;
  account: string;
  close(): Promise<void>;
}

export function tempDir(label = 'coffer-test-'): string {
  return mkdtempSync(join(tmpdir(), label));
}

/** An engine on a fresh data directory with one account `test$tester`. */
export async function openStore(options: Partial<EngineOptions> = {}, dir = tempDir()): Promise<TestStore> {
  const engine = await Engine.open(dir, { expirySweepMs: 0, ...options });
  const account = 'test$tester';
  if (!engine.findAccount(account)) await engine.createAccount({ id: account, displayName: 'Tester' });
  return {
    engine,
    dir,
    account,
    async close() {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

export function bytes(n: number, seed = 1): Buffer {
  const b = Buffer.allocUnsafe(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

export async function* chunked(buf: Buffer, size = 64 * 1024): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

/** Runs `fn` (sync or async) and returns the CofferError code it failed with, or 'ok'. */
export async function codeOf(fn: () => unknown): Promise<string> {
  try {
    await fn();
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && a.equals(b);
}
