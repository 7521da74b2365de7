// What a folder download as a zip holds (the browser build's "Download…" of folders): objects by
// leaf name, folders as folders, hostile names made safe for any unzip, names taken twice numbered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalBackend } from '../../src-main/backends/local.js';
import { Engine } from '../../src-main/engine/index.js';
import { zipEntries } from '../../src-main/services/zip-selection.js';

let dir: string;
let engine: Engine;
let backend: LocalBackend;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-zip-'));
  engine = await Engine.open(dir, { noSync: true, expirySweepMs: 0 });
  await engine.createAccount({ id: 't$zip' });
  backend = new LocalBackend(engine, 't$zip', { endpoint: 'http://127.0.0.1:1' });
  await backend.createContainer('z');
  const ref = Engine.ref('t$zip', 'z');
  for (const name of ['top.txt', 'f/a.txt', 'f/sub/b.txt', 'f/', 'f/../../escape.txt', 'f//double.txt', 'f/con:x?.txt', 'f/A.txt', 'g/a.txt']) {
    await engine.putObject(ref, name, name);
  }
});
afterAll(async () => {
  backend?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('lays out a selection as the desktop app writes it to a folder, with every path safe to unzip', async () => {
  const got: Record<string, string> = {};
  for await (const e of zipEntries(backend, { container: 'z', names: ['top.txt', 'g/a.txt'], prefixes: ['f/'] })) {
    const chunks: Buffer[] = [];
    for await (const c of await e.open()) chunks.push(c as Buffer);
    got[e.path] = Buffer.concat(chunks).toString();
    expect(e.size).toBe(chunks.reduce((n, c) => n + c.length, 0));
  }
  expect(got).toEqual({
    'top.txt': 'top.txt',
    'a.txt': 'g/a.txt',
    // Names that would leave the archive's folder or that no file system takes are rewritten.
    'f/_/_/escape.txt': 'f/../../escape.txt',
    'f/double.txt': 'f//double.txt',
    // Taken twice once case is ignored (macOS, Windows): the second in listing order is numbered.
    'f/A.txt': 'f/A.txt',
    'f/a (2).txt': 'f/a.txt',
    'f/con_x_.txt': 'f/con:x?.txt',
    'f/sub/b.txt': 'f/sub/b.txt',
  });
});
