// Contract cases: a container created with its options in one call (versioning, public read, a
// quota, S3 object lock), and options a backend cannot honour refused before anything is made.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ContainerOptions } from '../../src-shared/model/storage.js';
import { requireFeature, requireFixture, type FixtureRef } from './contract.js';
import { anonymousGet, containerName, expectCode } from './helpers.js';

export function containerOptionCases(get: FixtureRef): void {
  describe('container options', () => {
    it('creates a container with versioning, public read and a quota where the backend has them, each in force', async () => {
      const f = get();
      const { backend } = f;
      const caps = backend.capabilities();
      const put = (c: string, name: string) => backend.upload(c, name, { stream: Readable.from([Buffer.from(name)]) });
      const c = containerName('opts');
      await backend.createContainer(c, { public: caps.publicRead, versioning: caps.versions });
      const listed = (await backend.listContainers()).find((x) => x.name === c);
      expect(listed).toBeDefined();
      if (caps.versions) expect(await backend.versioning(c)).toBe('enabled');
      await put(c, 'one');
      if (caps.publicRead) {
        expect(listed!.public).not.toBe(false);
        expect((await anonymousGet(f.publicUrl(c, 'one'))).status).toBe(200);
      }
      if (!caps.containerQuota) return;
      // A quota, listed where the listing tells, and enforced: an object that would take the
      // container past 5,000 bytes is refused. (The object count is not tried: Swift checks it
      // against container figures it caches for up to a minute.)
      const q = containerName('quota');
      await backend.createContainer(q, { quota: { maxBytes: 5000, maxObjects: 2 } });
      const quota = (await backend.listContainers()).find((x) => x.name === q)!.quota;
      if (quota !== null) expect(quota).toEqual({ maxBytes: 5000, maxObjects: 2 });
      await put(q, 'one');
      await expectCode(backend.upload(q, 'big', { stream: Readable.from([Buffer.alloc(6000)]), size: 6000 }), 'QuotaExceeded');
    });

    it('an option the backend cannot honour is refused, saying why, and no container is made', async (ctx) => {
      const { backend } = get();
      const caps = backend.capabilities();
      const refused: [string, ContainerOptions][] = [];
      if (!caps.objectLock) refused.push([caps.why.objectLock ?? '', { objectLock: true }]);
      if (!caps.containerQuota) refused.push([caps.why.containerQuota ?? '', { quota: { maxBytes: 1000, maxObjects: null } }]);
      if (!caps.versions) refused.push([caps.why.versions ?? '', { versioning: true }]);
      requireFixture(ctx, refused.length > 0, 'this backend honours every option');
      for (const [why, options] of refused) {
        expect(why).toMatch(/\w+/);
        const c = containerName('refused');
        const err = await expectCode(backend.createContainer(c, { public: true, ...options }), 'NotSupported');
        expect(err.message).toBe(why);
        expect((await backend.listContainers()).some((x) => x.name === c)).toBe(false);
      }
    });

    it('creates a bucket with object lock where the server has it (versioning comes with it, and stays on)', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'objectLock');
      requireFixture(ctx, f.honoursObjectLock !== undefined, 'the fixture does not say whether its server locks objects');
      const c = containerName('locked');
      if (f.honoursObjectLock) {
        await f.backend.createContainer(c, { objectLock: true });
        expect(await f.backend.versioning(c)).toBe('enabled');
        await expect(f.backend.setVersioning(c, false)).rejects.toThrow(/object lock/i);
      } else {
        // A server that ignores the request made the bucket anyway: that is said, not hidden.
        const err = await expectCode(f.backend.createContainer(c, { objectLock: true }), 'NotSupported');
        expect(err.message).toBe(`${c} was created, but without object lock: this server ignored the request`);
      }
    });
  });
}
