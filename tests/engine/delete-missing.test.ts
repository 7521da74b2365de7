// Deleting what is not there: the engine decides, once. Swift's front end asks for NoSuchKey
// (its 404); S3's front end and the app's backends ask for success (`missingOk`).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { openStore, type TestStore } from './helpers.js';

let s: TestStore;
beforeAll(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'plain');
  await s.engine.createContainer(s.account, 'versioned', { versioning: 'enabled' });
});
afterAll(() => s?.close());

it('a missing key or version is NoSuchKey / NoSuchVersion, or with missingOk a result that says so and changes nothing', async () => {
  const plain = Engine.ref(s.account, 'plain');
  const versioned = Engine.ref(s.account, 'versioned');
  await expect(s.engine.deleteObject(plain, 'gone')).rejects.toMatchObject({ code: 'NoSuchKey' });
  expect(await s.engine.deleteObject(plain, 'gone', { missingOk: true })).toEqual({ versionId: null, deleteMarker: false, missing: true });
  await s.engine.putObject(versioned, 'v', 'x');
  await expect(s.engine.deleteObject(versioned, 'v', { versionId: 'no-such-version' })).rejects.toMatchObject({ code: 'NoSuchVersion' });
  expect(await s.engine.deleteObject(versioned, 'v', { versionId: 'no-such-version', missingOk: true })).toMatchObject({ missing: true });
  expect(s.engine.listVersions(versioned).entries).toHaveLength(1);
  // Present: deleted as usual, whatever missingOk says.
  expect(await s.engine.deleteObject(plain, 'gone', { missingOk: true })).toMatchObject({ missing: true });
  await s.engine.putObject(plain, 'here', 'x');
  expect(await s.engine.deleteObject(plain, 'here', { missingOk: true })).toEqual({ versionId: null, deleteMarker: false });
  expect(() => s.engine.headObject(plain, 'here')).toThrow('The specified key does not exist.');
});
