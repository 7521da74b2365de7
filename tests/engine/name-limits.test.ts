/**
 * Names past their limits: never an lmdb error (a 500 through either API), always the engine's
 * own answer. Reads of a name no object can have answer as for a missing one; writes refuse it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCofferError } from '../../src-shared/errors.js';
import { Engine } from '../../src-main/engine/engine.js';
import { afterPrefix, expiryKey, MAX_KEY_BYTES, objectKey, uploadKey, versionKey } from '../../src-main/engine/index/keys.js';
import { IndexStore } from '../../src-main/engine/index/store.js';
import { codeOf, openStore, type TestStore } from './helpers.js';

let s: TestStore;
const ref = (c = 'c') => Engine.ref(s.account, c);
/** Swift's latest X-Delete-At (November 2286). */
const LATEST_EXPIRY = 9_999_999_999;
/** Lengths around lmdb's key limit (1978 bytes; 4 go to the container id), and far past it. */
const LONG = [
  'a'.repeat(1025),
  'é'.repeat(513),
  'a'.repeat(1974),
  'a'.repeat(1975),
  '😀'.repeat(600),
  'a'.repeat(20_000),
];

beforeAll(async () => {
  s = await openStore({ noSync: true, inlineMax: 16 });
  await s.engine.createContainer(s.account, 'c');
  await s.engine.createContainer(s.account, 'v', { versioning: 'enabled' });
  await s.engine.putObject(ref(), 'src', 'source bytes');
});
afterAll(() => s.close());

/** The error code and details an engine call fails with ('ok' when it does not fail). */
async function failure(fn: () => unknown): Promise<{ code: string; details?: Record<string, unknown> }> {
  try {
    await fn();
    return { code: 'ok' };
  } catch (err) {
    return isCofferError(err) ? { code: err.code, details: err.details } : { code: `not a CofferError: ${String(err)}` };
  }
}

describe('the index key budget', () => {
  it('the longest keys built from names within their limits fit lmdb and work; objectKey refuses a longer name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coffer-keys-'));
    const store = new IndexStore(dir, { noSync: true });
    try {
      expect((store.objects as unknown as { maxKeySize: number }).maxKeySize).toBe(MAX_KEY_BYTES);
      const longest = '😀'.repeat(256); // 1024 bytes, in the widest characters
      const cid = 2 ** 32 - 1;
      const keys = [
        uploadKey(cid, longest, 'f'.repeat(32)),
        versionKey(cid, longest, Number.MAX_SAFE_INTEGER),
        expiryKey(LATEST_EXPIRY, objectKey(cid, longest)),
        afterPrefix(objectKey(cid, longest)),
      ];
      for (const k of keys) expect(k.length).toBeLessThanOrEqual(MAX_KEY_BYTES);
      expect(() => objectKey(1, `${longest}a`)).toThrow(/Object name length of 1025 longer than 1024/);
    } finally {
      void store.close().then(() => rmSync(dir, { recursive: true, force: true }));
    }
    // Such a name goes through every table: versions, expiry, uploads and listings.
    const name = '😀'.repeat(256);
    await s.engine.putObject(ref('v'), name, 'one', { deleteAt: LATEST_EXPIRY });
    await s.engine.putObject(ref('v'), name, 'two');
    await s.engine.createUpload(ref('v'), name);
    expect(s.engine.listVersions(ref('v'), { prefix: name }).entries).toHaveLength(2);
    expect(s.engine.listObjects(ref('v'), { prefix: name, marker: name.slice(0, -2) }).entries).toHaveLength(1);
    expect(s.engine.listUploads(ref('v'), { prefix: name }).uploads).toHaveLength(1);
    expect(s.engine.headObject(ref('v'), name).size).toBe(3);
  });
});

