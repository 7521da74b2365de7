// A remote bucket's lifecycle rules and tags through the SDK (Get/Put/DeleteBucketLifecycleConfiguration,
// Get/Put/DeleteBucketTagging). A rule the app cannot show in full is put back as the server gave it.
import {
  DeleteBucketLifecycleCommand,
  DeleteBucketTaggingCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketTaggingCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketTaggingCommand,
  type LifecycleRule,
  type S3Client,
  type Tag,
} from '@aws-sdk/client-s3';
import { isCofferError } from '../../src-shared/errors.js';
import { isSystemTag, type ContainerTag, type LifecycleExtra, type LifecycleRuleChange, type LifecycleRuleView, type LifecycleView, type TagsView } from '../../src-shared/model/container-settings.js';
import { basisOf, mergeRules, requireBasis, type RuleCodec } from './container-settings.js';
import type { SdkCall } from './remote-compat-errors.js';

const iso = (d: Date | undefined) => (d ? d.toISOString() : null);

/** The S3 error codes that mean "there is none" rather than a failure. */
function none(err: unknown, s3Code: string): boolean {
  return isCofferError(err) && (err.details as { s3Code?: string } | undefined)?.s3Code === s3Code;
}

/** A filter's tags and sizes, wherever the filter puts them (directly or under And). */
function filterExtras(r: LifecycleRule): LifecycleExtra[] {
  const f = r.Filter;
  if (!f) return [];
  const tags = [...(f.Tag ? [f.Tag] : []), ...(f.And?.Tags ?? [])];
  const gt = f.ObjectSizeGreaterThan ?? f.And?.ObjectSizeGreaterThan;
  const lt = f.ObjectSizeLessThan ?? f.And?.ObjectSizeLessThan;
  const extras: LifecycleExtra[] = tags.map((t) => ({ kind: 'tagFilter', key: t.Key ?? '', value: t.Value ?? '' }));
  if (gt !== undefined || lt !== undefined) extras.push({ kind: 'sizeFilter', greaterThan: gt ?? null, lessThan: lt ?? null });
  return extras;
}

/** Everything a rule does beyond the fields the app edits. */
function extrasOf(r: LifecycleRule): LifecycleExtra[] {
  const extras = filterExtras(r);
  if (r.Expiration?.Date) extras.push({ kind: 'expirationDate', date: r.Expiration.Date.toISOString() });
  if (r.Expiration?.ExpiredObjectDeleteMarker) extras.push({ kind: 'expiredDeleteMarkers' });
  const newer = r.NoncurrentVersionExpiration?.NewerNoncurrentVersions;
  if (newer !== undefined) extras.push({ kind: 'keepNewerNoncurrent', count: newer });
  for (const t of r.Transitions ?? []) extras.push({ kind: 'transition', storageClass: t.StorageClass ?? '', days: t.Days ?? null, date: iso(t.Date) });
  for (const t of r.NoncurrentVersionTransitions ?? []) extras.push({ kind: 'noncurrentTransition', storageClass: t.StorageClass ?? '', days: t.NoncurrentDays ?? null });
  return extras;
}

export function s3RuleView(r: LifecycleRule): LifecycleRuleView {
  return {
    id: r.ID ?? '',
    enabled: r.Status === 'Enabled',
    prefix: r.Filter?.Prefix ?? r.Filter?.And?.Prefix ?? r.Prefix ?? '',
    expirationDays: r.Expiration?.Days ?? null,
    noncurrentDays: r.NoncurrentVersionExpiration?.NoncurrentDays ?? null,
    abortIncompleteDays: r.AbortIncompleteMultipartUpload?.DaysAfterInitiation ?? null,
    extras: extrasOf(r),
  };
}

const codec: RuleCodec<LifecycleRule> = {
  id: (r) => r.ID,
  withEnabled: (r, enabled) => ({ ...r, Status: enabled ? 'Enabled' : 'Disabled' }),
  fromFields: (f) => ({
    ID: f.id,
    Status: f.enabled ? 'Enabled' : 'Disabled',
    Filter: { Prefix: f.prefix },
    ...(f.expirationDays !== null ? { Expiration: { Days: f.expirationDays } } : {}),
    ...(f.noncurrentDays !== null ? { NoncurrentVersionExpiration: { NoncurrentDays: f.noncurrentDays } } : {}),
    ...(f.abortIncompleteDays !== null ? { AbortIncompleteMultipartUpload: { DaysAfterInitiation: f.abortIncompleteDays } } : {}),
  }),
};

export class BucketSettings {
  constructor(
    private readonly client: S3Client,
    private readonly call: SdkCall,
  ) {}

  /** The rules as the server holds them; none (NoSuchLifecycleConfiguration) is an empty list. */
  private async rules(bucket: string): Promise<LifecycleRule[]> {
    try {
      return (await this.call(() => this.client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket })))).Rules ?? [];
    } catch (err) {
      if (none(err, 'NoSuchLifecycleConfiguration')) return [];
      throw err;
    }
  }

  async lifecycle(bucket: string): Promise<LifecycleView> {
    const rules = await this.rules(bucket);
    return { rules: rules.map(s3RuleView), basis: basisOf(rules) };
  }

  async setLifecycle(bucket: string, basis: string, changes: LifecycleRuleChange[]): Promise<LifecycleView> {
    const current = await this.rules(bucket);
    requireBasis(current, basis, 'lifecycle rules', bucket);
    const Rules = mergeRules(current, changes, codec);
    // S3 refuses an empty configuration: no rules is no configuration.
    if (Rules.length === 0) await this.call(() => this.client.send(new DeleteBucketLifecycleCommand({ Bucket: bucket })));
    else await this.call(() => this.client.send(new PutBucketLifecycleConfigurationCommand({ Bucket: bucket, LifecycleConfiguration: { Rules } })));
    return this.lifecycle(bucket);
  }

  /** The tag set as the server holds it; none (NoSuchTagSet) is an empty list. */
  private async tagSet(bucket: string): Promise<Tag[]> {
    try {
      return (await this.call(() => this.client.send(new GetBucketTaggingCommand({ Bucket: bucket })))).TagSet ?? [];
    } catch (err) {
      if (none(err, 'NoSuchTagSet') || none(err, 'NoSuchTagSetError')) return [];
      throw err;
    }
  }

  async tags(bucket: string): Promise<TagsView> {
    const set = await this.tagSet(bucket);
    return { tags: set.map((t) => ({ key: t.Key ?? '', value: t.Value ?? '' })), basis: basisOf(set) };
  }

  /**
   * Replaces the tags the user sets. AWS's own (`aws:`, e.g. CloudFormation's) are kept as they
   * are: the caller never sends them, and AWS refuses a tag set without them ("System Tags cannot
   * be removed by requester") as it refuses new ones.
   */
  async setTags(bucket: string, basis: string, tags: ContainerTag[]): Promise<TagsView> {
    const current = await this.tagSet(bucket);
    requireBasis(current, basis, 'tags', bucket);
    const system = current.filter((t) => isSystemTag(t.Key ?? ''));
    const TagSet = [...system, ...tags.filter((t) => !isSystemTag(t.key)).map((t) => ({ Key: t.key, Value: t.value }))];
    if (TagSet.length === 0) await this.call(() => this.client.send(new DeleteBucketTaggingCommand({ Bucket: bucket })));
    else await this.call(() => this.client.send(new PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet } })));
    return this.tags(bucket);
  }
}
