import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { codeOf, openStore, readAll, type TestStore } from './helpers.js';

let s: TestStore;
const ref = () => Engine.ref(s.account, 'v');
const text = async (versionId?: string | null) => (await readAll((await s.engine.getObject(ref(), 'k', { versionId })).body)).toString();
const versions = () => s.engine.listVersions(ref()).entries.flatMap((e) => (e.kind === 'version' ? [e.version] : []));

beforeEach(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'v');
});
afterEach(() => s.close());

describe('versioning enabled', () => {
  it('keeps every version, newest first, each readable by id', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    const v1 = await s.engine.putObject(ref(), 'k', 'one');
    const v2 = await s.engine.putObject(ref(), 'k', 'two');
    expect(v1.versionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(v1.versionId).not.toBe(v2.versionId);
    expect(await text()).toBe('two');
    expect(await text(v1.versionId)).toBe('one');
    expect(versions().map((v) => [v.versionId, v.isLatest])).toEqual([
      [v2.versionId, true],
      [v1.versionId, false],
    ]);
    expect(s.engine.getContainer(ref()).usage.objects).toBe(2);
    expect(s.engine.listObjects(ref()).entries).toHaveLength(1);
  });

  it('delete writes a marker that hides the object; deleting the marker restores it', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    const v1 = await s.engine.putObject(ref(), 'k', 'one');
    const del = await s.engine.deleteObject(ref(), 'k');
    expect(del.deleteMarker).toBe(true);
    expect(await codeOf(() => s.engine.headObject(ref(), 'k'))).toBe('NoSuchKey');
    expect(await codeOf(() => s.engine.headObject(ref(), 'k', del.versionId))).toBe('DeleteMarker');
    expect(s.engine.listObjects(ref()).entries).toHaveLength(0);
    expect(versions().map((v) => [v.deleteMarker, v.isLatest])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(await s.engine.deleteObject(ref(), 'k', { versionId: del.versionId })).toEqual({ versionId: del.versionId, deleteMarker: true });
    expect(await text()).toBe('one');
    expect(s.engine.headObject(ref(), 'k').versionId).toBe(v1.versionId);
  });

  it('deleting the current version by id makes the previous one current', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    await s.engine.putObject(ref(), 'k', 'one');
    const v2 = await s.engine.putObject(ref(), 'k', 'two!');
    await s.engine.deleteObject(ref(), 'k', { versionId: v2.versionId });
    expect(await text()).toBe('one');
    expect(s.engine.getContainer(ref()).usage).toMatchObject({ objects: 1, bytes: 3 });
    expect(await codeOf(() => s.engine.deleteObject(ref(), 'k', { versionId: v2.versionId }))).toBe('NoSuchVersion');
  });

  it('an object written before versioning is the null version', async () => {
    await s.engine.putObject(ref(), 'k', 'old');
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    await s.engine.putObject(ref(), 'k', 'new');
    expect(await text('null')).toBe('old');
    expect(versions().map((v) => v.versionId === null)).toEqual([false, true]);
  });

  it('a non-empty versioned container cannot be deleted while versions or markers remain', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    const v = await s.engine.putObject(ref(), 'k', 'one');
    const m = await s.engine.deleteObject(ref(), 'k');
    expect(await codeOf(() => s.engine.deleteContainer(ref()))).toBe('ContainerNotEmpty');
    await s.engine.deleteObject(ref(), 'k', { versionId: v.versionId });
    expect(await codeOf(() => s.engine.deleteContainer(ref()))).toBe('ContainerNotEmpty');
    await s.engine.deleteObject(ref(), 'k', { versionId: m.versionId });
    expect(await codeOf(() => s.engine.deleteContainer(ref()))).toBe('ok');
  });

  it('cannot go back to unversioned', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    expect(await codeOf(() => s.engine.updateContainer(ref(), { versioning: 'unversioned' }))).toBe('InvalidArgument');
  });
});

describe('current objects, counted apart from stored versions', () => {
  const usage = () => s.engine.getContainer(ref()).usage;
  it('follow writes, delete markers, deletes by id and the version made current again; quotas keep counting versions', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    const v1 = await s.engine.putObject(ref(), 'k', 'one');
    await s.engine.putObject(ref(), 'k', 'two');
    await s.engine.putObject(ref(), 'other', 'x');
    expect([usage().current, usage().objects]).toEqual([2, 3]);
    const marker = await s.engine.deleteObject(ref(), 'k');
    expect([usage().current, usage().objects]).toEqual([1, 3]);
    await s.engine.deleteObject(ref(), 'k', { versionId: marker.versionId! });
    expect([usage().current, usage().objects]).toEqual([2, 3]);
    const current = versions().find((v) => v.isLatest && v.name === 'k')!;
    await s.engine.deleteObject(ref(), 'k', { versionId: current.versionId! });
    expect(await text()).toBe('one');
    expect([usage().current, usage().objects]).toEqual([2, 2]);
    await s.engine.deleteObject(ref(), 'k', { versionId: v1.versionId! });
    expect([usage().current, usage().objects]).toEqual([1, 1]);
    await s.engine.updateContainer(ref(), { versioning: 'suspended' });
    await s.engine.putObject(ref(), 'other', 'null one');
    await s.engine.putObject(ref(), 'other', 'null two');
    expect([usage().current, usage().objects]).toEqual([1, 2]);
    await s.engine.deleteObject(ref(), 'other');
    expect([usage().current, usage().objects]).toEqual([0, 1]);
  });

  it('equal the objects in an unversioned container', async () => {
    await s.engine.putObject(ref(), 'a', '1');
    await s.engine.putObject(ref(), 'a', '2');
    await s.engine.putObject(ref(), 'b', '3');
    await s.engine.deleteObject(ref(), 'b');
    expect([usage().current, usage().objects]).toEqual([1, 1]);
  });
});

describe('versioning suspended', () => {
  it('writes replace the null version and keep the others', async () => {
    await s.engine.updateContainer(ref(), { versioning: 'enabled' });
    const v1 = await s.engine.putObject(ref(), 'k', 'one');
    await s.engine.updateContainer(ref(), { versioning: 'suspended' });
    const n1 = await s.engine.putObject(ref(), 'k', 'null-1');
    const n2 = await s.engine.putObject(ref(), 'k', 'null-2');
    expect(n1.versionId).toBeNull();
    expect(n2.versionId).toBeNull();
    expect(versions().map((v) => v.versionId)).toEqual([null, v1.versionId]);
    expect(await text()).toBe('null-2');
    const del = await s.engine.deleteObject(ref(), 'k');
    expect(del).toEqual({ versionId: null, deleteMarker: true, hidCurrent: true });
    expect(versions().map((v) => [v.versionId, v.deleteMarker])).toEqual([
      [null, true],
      [v1.versionId, false],
    ]);
    expect(s.engine.getContainer(ref()).usage.objects).toBe(1);
  });
});
