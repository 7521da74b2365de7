// Contract cases: versions as a view of their own. The versioning switch, a folder listed with
// its versions and delete markers, undelete, and a folder restored to a moment.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { FolderEntry } from '../../src-shared/model/storage.js';
import { planRestore, restoreToTime } from '../../src-main/services/restore-to-time.js';
import { requireFeature, requireFixture, type FixtureRef } from './contract.js';
import { containerName, expectCode, readAll } from './helpers.js';

/** Every entry of a listing with versions, following the markers page after page. */
async function listAll(get: FixtureRef, c: string, prefix: string, delimiter: string, pageSize?: number): Promise<FolderEntry[]> {
  const out: FolderEntry[] = [];
  for await (const page of get().backend.listFolder(c, { prefix, delimiter, versions: true, ...(pageSize ? { pageSize } : {}) })) out.push(...page.entries);
  return out;
}

/** An entry as a short line: what a user would read in the folder view with deleted objects shown. */
function line(e: FolderEntry): string {
  if (e.kind === 'folder') return `folder ${e.prefix}`;
  if (e.kind === 'object') return `current ${e.name} ${e.size}`;
  return `${e.deleteMarker ? 'marker' : 'older'} ${e.name}${e.deleteMarker ? '' : ` ${e.size}`}${e.isLatest ? ' (latest)' : ''}`;
}

