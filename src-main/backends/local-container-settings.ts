// The local backend's lifecycle rules and container tags, straight through the engine: the same
// rules and the same checks as the S3 API's PutBucketLifecycleConfiguration and PutBucketTagging.
import { CofferError } from '../../src-shared/errors.js';
import { isSystemTag, type ContainerTag, type LifecycleExtra, type LifecycleRuleChange, type LifecycleRuleView, type LifecycleView, type TagsView } from '../../src-shared/model/container-settings.js';
import { lifecycleProblem, type ContainerRef, type Engine, type LifecycleRule } from '../engine/index.js';
import { basisOf, mergeRules, requireBasis, type RuleCodec } from './container-settings.js';

/** What an engine rule does beyond the fields the app edits. */
function extrasOf(r: LifecycleRule): LifecycleExtra[] {
  const extras: LifecycleExtra[] = [];
  if (r.expirationDate !== undefined) extras.push({ kind: 'expirationDate', date: new Date(r.expirationDate).toISOString() });
  if (r.expiredObjectDeleteMarker) extras.push({ kind: 'expiredDeleteMarkers' });
  if (r.newerNoncurrentVersions !== undefined) extras.push({ kind: 'keepNewerNoncurrent', count: r.newerNoncurrentVersions });
  for (const t of r.tags ?? []) extras.push({ kind: 'tagFilter', key: t.key, value: t.value });
  if (r.objectSizeGreaterThan !== undefined || r.objectSizeLessThan !== undefined) {
    extras.push({ kind: 'sizeFilter', greaterThan: r.objectSizeGreaterThan ?? null, lessThan: r.objectSizeLessThan ?? null });
  }
  return extras;
}

export function localRuleView(r: LifecycleRule): LifecycleRuleView {
  return {
    id: r.id,
    enabled: r.enabled,
    prefix: r.prefix,
    expirationDays: r.expirationDays ?? null,
    noncurrentDays: r.noncurrentDays ?? null,
    abortIncompleteDays: r.abortIncompleteDays ?? null,
    extras: extrasOf(r),
  };
}

const codec: RuleCodec<LifecycleRule> = {
  id: (r) => r.id,
  withEnabled: (r, enabled) => ({ ...r, enabled }),
  // Written as the AWS console writes a rule: <Filter><Prefix>…</Prefix></Filter>.
  fromFields: (f) => ({
    id: f.id,
    enabled: f.enabled,
    prefix: f.prefix,
    filterForm: 'filter-prefix',
    ...(f.expirationDays !== null ? { expirationDays: f.expirationDays } : {}),
    ...(f.noncurrentDays !== null ? { noncurrentDays: f.noncurrentDays } : {}),
    ...(f.abortIncompleteDays !== null ? { abortIncompleteDays: f.abortIncompleteDays } : {}),
  }),
};

const lifecycleView = (rules: LifecycleRule[] | undefined): LifecycleView => ({ rules: (rules ?? []).map(localRuleView), basis: basisOf(rules ?? []) });

export function localLifecycle(engine: Engine, ref: ContainerRef): LifecycleView {
  return lifecycleView(engine.getContainer(ref).lifecycle);
}

export async function setLocalLifecycle(engine: Engine, ref: ContainerRef, basis: string, changes: LifecycleRuleChange[]): Promise<LifecycleView> {
  const current = engine.getContainer(ref).lifecycle ?? [];
  requireBasis(current, basis, 'lifecycle rules', ref.container);
  const rules = mergeRules(current, changes, codec);
  if (rules.length > 0) {
    const problem = lifecycleProblem(rules);
    if (problem) throw new CofferError('InvalidArgument', problem.message);
  }
  await engine.updateContainer(ref, { lifecycle: rules.length > 0 ? rules : null });
  return localLifecycle(engine, ref);
}

const tagsView = (tags: ContainerTag[] | undefined): TagsView => ({ tags: (tags ?? []).map((t) => ({ key: t.key, value: t.value })), basis: basisOf(tags ?? []) });

export function localTags(engine: Engine, ref: ContainerRef): TagsView {
  return tagsView(engine.getContainer(ref).tags);
}

export async function setLocalTags(engine: Engine, ref: ContainerRef, basis: string, tags: ContainerTag[]): Promise<TagsView> {
  const current = engine.getContainer(ref).tags ?? [];
  requireBasis(current, basis, 'tags', ref.container);
  // AWS's own tags stay as they are, as on a remote bucket (the engine lets no client set them).
  const next = [...current.filter((t) => isSystemTag(t.key)), ...tags.filter((t) => !isSystemTag(t.key))];
  await engine.updateContainer(ref, { tags: next.length > 0 ? next : null });
  return localTags(engine, ref);
}
