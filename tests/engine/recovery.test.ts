import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { IndexStore } from '../../src-main/engine/index/store.js';
import { bytes, openStore, readAll, sameBytes, tempDir } from './helpers.js';

describe('recovery', () => {
  it('removes unfinished temp files, uncommitted blobs and released blobs, and nothing else', async () => {
    const dir = tempDir();
    const s = await openStore({}, dir);
    await s.engine.createContainer(s.account, 'c');
    const data = bytes(100_000, 4);
    await s.engine.putObject(Engine.ref(s.account, 'c'), 'kept', data);
    await s.engine.close();

    // What a crash can leave: a half-written temp file, a placed blob whose commit never
    // happened ('put' intent), and a released blob not yet unlinked ('gc' intent).
    writeFileSync(join(dir, 'tmp', 'ab'.repeat(16)), 'partial');
    const uncommitted = 'cd'.repeat(16);
    const released = 'ef'.repeat(16);
    writeFileSync(join(dir, 'blobs', 'cd', uncommitted), 'never committed');
    writeFileSync(join(dir, 'blobs', 'ef', released), 'old bytes');
    const store = new IndexStore(join(dir, 'index'));
    await store.write(() => {
      store.intents.putSync(uncommitted, { kind: 'put', created: Date.now() });
      store.intents.putSync(released, { kind: 'gc', created: Date.now() });
    });
    await store.close();

    const engine = await Engine.open(dir, { expirySweepMs: 0 });
    expect(engine.recovery).toEqual({ tmpFilesRemoved: 1, uncommittedBlobsRemoved: 1, releasedBlobsRemoved: 1 });
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    expect(existsSync(join(dir, 'blobs', 'cd', uncommitted))).toBe(false);
    expect(existsSync(join(dir, 'blobs', 'ef', released))).toBe(false);
    const read = await engine.getObject(Engine.ref(s.account, 'c'), 'kept');
    expect(sameBytes(await readAll(read.body), data)).toBe(true);
    await engine.close();
    const again = await Engine.open(dir, { expirySweepMs: 0 });
    expect(again.recovery).toEqual({ tmpFilesRemoved: 0, uncommittedBlobsRemoved: 0, releasedBlobsRemoved: 0 });
    await again.close();
  });
});
