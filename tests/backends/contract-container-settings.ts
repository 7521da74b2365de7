// Contract cases: a container's lifecycle rules and tags (S3 bucket lifecycle and tagging) saved,
// read back by the backend and by another S3 client, removed; a rule the app cannot show in full
// kept exactly as the server held it; a save over a change made elsewhere refused; and where the
// backend has neither (Swift), NotSupported saying why.
import { GetBucketLifecycleConfigurationCommand, GetBucketTaggingCommand, PutBucketLifecycleConfigurationCommand, PutBucketTaggingCommand, type LifecycleRule } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { LifecycleRuleChange } from '../../src-shared/model/container-settings.js';
import { requireFeature, requireFixture, type FixtureRef } from './contract.js';
import { containerName, expectCode } from './helpers.js';

const fields = (id: string, prefix: string, o: { expire?: number; noncurrent?: number; abort?: number; enabled?: boolean }): LifecycleRuleChange => ({
  kind: 'fields',
  id,
  enabled: o.enabled ?? true,
  prefix,
  expirationDays: o.expire ?? null,
  noncurrentDays: o.noncurrent ?? null,
  abortIncompleteDays: o.abort ?? null,
});
const view = ({ kind: _kind, ...rest }: LifecycleRuleChange & { kind: 'fields' }) => ({ ...rest, extras: [] });

