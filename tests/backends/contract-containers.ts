// Contract cases: the account, containers, and errors mapped into CofferError codes.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { requireFeature, requireFixture, type FixtureRef } from './contract.js';
import { containerName, expectCode } from './helpers.js';

export function containerCases(get: FixtureRef): void {
  describe('account and containers', () => {
    it('accountInfo names the account; usage grows by what is uploaded (or is unknown: null, never a made-up zero)', async () => {
      const { backend, usageLagMs = 0, diagnoseUsage, settleUsage } = get();
      const before = await backend.accountInfo();
      expect(before.id).not.toBe('');
      const c = containerName('acct');
      await backend.createContainer(c);
      const data = randomBytes(3000);
      await backend.upload(c, 'one', { stream: Readable.from([data]) });
      await settleUsage?.(c);
      let after = await backend.accountInfo();
      // Where the figures arrive later, they must arrive within the stated lag.
      for (const until = Date.now() + usageLagMs; after.usage.bytes !== null && after.usage.bytes - (before.usage.bytes ?? 0) < 3000 && Date.now() < until; ) {
        await sleep(250);
        after = await backend.accountInfo();
      }
      if (before.usage.containers !== null) expect(after.usage.containers).toBe(before.usage.containers + 1);
      const why = diagnoseUsage && after.usage.bytes !== null && after.usage.bytes - (before.usage.bytes ?? 0) !== 3000 ? await diagnoseUsage(c) : undefined;
      if (before.usage.bytes !== null && after.usage.bytes !== null) expect(after.usage.bytes - before.usage.bytes, why).toBe(3000);
      if (before.usage.objects !== null && after.usage.objects !== null) expect(after.usage.objects - before.usage.objects).toBe(1);
      if (backend.capabilities().quota) expect(typeof after.usage.bytes).toBe('number');
      for (const v of [after.quota.maxBytes, after.quota.maxObjects]) expect(v === null || v >= 0).toBe(true);
    });

    it('creates, lists (with counts when known) and deletes a container; a non-empty one is refused', async () => {
      const { backend } = get();
      const c = containerName('life');
      await backend.createContainer(c);
      let listed = (await backend.listContainers()).find((x) => x.name === c);
      expect(listed).toBeDefined();
      expect(listed!.objects === null || listed!.objects === 0).toBe(true);

      await backend.upload(c, 'dir/file.txt', { stream: Readable.from([Buffer.from('hello')]) });
      listed = (await backend.listContainers()).find((x) => x.name === c);
      expect(listed!.objects === null || listed!.objects === 1).toBe(true);
      expect(listed!.bytes === null || listed!.bytes === 5).toBe(true);
      if (listed!.created !== null) expect(Number.isNaN(Date.parse(listed!.created))).toBe(false);

      // A new container is private with no quota of its own, or the backend cannot tell (null).
      expect(listed!.public === null || listed!.public === false).toBe(true);
      expect(listed!.quota).toBeNull();

      await expectCode(backend.deleteContainer(c), 'ContainerNotEmpty');
      await backend.delete(c, 'dir/file.txt');
      await backend.deleteContainer(c);
      expect((await backend.listContainers()).some((x) => x.name === c)).toBe(false);
    });
  });

  it('lists whether a container is public, where the listing can tell', async (ctx) => {
    const { backend } = get();
    requireFeature(ctx, get(), 'publicRead');
    const c = containerName('pub');
    await backend.createContainer(c);
    await backend.setPublic(c, undefined, true);
    const publicState = async () => (await backend.listContainers()).find((x) => x.name === c)!.public;
    const on = await publicState();
    expect(on === null || on === true).toBe(true);
    await backend.setPublic(c, undefined, false);
    const off = await publicState();
    expect(off === null || off === false).toBe(true);
    // A backend that knows one state knows the other.
    expect(on === null).toBe(off === null);
    await backend.deleteContainer(c);
  });

  describe('errors', () => {
    it('a missing container is NoSuchContainer, a missing object NoSuchKey', async () => {
      const { backend } = get();
      const missing = containerName('missing');
      await expectCode(backend.deleteContainer(missing), 'NoSuchContainer');
      await expectCode(backend.head(missing, 'x'), 'NoSuchContainer');
      await expectCode(
        (async () => {
          for await (const _ of backend.listFolder(missing)) break;
        })(),
        'NoSuchContainer',
      );
      await expectCode(backend.upload(missing, 'x', { stream: Readable.from([Buffer.from('x')]) }), 'NoSuchContainer');

      const c = containerName('errs');
      await backend.createContainer(c);
      await expectCode(backend.head(c, 'nope'), 'NoSuchKey');
      await expectCode(backend.download(c, 'nope'), 'NoSuchKey');
      await expectCode(backend.copy({ container: c, name: 'nope' }, { container: c, name: 'copy' }), 'NoSuchKey');
      // Deleting what is not there succeeds (deletes are idempotent, as on S3).
      await backend.delete(c, 'nope');
      await backend.deleteContainer(c);
    });

    it('wrong credentials are AuthFailed', async (ctx) => {
      const wrong = get().withWrongCredentials?.();
      requireFixture(ctx, wrong, 'credentials do not apply to this backend');
      if (!wrong) return;
      await expectCode(wrong.accountInfo(), 'AuthFailed');
      await expectCode(wrong.listContainers(), 'AuthFailed');
    });

    it('an endpoint nothing answers on is Unreachable', async (ctx) => {
      const gone = get().unreachable?.();
      requireFixture(ctx, gone, 'this backend has no network');
      if (!gone) return;
      await expectCode(gone.accountInfo(), 'Unreachable');
      await expectCode(gone.listContainers(), 'Unreachable');
    });
  });
}
