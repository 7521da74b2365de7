import { z } from 'zod';
import { BUCKET_TAG_LIMITS, charCount, isSystemTag, LIFECYCLE_LIMITS, ruleActs, type LifecycleView, type TagsView } from '../model/container-settings.js';
import type { In } from './types.js';

const account = z.string().min(1).max(300);
const container = z.string().min(1).max(256);
const where = { account, container };
const basis = z.string().max(200);
const days = z.number().int().min(1).max(LIFECYCLE_LIMITS.maxDays).nullable();
const ruleId = z
  .string()
  .min(1)
  .refine((s) => charCount(s) <= LIFECYCLE_LIMITS.idChars, `A rule's name is at most ${LIFECYCLE_LIMITS.idChars} characters`);

const fieldsRule = z
  .object({
    kind: z.literal('fields'),
    id: ruleId,
    enabled: z.boolean(),
    prefix: z.string().max(LIFECYCLE_LIMITS.prefixChars),
    expirationDays: days,
    noncurrentDays: days,
    abortIncompleteDays: days,
  })
  .refine(ruleActs, 'A rule must do something: expire objects, earlier versions or unfinished uploads');
const keptRule = z.object({ kind: z.literal('keep'), id: z.string().min(1).max(1024), enabled: z.boolean().optional() });

const tag = z.object({
  key: z
    .string()
    .min(1)
    .refine((s) => charCount(s) <= BUCKET_TAG_LIMITS.keyChars, `A tag key is at most ${BUCKET_TAG_LIMITS.keyChars} characters`)
    .refine((s) => !isSystemTag(s), 'Tag keys starting with aws: are reserved by AWS'),
  value: z.string().refine((s) => charCount(s) <= BUCKET_TAG_LIMITS.valueChars, `A tag value is at most ${BUCKET_TAG_LIMITS.valueChars} characters`),
});

export const containersMethods = {
  /** The container's lifecycle rules (none: an empty list); NotSupported, saying why, where the backend has none. */
  lifecycle: z.object(where),
  /**
   * Replaces the rules with these, in order (none: the configuration is removed). Refused with
   * PreconditionFailed when the configuration is no longer the one `basis` names.
   */
  setLifecycle: z.object({
    ...where,
    basis,
    rules: z
      .array(z.discriminatedUnion('kind', [fieldsRule, keptRule]))
      .max(LIFECYCLE_LIMITS.rules)
      .refine((rs) => new Set(rs.map((r) => r.id)).size === rs.length, 'Each rule needs a name of its own'),
  }),
  /** The container's tags (none: an empty list). */
  tags: z.object(where),
  /** Replaces the tags (none: the tag set is removed), AWS's own (`aws:`) kept as they are; PreconditionFailed as setLifecycle's. */
  setTags: z.object({
    ...where,
    basis,
    tags: z
      .array(tag)
      .max(BUCKET_TAG_LIMITS.count)
      .refine((ts) => new Set(ts.map((t) => t.key)).size === ts.length, 'Each tag needs a key of its own'),
  }),
};

type M = typeof containersMethods;

/** A container's settings that S3 keeps beside its objects: lifecycle rules and tags. */
export interface ContainersService {
  lifecycle(a: In<M['lifecycle']>): Promise<LifecycleView>;
  setLifecycle(a: In<M['setLifecycle']>): Promise<LifecycleView>;
  tags(a: In<M['tags']>): Promise<TagsView>;
  setTags(a: In<M['setTags']>): Promise<TagsView>;
}
