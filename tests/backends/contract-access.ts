// Contract cases: public read (container and object), share links, versions.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { requireFeature, type FixtureRef } from './contract.js';
import { anonymousGet, containerName, expectCode, readAll } from './helpers.js';

const denied = (status: number) => status === 401 || status === 403;

export function accessCases(get: FixtureRef): void {
  describe('public read and share links', () => {
    it('a public container serves its objects to anyone, until public read is turned off', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'publicRead');
      const c = containerName('pub');
      await f.backend.createContainer(c);
      const data = randomBytes(1500);
      await f.backend.upload(c, 'dir/open file.txt', { stream: Readable.from([data]) });
      const url = f.publicUrl(c, 'dir/open file.txt');
      expect(denied((await anonymousGet(url)).status)).toBe(true);

      await f.backend.setPublic(c, undefined, true);
      const open = await anonymousGet(url);
      expect(open.status).toBe(200);
      expect(open.body.equals(data)).toBe(true);

      await f.backend.setPublic(c, undefined, false);
      expect(denied((await anonymousGet(url)).status)).toBe(true);
    });

    it('one public object is readable by anyone (or NotSupported where the backend says so); its neighbours are not', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'publicRead');
      const c = containerName('pubobj');
      await f.backend.createContainer(c);
      await f.backend.upload(c, 'open', { stream: Readable.from([Buffer.from('open')]) });
      await f.backend.upload(c, 'closed', { stream: Readable.from([Buffer.from('closed')]) });
      if (!f.backend.capabilities().publicObjects) {
        await expectCode(f.backend.setPublic(c, 'open', true), 'NotSupported');
        expect(denied((await anonymousGet(f.publicUrl(c, 'open'))).status)).toBe(true);
        return;
      }
      await f.backend.setPublic(c, 'open', true);
      const head = await f.backend.head(c, 'open');
      expect(head.publicRead === null || head.publicRead === true).toBe(true);
      expect((await anonymousGet(f.publicUrl(c, 'open'))).body.toString()).toBe('open');
      expect(denied((await anonymousGet(f.publicUrl(c, 'closed'))).status)).toBe(true);
      await f.backend.setPublic(c, 'open', false);
      expect(denied((await anonymousGet(f.publicUrl(c, 'open'))).status)).toBe(true);
    });

    it('a share link reads the object without credentials', async (ctx) => {
      const { backend } = get();
      requireFeature(ctx, get(), 'shareLinks');
      const c = containerName('share');
      await backend.createContainer(c);
      const data = randomBytes(5000);
      await backend.upload(c, 'shared/ä file.bin', { stream: Readable.from([data]) });
      const link = await backend.shareLink(c, 'shared/ä file.bin', 600);
      const got = await anonymousGet(link);
      expect(got.status).toBe(200);
      expect(got.body.equals(data)).toBe(true);
      await expectCode(backend.shareLink(c, 'shared/ä file.bin', 0), 'InvalidArgument');
    });
  });

  describe('versions', () => {
    it('lists versions newest first, reads an old one, and restores it as the newest', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'versions');
      const { backend } = f;
      const c = containerName('ver');
      await backend.createContainer(c);
      await backend.setVersioning(c, true);
      const v1 = Buffer.from('first version');
      const v2 = Buffer.from('second, longer version');
      await backend.upload(c, 'doc', { stream: Readable.from([v1]) });
      await backend.upload(c, 'doc', { stream: Readable.from([v2]) });
      await backend.upload(c, 'doc-other', { stream: Readable.from([v2]) });

      const versions = await backend.listVersions(c, 'doc');
      expect(versions.map((v) => [v.isLatest, v.size, v.deleteMarker])).toEqual([
        [true, v2.length, false],
        [false, v1.length, false],
      ]);
      const oldId = versions[1]!.versionId;
      expect((await backend.head(c, 'doc', { versionId: oldId })).size).toBe(v1.length);
      expect((await readAll((await backend.download(c, 'doc', { versionId: oldId })).body)).equals(v1)).toBe(true);

      const restored = await backend.restoreVersion(c, 'doc', oldId);
      expect(restored.size).toBe(v1.length);
      expect((await readAll((await backend.download(c, 'doc')).body)).equals(v1)).toBe(true);
      const after = await backend.listVersions(c, 'doc');
      expect(after).toHaveLength(3);
      expect(after[0]).toMatchObject({ isLatest: true, size: v1.length });

      // Deleting makes a delete marker, which can itself be deleted (S3 and the local store then
      // bring the version below back; Swift leaves the object gone, which undelete brings back).
      await backend.delete(c, 'doc');
      await expectCode(backend.head(c, 'doc'), 'NoSuchKey');
      const marker = (await backend.listVersions(c, 'doc')).find((v) => v.deleteMarker);
      expect(marker?.isLatest).toBe(true);
      await backend.delete(c, 'doc', { versionId: marker!.versionId });
      expect((await backend.listVersions(c, 'doc')).some((v) => v.deleteMarker)).toBe(false);
      await backend.undelete(c, 'doc');
      expect((await backend.head(c, 'doc')).size).toBe(v1.length);
    });
  });
}
