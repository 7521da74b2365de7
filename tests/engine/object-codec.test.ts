/**
 * The stored form of object records (schema 3 on): every field survives the round trip, listings
 * read the same values from the head alone, and a schema 2 store (plain msgpack maps) opens,
 * reads exactly as before and is upgraded in place.
 */
import { open } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineContext } from '../../src-main/engine/context.js';
import { Engine } from '../../src-main/engine/engine.js';
import { decodeListedRecord, decodeObjectRecord, encodeObjectRecord } from '../../src-main/engine/index/object-codec.js';
import { SCHEMA_VERSION } from '../../src-main/engine/index/store.js';
import type { ObjectRecord } from '../../src-main/engine/types.js';
import { bytes, codeOf, openStore, readAll, type TestStore } from './helpers.js';
import { Packr } from 'msgpackr';

const base: ObjectRecord = {
  versionId: null,
  seq: 7,
  size: 4096,
  etag: 'd41d8cd98f00b204e9800998ecf8427e',
  mtime: 1_795_329_002_538_024,
  contentType: 'application/octet-stream',
  headers: {},
  meta: {},
  data: { inline: 'a56a112cd102b760037ba77fc1ebd3d7' },
};

const records: [string, ObjectRecord][] = [
  ['a plain inline object', base],
  ['an inline object with its last bytes in the record', { ...base, data: { inline: 'a56a112cd102b760037ba77fc1ebd3d7', tail: Buffer.from('last twenty-four bytes!!') } }],
  ['metadata, headers, checksums, a version id, a unicode type', { ...base, versionId: 'v1', contentType: 'text/plain; name="é—✓"', meta: { colour: 'blue' }, headers: { cacheControl: 'no-cache' } as ObjectRecord['headers'], checksums: { crc32: 'AAAAAA==' }, publicRead: true }],
  ['a delete marker', { ...base, size: 0, etag: '', deleteMarker: true, data: { segments: [] } }],
  ['an expiring multipart object', { ...base, size: 12 * 2 ** 40, etag: '0123456789abcdef0123456789abcdef-10000', deleteAt: 1_900_000_000, parts: 10000, data: { segments: [{ blob: 'b1', size: 5 }] } }],
  ['an SLO manifest (size 0, listed with its assembled size)', { ...base, size: 0, manifest: { kind: 'slo', size: 123456, segments: [{ container: 's', name: 'x', etag: 'e', size: 123456 }] } as ObjectRecord['manifest'] }],
  ['a DLO manifest', { ...base, size: 0, manifest: { kind: 'dlo', container: 'segs', prefix: 'p/' } }],
  ['a static symlink (its target in the head)', { ...base, size: 0, contentType: 'text/plain', link: { account: 'AUTH_bob', container: 'c', object: 'é/✓', etag: 'e', bytes: 5 } }],
];

describe('object record codec', () => {
  it.each(records)('%s: decodes to exactly what was encoded', (_, rec) => {
    const encoded = encodeObjectRecord(rec);
    expect(decodeObjectRecord(encoded)).toEqual(rec);
    // lmdb-js decodes from a larger shared buffer, passing the value's end.
    const shared = Buffer.concat([encoded, Buffer.alloc(50, 0xee)]);
    expect(decodeObjectRecord(shared, encoded.length)).toEqual(rec);
    // Its `get` passes its options object instead of an end.
    expect(decodeObjectRecord(encoded, { transaction: undefined })).toEqual(rec);
  });

  it.each(records)('%s: the listing view matches the full record', (_, rec) => {
    const listed = decodeListedRecord(encodeObjectRecord(rec));
    const expected = {
      size: rec.manifest?.kind === 'slo' ? rec.manifest.size : rec.size,
      etag: rec.etag,
      mtime: rec.mtime,
      contentType: rec.contentType,
      ...(rec.deleteMarker ? { deleteMarker: true } : {}),
      ...(rec.deleteAt !== undefined ? { deleteAt: rec.deleteAt } : {}),
      ...(rec.link ? { link: rec.link } : {}),
    };
    expect(listed).toMatchObject(expected);
    // Schema 2 values (plain msgpack maps) read the same way.
    const old = new Packr({ useRecords: false }).pack(rec);
    expect(decodeObjectRecord(old)).toEqual(rec);
    expect(decodeListedRecord(old)).toEqual(expected);
  });
});

