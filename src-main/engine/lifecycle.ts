/**
 * Bucket lifecycle rules (S3 PutBucketLifecycleConfiguration): what a rule may say, whether a set
 * of rules is acceptable, and when a rule makes an object, a noncurrent version or an unfinished
 * upload due. Pure: the sweep that acts on it is ops/lifecycle-sweep.ts, the XML is the S3 front
 * end's.
 */

import type { Tag } from './types.js';

/**
 * How a rule named the objects it covers, kept so GetBucketLifecycleConfiguration answers what
 * was put: a legacy Prefix, a Filter that is empty or holds one condition (Prefix, Tag or a
 * size bound, whichever the rule has), or a Filter's And of several.
 */
export type LifecycleFilterForm = 'prefix' | 'filter' | 'filter-prefix' | 'filter-and';

export interface LifecycleRule {
  id: string;
  enabled: boolean;
  /** The key prefix the rule covers ('' for every object). */
  prefix: string;
  filterForm: LifecycleFilterForm;
  /** Only objects carrying every one of these tags (key and value). */
  tags?: Tag[];
  /** Only objects of more than this many bytes... */
  objectSizeGreaterThan?: number;
  /** ...and of fewer than this many. */
  objectSizeLessThan?: number;
  /** Expire current versions this many days after they were written... */
  expirationDays?: number;
  /** ...or at this moment (milliseconds since the epoch, always a UTC midnight). */
  expirationDate?: number;
  /** Remove a delete marker that has no versions left behind it. */
  expiredObjectDeleteMarker?: boolean;
  /** Remove a version this many days after it stopped being current... */
  noncurrentDays?: number;
  /** ...keeping this many of the newest noncurrent versions whatever their age. */
  newerNoncurrentVersions?: number;
  /** Abort a multipart upload this many days after it was started. */
  abortIncompleteDays?: number;
}

export const DAY_MS = 86_400_000;
export const MAX_LIFECYCLE_RULES = 1000;
const MAX_RULE_ID = 255;

/** The S3 code and words for a rule set AWS refuses (its own messages). */
export interface LifecycleProblem {
  code: 'InvalidArgument' | 'InvalidRequest' | 'MalformedXML';
  message: string;
}

const positive = (n: number | undefined) => n === undefined || (Number.isInteger(n) && n > 0);

/** What AWS says about a rule set it refuses, checked in the order AWS checks (undefined: acceptable). */
export function lifecycleProblem(rules: LifecycleRule[]): LifecycleProblem | undefined {
  if (rules.length === 0 || rules.length > MAX_LIFECYCLE_RULES) return { code: 'MalformedXML', message: 'The XML you provided was not well-formed or did not validate against our published schema.' };
  const ids = new Set<string>();
  for (const r of rules) {
    if (r.id.length > MAX_RULE_ID) return { code: 'InvalidArgument', message: 'ID length should not exceed allowed limit of 255' };
    if (ids.has(r.id)) return { code: 'InvalidArgument', message: 'Rule ID must be unique. Found same ID for more than one rule' };
    ids.add(r.id);
    const acts = [r.expirationDays, r.expirationDate, r.expiredObjectDeleteMarker, r.noncurrentDays, r.abortIncompleteDays].some((v) => v !== undefined);
    if (!acts) return { code: 'InvalidRequest', message: 'At least one action needs to be specified in a rule' };
    if (!positive(r.expirationDays)) return { code: 'InvalidArgument', message: "'Days' for Expiration action must be a positive integer" };
    if (r.expirationDate !== undefined && r.expirationDate % DAY_MS !== 0) return { code: 'InvalidArgument', message: "'Date' must be at midnight GMT" };
    if (!positive(r.noncurrentDays)) return { code: 'InvalidArgument', message: "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer" };
    if (!positive(r.newerNoncurrentVersions)) return { code: 'InvalidArgument', message: "'NewerNoncurrentVersions' for NoncurrentVersionExpiration action must be a positive integer" };
    if (!positive(r.abortIncompleteDays)) return { code: 'InvalidArgument', message: "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer" };
    const tagProblem = r.tags && tagFilterProblem(r);
    if (tagProblem) return tagProblem;
  }
  return undefined;
}