export function containerSettingCases(get: FixtureRef): void {
  describe('container lifecycle rules and tags', () => {
    it('saves lifecycle rules, reads them back (as other S3 clients see them), and removes them', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'lifecycle');
      const { backend } = f;
      const c = containerName('lc');
      await backend.createContainer(c);
      const empty = await backend.lifecycle(c);
      expect(empty.rules).toEqual([]);
      const logs = fields('expire-logs', 'logs/', { expire: 30, noncurrent: 7, abort: 2 }) as LifecycleRuleChange & { kind: 'fields' };
      const tmp = fields('tmp', 'tmp/', { expire: 1, enabled: false }) as LifecycleRuleChange & { kind: 'fields' };
      const saved = await backend.setLifecycle(c, empty.basis, [logs, tmp]);
      expect(saved.rules).toEqual([view(logs), view(tmp)]);
      expect(await backend.lifecycle(c)).toEqual(saved);
      if (f.s3) {
        const rules = (await f.s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: c }))).Rules ?? [];
        expect(rules.map((r) => [r.ID, r.Status, r.Filter?.Prefix ?? r.Prefix, r.Expiration?.Days])).toEqual([
          ['expire-logs', 'Enabled', 'logs/', 30],
          ['tmp', 'Disabled', 'tmp/', 1],
        ]);
      }
      const removed = await backend.setLifecycle(c, saved.basis, []);
      expect(removed.rules).toEqual([]);
      if (f.s3) await expect(f.s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: c }))).rejects.toMatchObject({ name: 'NoSuchLifecycleConfiguration' });
    });

    it('saves tags, reads them back (as other S3 clients see them), and removes them', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'containerTags');
      const { backend } = f;
      const c = containerName('tags');
      await backend.createContainer(c);
      const empty = await backend.tags(c);
      expect(empty.tags).toEqual([]);
      const tags = [
        { key: 'project', value: 'Coffer' },
        { key: 'owner', value: 'Zoë Ångström' },
        { key: 'empty', value: '' },
      ];
      const saved = await backend.setTags(c, empty.basis, tags);
      const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
      expect([...saved.tags].sort(byKey)).toEqual([...tags].sort(byKey));
      expect(await backend.tags(c)).toEqual(saved);
      if (f.s3) {
        const set = (await f.s3.send(new GetBucketTaggingCommand({ Bucket: c }))).TagSet ?? [];
        expect(set.map((t) => `${t.Key}=${t.Value}`).sort()).toEqual(['empty=', 'owner=Zoë Ångström', 'project=Coffer']);
      }
      expect((await backend.setTags(c, saved.basis, [])).tags).toEqual([]);
      if (f.s3) await expect(f.s3.send(new GetBucketTaggingCommand({ Bucket: c }))).rejects.toMatchObject({ name: 'NoSuchTagSet' });
    });

    it('keeps a rule it cannot show in full exactly as the server held it when other rules are saved', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'lifecycle');
      requireFixture(ctx, f.s3, 'no S3 client on this store to write such a rule with');
      const s3 = f.s3!;
      const c = containerName('kept');
      await f.backend.createContainer(c);
      const plain: LifecycleRule = { ID: 'plain', Status: 'Enabled', Filter: { Prefix: 'a/' }, Expiration: { Days: 5 } };
      const dated: LifecycleRule = { ID: 'dated', Status: 'Enabled', Filter: { Prefix: 'b/' }, Expiration: { Date: new Date('2031-01-01T00:00:00Z') } };
      const markers: LifecycleRule = { ID: 'markers', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { ExpiredObjectDeleteMarker: true } };
      const tagged: LifecycleRule = { ID: 'tagged', Status: 'Enabled', Filter: { And: { Prefix: 'c/', Tags: [{ Key: 'class', Value: 'scratch' }] } }, Expiration: { Days: 3 } };
      const put = (Rules: LifecycleRule[]) => s3.send(new PutBucketLifecycleConfigurationCommand({ Bucket: c, LifecycleConfiguration: { Rules } }));
      // A filter on object tags where the server evaluates them (RGW does; Coffer's S3 API refuses it, NotImplemented).
      const withTags = await put([plain, dated, markers, tagged]).then(
        () => true,
        (err: { name?: string }) => (err.name === 'NotImplemented' ? put([plain, dated, markers]).then(() => false) : Promise.reject(err)),
      );
      const before = (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: c }))).Rules ?? [];
      const shown = await f.backend.lifecycle(c);
      // RGW answers its rules ordered by ID, AWS and Coffer in the order put.
      const ordered = <T,>(pairs: [string | undefined, T][]) => [...pairs].sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : 1));
      expect(ordered(shown.rules.map((r) => [r.id, r.extras]))).toEqual(ordered([
        ['plain', []],
        ['dated', [{ kind: 'expirationDate', date: '2031-01-01T00:00:00.000Z' }]],
        ['markers', [{ kind: 'expiredDeleteMarkers' }]],
        ...(withTags ? [['tagged', [{ kind: 'tagFilter', key: 'class', value: 'scratch' }]] as [string, unknown]] : []),
      ]));
      expect(shown.rules.find((r) => r.id === 'tagged')?.prefix ?? 'c/').toBe('c/');

      // The plain rule edited, a new one added, the dated one kept, the markers one kept but turned off.
      const changes: LifecycleRuleChange[] = [
        fields('plain', 'a/', { expire: 9 }),
        { kind: 'keep', id: 'dated' },
        { kind: 'keep', id: 'markers', enabled: false },
        ...(withTags ? [{ kind: 'keep' as const, id: 'tagged' }] : []),
        fields('uploads', '', { abort: 1 }),
      ];
      await f.backend.setLifecycle(c, shown.basis, changes);
      const after = (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: c }))).Rules ?? [];
      const byId = (rules: LifecycleRule[], id: string) => rules.find((r) => r.ID === id);
      expect(byId(after, 'plain')?.Expiration).toEqual({ Days: 9 });
      expect(byId(after, 'dated')).toEqual(byId(before, 'dated'));
      expect(byId(after, 'markers')).toEqual({ ...byId(before, 'markers'), Status: 'Disabled' });
      if (withTags) expect(byId(after, 'tagged')).toEqual(byId(before, 'tagged'));
      expect(byId(after, 'uploads')?.AbortIncompleteMultipartUpload).toEqual({ DaysAfterInitiation: 1 });
      expect(after.map((r) => r.ID).sort()).toEqual(['dated', 'markers', 'plain', ...(withTags ? ['tagged'] : []), 'uploads']);
    });

    it("keeps AWS's own tags (aws:, as CloudFormation sets them) when the others are saved, as AWS demands", async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'containerTags');
      requireFixture(ctx, f.s3, 'no S3 client on this store to set such a tag with');
      const c = containerName('systags');
      await f.backend.createContainer(c);
      // Only AWS itself can set them there; a server that lets a client do it (RGW) stands in for one.
      const accepted = await f.s3!
        .send(new PutBucketTaggingCommand({ Bucket: c, Tagging: { TagSet: [{ Key: 'aws:cloudformation:stack-name', Value: 'stack' }, { Key: 'team', Value: 'a' }] } }))
        .then(
          () => true,
          (err: { name?: string }) => (err.name === 'InvalidTag' ? false : Promise.reject(err)),
        );
      requireFixture(ctx, accepted, 'this server lets no client set an aws: tag (as AWS)');
      const shown = await f.backend.tags(c);
      expect(shown.tags).toContainEqual({ key: 'aws:cloudformation:stack-name', value: 'stack' });
      const saved = await f.backend.setTags(c, shown.basis, [{ key: 'team', value: 'b' }]);
      expect(saved.tags.map((t) => `${t.key}=${t.value}`).sort()).toEqual(['aws:cloudformation:stack-name=stack', 'team=b']);
      const removed = await f.backend.setTags(c, saved.basis, []);
      expect(removed.tags).toEqual([{ key: 'aws:cloudformation:stack-name', value: 'stack' }]);
    });

    it('refuses a save over a change made elsewhere since the rules or tags were read, and changes nothing', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'lifecycle');
      const { backend } = f;
      const c = containerName('stale');
      await backend.createContainer(c);
      const first = await backend.lifecycle(c);
      const elsewhere = await backend.setLifecycle(c, first.basis, [fields('one', 'x/', { expire: 4 })]);
      await expectCode(backend.setLifecycle(c, first.basis, [fields('two', 'y/', { expire: 5 })]), 'PreconditionFailed');
      expect(await backend.lifecycle(c)).toEqual(elsewhere);
      // A rule kept by a save that no longer exists is refused too.
      await expectCode(backend.setLifecycle(c, elsewhere.basis, [{ kind: 'keep', id: 'gone' }]), 'PreconditionFailed');
      if (!backend.capabilities().containerTags) return;
      const tags = await backend.tags(c);
      const tagged = await backend.setTags(c, tags.basis, [{ key: 'a', value: '1' }]);
      await expectCode(backend.setTags(c, tags.basis, [{ key: 'b', value: '2' }]), 'PreconditionFailed');
      expect(await backend.tags(c)).toEqual(tagged);
    });

    it('passes on what the server refuses (a rule name used twice), and changes nothing', async (ctx) => {
      const f = get();
      requireFeature(ctx, f, 'lifecycle');
      const c = containerName('bad');
      await f.backend.createContainer(c);
      const { basis } = await f.backend.lifecycle(c);
      const err = await expectCode(f.backend.setLifecycle(c, basis, [fields('same', 'a/', { expire: 1 }), fields('same', 'b/', { expire: 2 })]), 'InvalidArgument');
      // AWS and Coffer say why; RGW 16.2 sends the code alone (its message is "UnknownError").
      if (f.backend.kind === 'local') expect(err.message).toMatch(/unique/i);
      expect((await f.backend.lifecycle(c)).rules).toEqual([]);
    });

    it('where the backend has no lifecycle rules or container tags, says why', async (ctx) => {
      const { backend } = get();
      const caps = backend.capabilities();
      requireFixture(ctx, !caps.lifecycle || !caps.containerTags, 'this backend has lifecycle rules and container tags');
      const c = containerName('none');
      await backend.createContainer(c);
      if (!caps.lifecycle) {
        expect(caps.why.lifecycle).toMatch(/\w+/);
        expect((await expectCode(backend.lifecycle(c), 'NotSupported')).message).toBe(caps.why.lifecycle);
        await expectCode(backend.setLifecycle(c, '', []), 'NotSupported');
      }
      if (!caps.containerTags) {
        expect(caps.why.containerTags).toMatch(/\w+/);
        expect((await expectCode(backend.tags(c), 'NotSupported')).message).toBe(caps.why.containerTags);
        await expectCode(backend.setTags(c, '', []), 'NotSupported');
      }
    });
  });
}
