// No whole-file buffering: a ~200 MiB object goes up (multipart, from a generated stream) and
// comes back down through the remote S3 backend while this process's RSS stays far below its
// size. The server runs as its own process (`coffer serve`), so only the backend is measured.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RemoteS3Backend } from '../../src-main/backends/remote-compat.js';
import { Engine } from '../../src-main/engine/index.js';
import { ALICE } from '../compat/server.js';
import { containerName, generatedStream } from './helpers.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SIZE = 200 * 1024 * 1024;
const MiB = 1024 * 1024;

let dataDir: string;
let child: ChildProcess | undefined;
let url: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'coffer-memory-'));
  const engine = await Engine.open(dataDir, { noSync: true, expirySweepMs: 0 });
  await engine.createAccount({ id: ALICE.account, keys: [{ accessKey: ALICE.accessKey, secretKey: ALICE.secretKey }] });
  await engine.close();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', 'serve', '--data', dataDir, '--port', '0', '--quiet'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`coffer serve did not start: ${out}`)), 40_000);
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code) => reject(new Error(`coffer serve exited with ${code}: ${out}`)));
  });
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Samples RSS while `work` runs; returns the largest growth over the starting level. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

it('uploads and downloads 200 MiB with RSS growth well below the object size', async () => {
  const backend = new RemoteS3Backend({ endpoint: url, region: 'us-east-1', accessKeyId: ALICE.accessKey, secretAccessKey: ALICE.secretKey, forcePathStyle: true });
  try {
    const c = containerName('memory');
    await backend.createContainer(c);
    let sentDigest = '';
    const up = await peakRssGrowth(async () => {
      const d = await backend.upload(c, 'big.bin', { stream: generatedStream(SIZE, (hex) => (sentDigest = hex)) });
      expect(d.size).toBe(SIZE);
      expect(d.etag).toMatch(/-\d+$/);
    });
    let received = 0;
    const hash = createHash('sha256');
    const down = await peakRssGrowth(async () => {
      const { body } = await backend.download(c, 'big.bin');
      for await (const chunk of body) {
        received += (chunk as Buffer).length;
        hash.update(chunk as Buffer);
      }
    });
    expect(received).toBe(SIZE);
    expect(hash.digest('hex')).toBe(sentDigest);
    console.log(`RSS growth for ${SIZE / MiB} MiB: upload ${(up / MiB).toFixed(1)} MiB, download ${(down / MiB).toFixed(1)} MiB`);
    expect(up).toBeLessThan(100 * MiB);
    expect(down).toBeLessThan(100 * MiB);
  } finally {
    backend.close();
  }
});
