// Contract cases: head, copy, metadata replace, deletes and folder markers.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { requireFeature, type FixtureRef } from './contract.js';
import { containerName, expectCode, md5, readAll } from './helpers.js';

async function collectNames(get: FixtureRef, c: string, prefix = '', delimiter = '/'): Promise<string[]> {
  const names: string[] = [];
  for await (const page of get().backend.listFolder(c, { prefix, delimiter })) {
    for (const e of page.entries) names.push(e.kind === 'folder' ? e.prefix : e.name);
  }
  return names;
}

export function objectCases(get: FixtureRef): void {
  describe('objects', () => {
    it('head reports size, ETag (MD5 of a single-part upload), type, user metadata and standard headers', async () => {
      const { backend } = get();
      const c = containerName('head');
      await backend.createContainer(c);
      const data = randomBytes(4321);
      const up = await backend.upload(c, 'docs/report.txt', { stream: Readable.from([data]) }, {
        contentType: 'text/plain',
        meta: { Color: 'blue', 'project-id': '42' },
        headers: { cacheControl: 'max-age=60', contentDisposition: 'attachment; filename="r.txt"', contentLanguage: 'en' },
      });
      const head = await backend.head(c, 'docs/report.txt');
      for (const d of [up, head]) {
        expect(d).toMatchObject({ container: c, name: 'docs/report.txt', size: 4321, etag: md5(data), contentType: 'text/plain' });
        expect(d.meta).toEqual({ color: 'blue', 'project-id': '42' });
        expect(d.headers).toMatchObject({ cacheControl: 'max-age=60', contentDisposition: 'attachment; filename="r.txt"', contentLanguage: 'en' });
        expect(Number.isNaN(Date.parse(d.lastModified))).toBe(false);
      }
      expect(head.publicRead === null || head.publicRead === false).toBe(true);
    });

    it('copies within a container and into another one, bytes and metadata kept', async (ctx) => {
      const { backend } = get();
      requireFeature(ctx, get(), 'serverSideCopy');
      const a = containerName('copy-a');
      const b = containerName('copy-b');
      await backend.createContainer(a);
      await backend.createContainer(b);
      const data = randomBytes(10_000);
      await backend.upload(a, 'src.bin', { stream: Readable.from([data]) }, { meta: { origin: 'a' }, contentType: 'application/x-test' });
      const same = await backend.copy({ container: a, name: 'src.bin' }, { container: a, name: 'copy of src.bin' });
      const other = await backend.copy({ container: a, name: 'src.bin' }, { container: b, name: 'nested/dst.bin' });
      for (const [c, n, d] of [[a, 'copy of src.bin', same], [b, 'nested/dst.bin', other]] as const) {
        expect(d).toMatchObject({ container: c, name: n, size: 10_000, etag: md5(data), contentType: 'application/x-test' });
        expect(d.meta).toEqual({ origin: 'a' });
        expect((await readAll((await backend.download(c, n)).body)).equals(data)).toBe(true);
      }
    });

    it('setMetadata replaces the whole set (user metadata, type, standard headers) and keeps bytes and ETag', async () => {
      const { backend } = get();
      const c = containerName('meta');
      await backend.createContainer(c);
      const data = randomBytes(2048);
      const before = await backend.upload(c, 'm.bin', { stream: Readable.from([data]) }, { meta: { a: '1', b: '2' }, headers: { contentLanguage: 'de' } });
      const after = await backend.setMetadata(c, 'm.bin', {
        contentType: 'text/x-changed',
        meta: { c: '3' },
        headers: { cacheControl: 'no-cache', contentDisposition: 'inline' },
      });
      const head = await backend.head(c, 'm.bin');
      for (const d of [after, head]) {
        expect(d.meta).toEqual({ c: '3' });
        expect(d.contentType).toBe('text/x-changed');
        expect(d.headers).toEqual({ cacheControl: 'no-cache', contentDisposition: 'inline' });
        expect(d.size).toBe(2048);
        expect(d.etag).toBe(before.etag);
      }
      expect((await readAll((await backend.download(c, 'm.bin')).body)).equals(data)).toBe(true);
    });

    it('deletes one object and many at once (names not there count as deleted)', async () => {
      const { backend } = get();
      const c = containerName('del');
      await backend.createContainer(c);
      for (const n of ['a', 'b', 'c/d', 'e']) await backend.upload(c, n, { stream: Readable.from([Buffer.from(n)]) });
      await backend.delete(c, 'a');
      await expectCode(backend.head(c, 'a'), 'NoSuchKey');
      const result = await backend.deleteMany(c, ['b', 'c/d', 'never-was']);
      expect(result.errors).toEqual([]);
      expect([...result.deleted].sort()).toEqual(['b', 'c/d', 'never-was']);
      expect(await collectNames(get, c, '', '')).toEqual(['e']);
    });

    it('createFolder makes a zero-byte `prefix/` marker that lists as a folder', async () => {
      const { backend } = get();
      const c = containerName('folder');
      await backend.createContainer(c);
      await backend.createFolder(c, 'photos');
      await backend.createFolder(c, 'docs/');
      expect(await collectNames(get, c)).toEqual(['docs/', 'photos/']);
      const marker = await backend.head(c, 'photos/');
      expect(marker.size).toBe(0);
    });
  });
}