describe('a schema 2 store', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** Rewrites every object record of the closed store at `dir` as schema 2 did, and marks it schema 2. */
  async function downgrade(dir: string): Promise<number> {
    const root = open({ path: `${dir}/index`, maxDbs: 16, useRecords: false, mapsAsObjects: true } as Parameters<typeof open>[0]);
    let rewritten = 0;
    for (const table of ['objects', 'versions']) {
      const raw = root.openDB({ name: table, keyEncoding: 'binary', encoding: 'binary' });
      const plain = root.openDB({ name: table, keyEncoding: 'binary' });
      const entries = [...raw.getRange({})].map(({ key, value }) => ({ key, rec: decodeObjectRecord(value) }));
      await root.transaction(() => {
        for (const { key, rec } of entries) plain.putSync(key, rec);
      });
      rewritten += entries.length;
    }
    await root.openDB({ name: 'meta' }).put('schema', 2);
    await root.close();
    return rewritten;
  }

  it('reads objects, versions and listings exactly as before, then is upgraded to the current schema', async () => {
    t = await openStore();
    const e = t.engine;
    for (const c of ['c', 'v', 'segs']) await e.createContainer(t.account, c);
    await e.updateContainer(Engine.ref(t.account, 'v'), { versioning: 'enabled' });
    const ref = (c: string) => Engine.ref(t!.account, c);
    await e.putObject(ref('c'), 'small.txt', 'hello', { meta: { a: 'b' }, contentType: 'text/plain' });
    await e.putObject(ref('c'), 'file.bin', bytes(100_000), { deleteAt: Math.floor(Date.now() / 1000) + 3600 });
    await e.putObject(ref('segs'), 's1', bytes(10, 1));
    await e.putObject(ref('segs'), 's2', bytes(20, 2));
    await e.putStaticLargeObject(ref('c'), 'slo', [{ container: 'segs', name: 's1' }, { container: 'segs', name: 's2' }]);
    await e.putObject(ref('v'), 'doc', 'one');
    await e.putObject(ref('v'), 'doc', 'two');
    await e.deleteObject(ref('v'), 'doc');

    const snapshot = async () => ({
      listing: e.listObjects(ref('c')).entries,
      versions: e.listVersions(ref('v')).entries,
      heads: ['small.txt', 'file.bin', 'slo'].map((n) => e.headObject(ref('c'), n)),
      body: (await readAll((await e.getObject(ref('c'), 'slo')).body)).toString('hex'),
    });
    const before = await snapshot();
    const dir = t.dir;
    await e.close();

    expect(await downgrade(dir)).toBeGreaterThanOrEqual(7);
    const reopened = await Engine.open(dir, { expirySweepMs: 0 });
    t = { ...t, engine: reopened };
    const after = await (async () => {
      const r = (c: string) => Engine.ref(t!.account, c);
      return {
        listing: reopened.listObjects(r('c')).entries,
        versions: reopened.listVersions(r('v')).entries,
        heads: ['small.txt', 'file.bin', 'slo'].map((n) => reopened.headObject(r('c'), n)),
        body: (await readAll((await reopened.getObject(r('c'), 'slo')).body)).toString('hex'),
      };
    })();
    expect(after).toEqual(before);
    const ctx = (reopened as unknown as { ctx: EngineContext }).ctx;
    expect(ctx.store.meta.get('schema')).toBe(SCHEMA_VERSION);
    // Through lmdb-js's own read paths: plain get, get with options, and ranges agree.
    for (const { key, value } of ctx.store.objects.getRange({})) {
      expect(ctx.store.objects.get(key)).toEqual(value);
      expect(ctx.store.objects.get(key, {})).toEqual(value);
    }
    // Old and new records side by side: overwrite one, add one.
    await reopened.putObject(Engine.ref(t.account, 'c'), 'small.txt', 'hello again');
    await reopened.putObject(Engine.ref(t.account, 'c'), 'new.txt', 'new');
    expect(reopened.listObjects(Engine.ref(t.account, 'c')).entries.map((x) => x.kind === 'object' && [x.name, x.object.size])).toEqual([
      ['file.bin', 100_000],
      ['new.txt', 3],
      ['slo', 30],
      ['small.txt', 11],
    ]);
  });

  it('a store of a newer schema is refused, not misread', async () => {
    t = await openStore();
    const dir = t.dir;
    await t.engine.close();
    const root = open({ path: `${dir}/index`, maxDbs: 16 });
    await root.openDB({ name: 'meta' }).put('schema', SCHEMA_VERSION + 1);
    await root.close();
    expect(await codeOf(() => Engine.open(dir))).toBe('InternalError');
    t = { ...t, engine: { close: async () => undefined } as unknown as Engine };
  });
});
