import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { manifestDocument } from '../../src-main/engine/ops/large-objects.js';
import { bytes, codeOf, openStore, readAll, type TestStore } from './helpers.js';

let t: TestStore;
const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
const ref = (c: string) => Engine.ref('test$tester', c);
// Small inline limit: segments mix inline and blob-backed storage.
beforeEach(async () => {
  t = await openStore({ inlineMax: 16, noSync: true });
  await t.engine.createContainer(t.account, 'c');
  await t.engine.createContainer(t.account, 'segs');
});
afterEach(() => t.close());

async function segments(sizes: number[], prefix = 's'): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const [i, n] of sizes.entries()) {
    const b = bytes(n, i + 1);
    await t.engine.putObject(ref('segs'), `${prefix}${String(i).padStart(3, '0')}`, b);
    out.push(b);
  }
  return out;
}

const specs = (n: number, prefix = 's') => Array.from({ length: n }, (_, i) => ({ container: 'segs', name: `${prefix}${String(i).padStart(3, '0')}` }));

describe('engine: static large objects', () => {
  it('reads every range of the joined segments exactly', async () => {
    const parts = await segments([5, 1, 40, 16, 17, 3]);
    const whole = Buffer.concat(parts);
    const info = await t.engine.putStaticLargeObject(ref('c'), 'slo', specs(parts.length));
    expect(info.size).toBe(whole.length);
    expect(info.etag).toBe(md5(parts.map(md5).join('')));
    expect(info.manifest).toEqual({ kind: 'slo', segments: 6 });
    for (let start = 0; start < whole.length; start += 3) {
      for (let end = start; end < whole.length + 2; end += 5) {
        const read = await t.engine.getObject(ref('c'), 'slo', { range: { start, end } });
        expect((await readAll(read.body)).equals(whole.subarray(start, end + 1))).toBe(true);
      }
    }
    const suffix = await t.engine.getObject(ref('c'), 'slo', { range: { suffix: 20 } });
    expect((await readAll(suffix.body)).equals(whole.subarray(whole.length - 20))).toBe(true);
  });

  it('counts the manifest at its document\'s bytes in bytes used (as Swift), its stored bytes as none; the segments where they live', async () => {
    const parts = await segments([100, 200]);
    const before = t.engine.getContainer(ref('c')).usage;
    await t.engine.putStaticLargeObject(ref('c'), 'slo', specs(2));
    const document = Buffer.byteLength(manifestDocument(t.engine.getStaticManifest(ref('c'), 'slo')!.segments));
    expect(document).toBeGreaterThan(200);
    expect(t.engine.getContainer(ref('c')).usage).toEqual({ ...before, objects: before.objects + 1, bytes: before.bytes + document, current: before.current! + 1 });
    expect(t.engine.getAccount(t.account).usage.bytes).toBe(parts[0]!.length + parts[1]!.length + document);
    // Replaced by a plain object: the manifest's count goes, the new object's comes.
    await t.engine.putObject(ref('c'), 'slo', Buffer.from('tiny'));
    expect(t.engine.getContainer(ref('c')).usage).toEqual({ objects: before.objects + 1, bytes: before.bytes + 4, bytesActual: before.bytesActual + 4096, current: before.current! + 1 });
    await t.engine.deleteObject(ref('c'), 'slo');
    expect(t.engine.getContainer(ref('c')).usage).toEqual(before);
  });

  it('keeps the manifest through a metadata update', async () => {
    await segments([30, 30]);
    await t.engine.putStaticLargeObject(ref('c'), 'slo', specs(2), { meta: { a: '1' } });
    await t.engine.updateObjectMeta(ref('c'), 'slo', { meta: { b: '2' } });
    const info = t.engine.headObject(ref('c'), 'slo');
    expect([info.size, info.manifest?.kind, info.meta]).toEqual([60, 'slo', { b: '2' }]);
  });

  it('refuses segments that are missing, mismatched or too small, naming each', async () => {
    await segments([10, 0, 10]);
    const err = await t.engine
      .putStaticLargeObject(ref('c'), 'bad', [
        { container: 'segs', name: 's001' },
        { container: 'segs', name: 's000', etag: 'x', size: 11 },
        { container: 'segs', name: 'nope' },
        { container: 'nocontainer', name: 'x' },
      ])
      .catch((e: { details: unknown }) => e.details);
    expect(err).toEqual({
      sloProblems: [
        { path: '/segs/s001', problem: 'too-small' },
        { path: '/segs/s000', problem: 'size-mismatch' },
        { path: '/segs/s000', problem: 'etag-mismatch' },
        { path: '/segs/nope', problem: 'not-found' },
        { path: '/nocontainer/x', problem: 'not-found' },
      ],
    });
    // An empty list is an empty object, as Swift 2.30 stores it (201, the MD5 of nothing).
    expect(await t.engine.putStaticLargeObject(ref('c'), 'empty', [])).toMatchObject({ size: 0, etag: md5('') });
    expect(await codeOf(() => t.engine.putStaticLargeObject(ref('c'), 'bad', specs(1), { expectedEtag: md5('x') }))).toBe('BadDigest');
  });

  it('fails the read when a segment was replaced since', async () => {
    await segments([20, 20]);
    await t.engine.putStaticLargeObject(ref('c'), 'slo', specs(2));
    await t.engine.putObject(ref('segs'), 's000', bytes(20, 99));
    expect(await codeOf(() => t.engine.getObject(ref('c'), 'slo'))).toBe('BrokenLargeObject');
    // A later segment fails the stream, not the call.
    await t.engine.putObject(ref('segs'), 's000', bytes(20, 1));
    await t.engine.putObject(ref('segs'), 's001', bytes(20, 99));
    const read = await t.engine.getObject(ref('c'), 'slo');
    await expect(readAll(read.body)).rejects.toMatchObject({ code: 'BrokenLargeObject' });
  });

  it('deletes an SLO with its segments (nested SLOs included)', async () => {
    await segments([20, 20, 20]);
    await t.engine.putStaticLargeObject(ref('segs'), 'inner', specs(2));
    await t.engine.putStaticLargeObject(ref('c'), 'outer', [{ container: 'segs', name: 'inner' }, { container: 'segs', name: 's002' }]);
    const read = await t.engine.getObject(ref('c'), 'outer', { range: { start: 15, end: 45 } });
    expect((await readAll(read.body)).length).toBe(31);
    const report = await t.engine.deleteStaticLargeObject(ref('c'), 'outer');
    expect(report).toEqual({ deleted: 5, notFound: 0, errors: [] });
    expect(t.engine.listObjects(ref('segs')).entries).toEqual([]);
  });
});

