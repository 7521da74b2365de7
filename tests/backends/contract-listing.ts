// Contract cases: folder listings (virtual folders, prefix, flat) and marker pagination.
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FolderPage } from '../../src-shared/model/storage.js';
import type { FixtureRef } from './contract.js';
import { containerName } from './helpers.js';

const NAMES = ['a/1', 'a/2', 'a/3', 'b/x', 'c', 'd/e/f', 'zz'];
const MANY = Array.from({ length: 23 }, (_, i) => `p/item-${String(i).padStart(2, '0')}`);

const label = (e: FolderPage['entries'][number]) => (e.kind === 'folder' ? e.prefix : e.name);

export function listingCases(get: FixtureRef): void {
  describe('listFolder', () => {
    const c = containerName('list');
    const pages = async (opts: Parameters<ReturnType<FixtureRef>['backend']['listFolder']>[1]) => {
      const out: FolderPage[] = [];
      for await (const page of get().backend.listFolder(c, opts)) out.push(page);
      return out;
    };

    beforeAll(async () => {
      const { backend } = get();
      await backend.createContainer(c);
      for (const n of [...NAMES, ...MANY]) await backend.upload(c, n, { stream: Readable.from([Buffer.from(n)]) });
    });

    it('shows virtual folders once, next to the objects at that level, in name order', async () => {
      const all = (await pages({})).flatMap((p) => p.entries);
      expect(all.map(label)).toEqual(['a/', 'b/', 'c', 'd/', 'p/', 'zz']);
      expect(all.find((e) => e.kind === 'folder' && e.prefix === 'a/')).toEqual({ kind: 'folder', prefix: 'a/' });
      const c0 = all.find((e) => e.kind === 'object' && e.name === 'c');
      expect(c0).toMatchObject({ kind: 'object', size: 1 });
    });

    it('lists inside a prefix, and nested folders there', async () => {
      expect((await pages({ prefix: 'a/' })).flatMap((p) => p.entries).map(label)).toEqual(['a/1', 'a/2', 'a/3']);
      expect((await pages({ prefix: 'd/' })).flatMap((p) => p.entries).map(label)).toEqual(['d/e/']);
    });

    it('lists flat with an empty delimiter', async () => {
      const names = (await pages({ delimiter: '', prefix: 'a' })).flatMap((p) => p.entries).map(label);
      expect(names).toEqual(['a/1', 'a/2', 'a/3']);
    });

    it('pages through more than two pages with a small page size, nothing lost or repeated', async () => {
      const got = await pages({ prefix: 'p/', pageSize: 4 });
      expect(got.length).toBeGreaterThan(2);
      for (const p of got.slice(0, -1)) {
        expect(p.entries.length).toBeLessThanOrEqual(4);
        expect(p.nextMarker).not.toBeNull();
      }
      expect(got.at(-1)!.nextMarker).toBeNull();
      expect(got.flatMap((p) => p.entries).map(label)).toEqual(MANY);
    });

    it('pages across folders and objects alike, and resumes from a page marker', async () => {
      const got = await pages({ pageSize: 2 });
      expect(got.length).toBeGreaterThan(2);
      expect(got.flatMap((p) => p.entries).map(label)).toEqual(['a/', 'b/', 'c', 'd/', 'p/', 'zz']);
      const resumed = await pages({ pageSize: 2, marker: got[0]!.nextMarker! });
      expect(resumed.flatMap((p) => p.entries).map(label)).toEqual(['c', 'd/', 'p/', 'zz']);
    });

    it('stops when the signal is aborted', async () => {
      const ac = new AbortController();
      const seen: FolderPage[] = [];
      const run = (async () => {
        for await (const page of get().backend.listFolder(c, { prefix: 'p/', pageSize: 2, signal: ac.signal })) {
          seen.push(page);
          ac.abort();
        }
      })();
      await expect(run).rejects.toMatchObject({ code: 'Aborted' });
      expect(seen.length).toBe(1);
    });
  });
}