describe('object names past 1024 bytes', () => {
  it('reads, deletes, copies from and metadata updates answer NoSuchKey, with the length in the details', async () => {
    for (const name of LONG) {
      const size = Buffer.byteLength(name);
      const expected = { code: 'NoSuchKey', details: { nameBytes: size, maxNameBytes: 1024 } };
      expect(await failure(() => s.engine.headObject(ref(), name)), `head ${size}`).toEqual(expected);
      expect(await failure(() => s.engine.getObject(ref(), name)), `get ${size}`).toEqual(expected);
      expect(await failure(() => s.engine.headObject(ref(), name, 'some-version')), `version ${size}`).toEqual(expected);
      expect(await failure(() => s.engine.deleteObject(ref(), name)), `delete ${size}`).toEqual(expected);
      expect(await failure(() => s.engine.deleteObject(ref('v'), name)), `versioned delete ${size}`).toEqual(expected);
      expect(await failure(() => s.engine.copyObject({ ref: ref(), name }, { ref: ref(), name: 'dst' }, { metadata: 'copy' })), `copy ${size}`).toEqual(expected);
      expect(await failure(() => s.engine.updateObjectMeta(ref(), name, { meta: {} })), `post ${size}`).toEqual(expected);
      expect(await codeOf(() => s.engine.getStaticManifest(ref(), name))).toBe('NoSuchKey');
      expect(await codeOf(() => s.engine.linkObjectTo(ref(), name, join(s.dir, 'out')))).toBe('NoSuchKey');
    }
    // No delete marker was written for them, and a missing container still says so first.
    expect(s.engine.listVersions(ref('v')).entries.filter((e) => e.kind === 'version' && e.version.deleteMarker)).toEqual([]);
    expect(await codeOf(() => s.engine.headObject(ref('nope'), LONG[5]!))).toBe('NoSuchContainer');
  });

  it('multipart operations on them answer NoSuchUpload; bulk deletes count them as not found', async () => {
    const id = 'a'.repeat(32);
    for (const name of LONG) {
      expect(await codeOf(() => s.engine.uploadPart(ref(), name, id, 1, 'x')), `part ${name.length}`).toBe('NoSuchUpload');
      expect(await codeOf(() => s.engine.listParts(ref(), name, id))).toBe('NoSuchUpload');
      expect(await codeOf(() => s.engine.abortUpload(ref(), name, id))).toBe('NoSuchUpload');
      expect(await codeOf(() => s.engine.completeUpload(ref(), name, id, [{ partNumber: 1, etag: 'x' }]))).toBe('NoSuchUpload');
    }
    const report = await s.engine.deleteMany(ref().tenant, LONG.map((name) => ({ container: 'c', name })));
    expect(report).toEqual({ deleted: 0, notFound: LONG.length, errors: [] });
  });

  it('writes refuse them with InvalidObjectName and the length in the details', async () => {
    for (const name of LONG) {
      const size = Buffer.byteLength(name);
      const expected = { code: 'InvalidObjectName', details: { nameBytes: size, maxNameBytes: 1024 } };
      expect(await failure(() => s.engine.putObject(ref(), name, 'x'))).toEqual(expected);
      expect(await failure(() => s.engine.copyObject({ ref: ref(), name: 'src' }, { ref: ref(), name }, { metadata: 'copy' }))).toEqual(expected);
      expect(await failure(() => s.engine.createUpload(ref(), name))).toEqual(expected);
      expect(await failure(() => s.engine.putStaticLargeObject(ref(), name, [{ container: 'c', name: 'src' }]))).toEqual(expected);
      expect(await failure(() => s.engine.putDynamicLargeObject(ref(), name, '', { container: 'c', prefix: 'x' }))).toEqual(expected);
    }
  });

  it('segments and DLO prefixes past the limit name nothing', async () => {
    const long = LONG[5]!;
    expect(await codeOf(() => s.engine.putStaticLargeObject(ref(), 'slo', [{ container: 'c', name: long }]))).toBe('InvalidArgument');
    await s.engine.putDynamicLargeObject(ref(), 'dlo', '', { container: 'c', prefix: long });
    expect(s.engine.headObject(ref(), 'dlo').size).toBe(0);
    await s.engine.putDynamicLargeObject(ref(), 'dlo2', '', { container: 'c'.repeat(20_000), prefix: 'x' });
    expect(s.engine.headObject(ref(), 'dlo2').size).toBe(0);
  });
});

describe('container, tenant, account and credential names past their limits', () => {
  it('name nothing, whatever their length', async () => {
    for (const n of [257, 1975, 20_000]) {
      const long = 'c'.repeat(n);
      expect(await codeOf(() => s.engine.getContainer(ref(long)))).toBe('NoSuchContainer');
      expect(await codeOf(() => s.engine.getContainer({ tenant: long, container: 'c' }))).toBe('NoSuchContainer');
      expect(await codeOf(() => s.engine.headObject({ tenant: long, container: long }, 'x'))).toBe('NoSuchContainer');
      expect(await codeOf(() => s.engine.listObjects(ref(long)))).toBe('NoSuchContainer');
      expect(await codeOf(() => s.engine.deleteContainer(ref(long)))).toBe('NoSuchContainer');
      expect(await codeOf(() => s.engine.createContainer(s.account, long))).toBe('InvalidContainerName');
      expect(s.engine.hasAccount(long)).toBe(false);
      expect(s.engine.findAccount(`t$${long}`)).toBeUndefined();
      expect(await codeOf(() => s.engine.getAccount(long))).toBe('NoSuchAccount');
      expect(await codeOf(() => s.engine.listContainers(long))).toBe('NoSuchAccount');
      expect(s.engine.findByAccessKey(long)).toBeNull();
      expect(s.engine.findBySwiftUser(`${s.account}:${long}`)).toBeNull();
    }
  });

  it('access keys and sub-users too long for the credentials table are refused when created', async () => {
    expect(await codeOf(() => s.engine.addAccessKey(s.account, { accessKey: 'K'.repeat(3000), secretKey: 's' }))).toBe('InvalidArgument');
    expect(await codeOf(() => s.engine.addSwiftKey(s.account, 's'.repeat(3000)))).toBe('InvalidArgument');
    expect(await codeOf(() => s.engine.createAccount({ id: 'k$long', keys: [{ accessKey: 'K'.repeat(129) }] }))).toBe('InvalidArgument');
    expect(await codeOf(() => s.engine.addAccessKey(s.account, { accessKey: 'K'.repeat(128) }))).toBe('ok');
  });
});