describe('engine: dynamic large objects', () => {
  it('joins the prefix listing in name order, sized and tagged as it is now', async () => {
    const parts = await segments([7, 30, 2], 'p/');
    await t.engine.putObject(ref('segs'), 'q/other', 'not part');
    const info = await t.engine.putDynamicLargeObject(ref('c'), 'dlo', '', { container: 'segs', prefix: 'p/' });
    expect([info.size, info.etag]).toEqual([0, md5('')]);
    const head = t.engine.headObject(ref('c'), 'dlo');
    expect([head.size, head.etag]).toEqual([39, md5(parts.map(md5).join(''))]);
    const read = await t.engine.getObject(ref('c'), 'dlo', { range: { start: 5, end: 38 } });
    expect((await readAll(read.body)).equals(Buffer.concat(parts).subarray(5, 39))).toBe(true);
    const raw = await t.engine.getManifestBytes(ref('c'), 'dlo');
    expect((await readAll(raw.body)).length).toBe(0);
  });
});

describe('engine: reads', () => {
  it.skipIf(process.platform !== 'linux')('a body destroyed before it is read releases its files (HEAD)', async () => {
    await segments([1000]);
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 40; i++) (await t.engine.getObject(ref('segs'), 's000')).body.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(open() - before).toBeLessThan(10);
  });
});