/** AWS's refusals of a tag filter: a key twice; a tag on uploads (which carry no tags to match) or on delete markers. */
function tagFilterProblem(r: LifecycleRule): LifecycleProblem | undefined {
  const keys = new Set(r.tags!.map((t) => t.key));
  if (keys.size !== r.tags!.length) return { code: 'InvalidRequest', message: 'Duplicate Tag Keys are not allowed.' };
  if (r.abortIncompleteDays !== undefined) return { code: 'InvalidRequest', message: 'AbortIncompleteMultipartUpload cannot be specified with Tags.' };
  if (r.expiredObjectDeleteMarker) return { code: 'InvalidRequest', message: 'ExpiredObjectDeleteMarker cannot be specified with Tags.' };
  return undefined;
}

/** The moment `days` lifecycle days after `fromMs`, rounded up to the next day boundary (AWS: the next midnight UTC). */
export function afterDays(fromMs: number, days: number, dayMs: number): number {
  return Math.ceil((fromMs + days * dayMs) / dayMs) * dayMs;
}

/** What a rule's filter looks at besides the name: a version's tags and size (absent for a delete marker or an upload). */
export interface FilterFacts {
  tags?: readonly Tag[] | undefined;
  size?: number | undefined;
}

/** Whether a rule covers a version: its prefix, every tag the rule names (key and value), and the size bounds. */
function covers(r: LifecycleRule, name: string, facts: FilterFacts = {}): boolean {
  if (!r.enabled || !name.startsWith(r.prefix)) return false;
  if (r.tags?.some((want) => !facts.tags?.some((t) => t.key === want.key && t.value === want.value))) return false;
  if (r.objectSizeGreaterThan !== undefined && !(facts.size !== undefined && facts.size > r.objectSizeGreaterThan)) return false;
  if (r.objectSizeLessThan !== undefined && !(facts.size !== undefined && facts.size < r.objectSizeLessThan)) return false;
  return true;
}

/**
 * When the current version of `name`, written at `mtimeMs` (with `facts`' tags and size), expires
 * and by which rule: the earliest of the enabled rules covering it (what `x-amz-expiration` tells and the sweep acts on).
 */
export function currentExpiry(rules: readonly LifecycleRule[] | undefined, name: string, mtimeMs: number, dayMs: number, facts?: FilterFacts): { at: number; ruleId: string } | undefined {
  let best: { at: number; ruleId: string } | undefined;
  for (const r of rules ?? []) {
    if (!covers(r, name, facts)) continue;
    const at = r.expirationDays !== undefined ? afterDays(mtimeMs, r.expirationDays, dayMs) : r.expirationDate;
    if (at !== undefined && (!best || at < best.at)) best = { at, ruleId: r.id };
  }
  return best;
}

/**
 * Whether a noncurrent version is due: `noncurrentSinceMs` is when the next newer version was
 * written, `newerNoncurrent` how many noncurrent versions of the name are newer than it.
 */
export function noncurrentDue(rules: readonly LifecycleRule[], name: string, noncurrentSinceMs: number, newerNoncurrent: number, nowMs: number, dayMs: number, facts?: FilterFacts): boolean {
  return rules.some(
    (r) =>
      covers(r, name, facts) &&
      r.noncurrentDays !== undefined &&
      newerNoncurrent >= (r.newerNoncurrentVersions ?? 0) &&
      afterDays(noncurrentSinceMs, r.noncurrentDays, dayMs) <= nowMs,
  );
}

/** Whether a lone delete marker of `name` is to be removed. */
export function deleteMarkerDue(rules: readonly LifecycleRule[], name: string): boolean {
  return rules.some((r) => covers(r, name) && r.expiredObjectDeleteMarker === true);
}

/** Whether an upload of `name` started at `initiatedMs` is to be aborted. */
export function uploadDue(rules: readonly LifecycleRule[], name: string, initiatedMs: number, nowMs: number, dayMs: number): boolean {
  return rules.some((r) => covers(r, name) && r.abortIncompleteDays !== undefined && afterDays(initiatedMs, r.abortIncompleteDays, dayMs) <= nowMs);
}