export function versionCases(get: FixtureRef): void {
  describe('versions', () => {
    const put = (c: string, name: string, body: string) => get().backend.upload(c, name, { stream: Readable.from([Buffer.from(body)]) });
    const read = async (c: string, name: string) => (await readAll((await get().backend.download(c, name)).body)).toString();

    it('a new container is unversioned; versioning turns on, and suspended it keeps what it kept and makes no new versions', async (ctx) => {
      requireFeature(ctx, get(), 'versions');
      const { backend } = get();
      const c = containerName('vswitch');
      await backend.createContainer(c);
      expect(await backend.versioning(c)).toBe('unversioned');
      // Off on a container never versioned changes nothing (S3 cannot make it unversioned again).
      expect(await backend.setVersioning(c, false)).toBe('unversioned');
      expect(await backend.setVersioning(c, true)).toBe('enabled');
      expect(await backend.versioning(c)).toBe('enabled');
      await put(c, 'doc', 'one');
      await put(c, 'doc', 'two!');
      expect((await backend.listVersions(c, 'doc')).map((v) => v.size)).toEqual([4, 3]);

      expect(await backend.setVersioning(c, false)).toBe('suspended');
      expect(await backend.versioning(c)).toBe('suspended');
      await put(c, 'doc', 'three');
      await put(c, 'doc', 'four!!');
      // The versions kept stay; the two writes while suspended replaced one another.
      expect((await backend.listVersions(c, 'doc')).map((v) => v.size)).toEqual([6, 4, 3]);
      expect(await read(c, 'doc')).toBe('four!!');
      expect(await backend.setVersioning(c, true)).toBe('enabled');
    });

    it('where the backend keeps no versions, it says why and refuses the switch and the listing', async (ctx) => {
      const { backend } = get();
      const caps = backend.capabilities();
      requireFixture(ctx, !caps.versions, 'this backend keeps versions (the other cases check them)');
      expect(caps.why.versions).toMatch(/\w+/);
      const c = containerName('nover');
      await backend.createContainer(c);
      await expectCode(backend.setVersioning(c, true), 'NotSupported');
      await expectCode(listAll(get, c, '', '/'), 'NotSupported');
    });

    it('lists a folder with non-current versions and delete markers: each current version first, a deleted object as its marker', async (ctx) => {
      requireFeature(ctx, get(), 'versions');
      const { backend } = get();
      const c = containerName('vlist');
      await backend.createContainer(c);
      await backend.setVersioning(c, true);
      await put(c, 'a', 'one');
      await put(c, 'a', 'two!');
      await put(c, 'd/b', 'bee');
      await backend.delete(c, 'd/b');
      await put(c, 'd/c', 'sea!!');

      expect((await listAll(get, c, '', '/')).map(line)).toEqual(['current a 4', 'older a 3', 'folder d/']);
      expect((await listAll(get, c, 'd/', '/')).map(line)).toEqual(['marker d/b (latest)', 'older d/b 3', 'current d/c 5']);
      // Without versions the deleted object is not there at all.
      const plain: string[] = [];
      for await (const page of backend.listFolder(c, { prefix: 'd/' })) plain.push(...page.entries.map((e) => (e.kind === 'folder' ? e.prefix : e.name)));
      expect(plain).toEqual(['d/c']);

      // Page by page, one entry at a time, the markers carry on exactly where each page stopped.
      const whole = await listAll(get, c, '', '');
      expect(whole.map(line)).toEqual(['current a 4', 'older a 3', 'marker d/b (latest)', 'older d/b 3', 'current d/c 5']);
      expect((await listAll(get, c, '', '', 1)).map(line)).toEqual(whole.map(line));
      // Each version is named, and the names are what head and download take.
      const older = whole.find((e) => e.kind === 'version' && e.name === 'a')!;
      expect(older.kind === 'version' && (await backend.head(c, 'a', { versionId: older.versionId })).size).toBe(3);
    });

    it('undelete brings a deleted object back as its newest version was; one not deleted stays; a name never stored is NoSuchKey', async (ctx) => {
      requireFeature(ctx, get(), 'versions');
      const { backend } = get();
      const c = containerName('undel');
      await backend.createContainer(c);
      await backend.setVersioning(c, true);
      await put(c, 'u', 'first');
      await put(c, 'u', 'second');
      await backend.delete(c, 'u');
      await expectCode(backend.head(c, 'u'), 'NoSuchKey');

      const back = await backend.undelete(c, 'u');
      expect(back.size).toBe('second'.length);
      expect(await read(c, 'u')).toBe('second');
      const versions = await backend.listVersions(c, 'u');
      expect(versions[0]).toMatchObject({ isLatest: true, deleteMarker: false, size: 'second'.length });

      // Not deleted: nothing changes, not even a new version.
      expect((await backend.undelete(c, 'u')).size).toBe('second'.length);
      expect(await backend.listVersions(c, 'u')).toHaveLength(versions.length);
      await expectCode(backend.undelete(c, 'never-was'), 'NoSuchKey');
    });

    it('restores a folder to a moment: changed objects get their version of then, deleted ones come back, new ones go (a delete marker), others stay', async (ctx) => {
      requireFeature(ctx, get(), 'versions');
      const { backend } = get();
      const c = containerName('vtime');
      await backend.createContainer(c);
      await backend.setVersioning(c, true);
      await put(c, 'proj/a', 'a then');
      await put(c, 'proj/b', 'b then');
      await put(c, 'proj/same', 'same');
      await put(c, 'proj/old', 'deleted before');
      await backend.delete(c, 'proj/old');
      await put(c, 'other/x', 'x then');
      // The moment: the last write of the first round, by the server's own clock.
      const at = (await listAll(get, c, '', '')).map((e) => (e.kind === 'folder' ? '' : e.lastModified)).sort().at(-1)!;
      // Past any server's timestamp granularity (some list whole seconds).
      await sleep(1100);
      await put(c, 'proj/a', 'a now, longer');
      await backend.delete(c, 'proj/b');
      await put(c, 'proj/new', 'made since');
      await put(c, 'other/x', 'x now');

      expect(await planRestore(backend, c, 'proj/', at, 1000)).toEqual({ versioning: 'enabled', restore: 1, bringBack: 1, remove: 1, unchanged: 1, complete: true });
      expect(await planRestore(backend, c, 'proj/', at, 2)).toMatchObject({ complete: false });
      const handled: number[] = [];
      expect(await restoreToTime(backend, c, 'proj/', at, (n) => handled.push(n))).toEqual({ restored: 1, broughtBack: 1, removed: 1, errors: [] });
      expect(handled.reduce((a, b) => a + b, 0)).toBe(3);

      expect(await read(c, 'proj/a')).toBe('a then');
      expect(await read(c, 'proj/b')).toBe('b then');
      expect(await read(c, 'proj/same')).toBe('same');
      await expectCode(backend.head(c, 'proj/new'), 'NoSuchKey');
      await expectCode(backend.head(c, 'proj/old'), 'NoSuchKey');
      expect(await read(c, 'other/x')).toBe('x now');
      // Done: the folder is as it was then.
      expect(await planRestore(backend, c, 'proj/', at, 1000)).toMatchObject({ restore: 0, bringBack: 0, remove: 0, unchanged: 3 });
      // What was removed can be brought back: it was hidden behind a delete marker, not destroyed.
      expect((await backend.listVersions(c, 'proj/new'))[0]).toMatchObject({ isLatest: true, deleteMarker: true });
      await backend.undelete(c, 'proj/new');
      expect(await read(c, 'proj/new')).toBe('made since');
    });
  });
}
