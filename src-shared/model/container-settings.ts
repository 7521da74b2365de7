/**
 * A container's lifecycle rules and tags as the app shows and edits them (S3 bucket lifecycle and
 * bucket tagging). JSON-safe. The app edits the common part of a rule (prefix, expiry of current
 * and of earlier versions, unfinished uploads, on/off); a rule that says more is shown read-only
 * and kept exactly as the server holds it when other rules are saved.
 */

/** What the app edits in a rule. Days are whole days, at least 1; null: the rule does not do that. */
export interface LifecycleRuleFields {
  /** The rule's name (S3's ID), unique in the container. */
  id: string;
  enabled: boolean;
  /** The objects covered: names starting with this ('' covers every object). */
  prefix: string;
  /** Delete objects this many days after they were written (in a versioned container: hide them behind a delete marker). */
  expirationDays: number | null;
  /** Remove earlier versions this many days after a newer one replaced them. */
  noncurrentDays: number | null;
  /** Abort unfinished multipart uploads this many days after they started. */
  abortIncompleteDays: number | null;
}

/** Something a rule does or filters on that the app does not edit: shown in words, kept as it is. */
export type LifecycleExtra =
  | { kind: 'expirationDate'; date: string }
  | { kind: 'expiredDeleteMarkers' }
  | { kind: 'keepNewerNoncurrent'; count: number }
  | { kind: 'tagFilter'; key: string; value: string }
  | { kind: 'sizeFilter'; greaterThan: number | null; lessThan: number | null }
  | { kind: 'transition'; storageClass: string; days: number | null; date: string | null }
  | { kind: 'noncurrentTransition'; storageClass: string; days: number | null }
  /** Anything else the server sent (its element name): the app cannot say what it does. */
  | { kind: 'unknown'; name: string };

export interface LifecycleRuleView extends LifecycleRuleFields {
  /** What else the rule says. Not empty: the rule is read-only in the app (it can still be turned on or off, or deleted). */
  extras: LifecycleExtra[];
}

export interface LifecycleView {
  rules: LifecycleRuleView[];
  /**
   * A fingerprint of the configuration as the server held it when read. A save names the one
   * it started from, and is refused (PreconditionFailed) when the configuration changed since:
   * S3 replaces the whole configuration, so a save over a change made elsewhere would undo it.
   */
  basis: string;
}

/**
 * One rule of a save, in order: written from the fields (a new or edited rule), or kept as the
 * server holds it (`keep`, by id: a rule the app cannot show in full, or one left untouched),
 * maybe turned on or off. A rule of the configuration not named is deleted.
 */
export type LifecycleRuleChange = ({ kind: 'fields' } & LifecycleRuleFields) | { kind: 'keep'; id: string; enabled?: boolean };

export interface ContainerTag {
  key: string;
  value: string;
}

export interface TagsView {
  /** Every tag, AWS's own (`aws:`) included: those are read-only, and kept when the others are saved. */
  tags: ContainerTag[];
  /** As LifecycleView's: a save over a change made elsewhere is refused. */
  basis: string;
}

/** AWS's limits on a bucket's tags: 50 tags, keys of 1-128 and values of up to 256 Unicode characters; `aws:` is AWS's own. */
export const BUCKET_TAG_LIMITS = { count: 50, keyChars: 128, valueChars: 256 } as const;
/** AWS's limits on a lifecycle configuration: 1,000 rules, ids of up to 255 characters. */
export const LIFECYCLE_LIMITS = { rules: 1000, idChars: 255, prefixChars: 1024, maxDays: 2_147_483_647 } as const;

/** AWS's own tags (`aws:…`, e.g. CloudFormation's): shown, never set or removed by the app, kept on every save. */
export const isSystemTag = (key: string) => key.toLowerCase().startsWith('aws:');

/** Length in Unicode characters (code points), as AWS counts tag and rule limits. */
export const charCount = (s: string) => [...s].length;

/** Whether a rule does anything (S3 refuses a rule without an action). */
export function ruleActs(r: Pick<LifecycleRuleFields, 'expirationDays' | 'noncurrentDays' | 'abortIncompleteDays'>): boolean {
  return r.expirationDays !== null || r.noncurrentDays !== null || r.abortIncompleteDays !== null;
}
