// A lifecycle rule in plain words, and the checks of the rule dialog: pure, so both are tested
// without a page.
import { charCount, LIFECYCLE_LIMITS, type LifecycleExtra, type LifecycleRuleChange, type LifecycleRuleFields, type LifecycleRuleView, type LifecycleView } from '../../../src-shared/model/container-settings';
import { formatBytes, formatCount, formatUtcDay } from '../../app/format';
import { strings } from '../../app/strings';

const w = strings.lifecycle.sentence;
const d = strings.lifecycle.dialog;

function extraWords(prefix: string, e: LifecycleExtra): string {
  switch (e.kind) {
    case 'expirationDate':
      return w.expireOn(prefix, formatUtcDay(e.date));
    case 'expiredDeleteMarkers':
      return w.deleteMarkers(prefix);
    case 'keepNewerNoncurrent':
      return w.keepNewer(formatCount(e.count));
    case 'tagFilter':
      return w.tagFilter(e.key, e.value);
    case 'sizeFilter':
      return [e.greaterThan !== null ? w.larger(formatBytes(e.greaterThan)) : '', e.lessThan !== null ? w.smaller(formatBytes(e.lessThan)) : ''].filter(Boolean).join(' ');
    case 'transition':
      return w.transition(prefix, e.storageClass, e.days !== null ? w.transitionAfter(formatCount(e.days)) : w.transitionOn(formatUtcDay(e.date ?? '')));
    case 'noncurrentTransition':
      return w.noncurrentTransition(prefix, e.storageClass, formatCount(e.days));
    case 'unknown':
      return w.unknown(e.name);
  }
}

/** What a rule does, one sentence per action or filter ("Objects under logs/ are deleted 30 days after upload."). */
export function ruleSentences(r: Pick<LifecycleRuleView, 'prefix' | 'expirationDays' | 'noncurrentDays' | 'abortIncompleteDays'> & { extras?: LifecycleExtra[] }, versioned: boolean): string[] {
  const out: string[] = [];
  // Filters first: they narrow every sentence after them.
  const extras = r.extras ?? [];
  const isFilter = (e: LifecycleExtra) => e.kind === 'tagFilter' || e.kind === 'sizeFilter';
  out.push(...extras.filter(isFilter).map((e) => extraWords(r.prefix, e)));
  if (r.expirationDays !== null) out.push((versioned ? w.expireVersioned : w.expire)(r.prefix, formatCount(r.expirationDays)));
  if (r.noncurrentDays !== null) out.push(w.noncurrent(r.prefix, formatCount(r.noncurrentDays)));
  if (r.abortIncompleteDays !== null) out.push(w.abort(r.prefix, formatCount(r.abortIncompleteDays)));
  out.push(...extras.filter((e) => !isFilter(e)).map((e) => extraWords(r.prefix, e)));
  return out;
}

/** The rule dialog's fields as typed. */
export interface RuleDraft {
  id: string;
  everything: boolean;
  prefix: string;
  expirationDays: string;
  noncurrentDays: string;
  abortIncompleteDays: string;
  enabled: boolean;
}

export function draftOf(r: LifecycleRuleFields | null, suggestedId: string): RuleDraft {
  const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
  return {
    id: r?.id ?? suggestedId,
    everything: r ? r.prefix === '' : false,
    prefix: r?.prefix ?? '',
    expirationDays: text(r?.expirationDays),
    noncurrentDays: text(r?.noncurrentDays),
    abortIncompleteDays: text(r?.abortIncompleteDays),
    enabled: r?.enabled ?? true,
  };
}

/** '' is "not this action"; anything else must be a whole number of days from 1. */
function daysOf(text: string): number | null | undefined {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= LIFECYCLE_LIMITS.maxDays ? n : undefined;
}

/** The rule a draft makes, or what is wrong with it; `taken` are the other rules' names. */
export function ruleFromDraft(draft: RuleDraft, taken: readonly string[]): { rule: LifecycleRuleFields } | { problems: string[] } {
  const problems: string[] = [];
  const id = draft.id.trim();
  if (id === '') problems.push(d.nameMissing);
  else if (charCount(id) > LIFECYCLE_LIMITS.idChars) problems.push(d.nameTooLong);
  else if (taken.includes(id)) problems.push(d.nameTaken(id));
  const prefix = draft.everything ? '' : draft.prefix;
  if (!draft.everything && prefix === '') problems.push(d.prefixMissing);
  const expirationDays = daysOf(draft.expirationDays);
  const noncurrentDays = daysOf(draft.noncurrentDays);
  const abortIncompleteDays = daysOf(draft.abortIncompleteDays);
  if (expirationDays === undefined) problems.push(d.badDays(d.expire));
  if (noncurrentDays === undefined) problems.push(d.badDays(d.noncurrent));
  if (abortIncompleteDays === undefined) problems.push(d.badDays(d.abort));
  if (expirationDays === null && noncurrentDays === null && abortIncompleteDays === null) problems.push(d.nothing);
  if (problems.length > 0 || expirationDays === undefined || noncurrentDays === undefined || abortIncompleteDays === undefined) return { problems };
  return { rule: { id, enabled: draft.enabled, prefix, expirationDays, noncurrentDays, abortIncompleteDays } };
}

/** A name for a new rule that no other rule has ("rule-1", "rule-2", …). */
export function suggestId(taken: readonly string[]): string {
  for (let i = 1; ; i++) if (!taken.includes(`rule-${i}`)) return `rule-${i}`;
}

/** Every rule as it is, but `id` changed as asked (null: deleted; fields: edited or added at the end). */
export function changesFor(view: LifecycleView, target: { id: string | null; change: LifecycleRuleChange | null }): LifecycleRuleChange[] {
  const out: LifecycleRuleChange[] = [];
  for (const r of view.rules) {
    if (r.id !== target.id) out.push({ kind: 'keep', id: r.id });
    else if (target.change) out.push(target.change);
  }
  if (target.id === null && target.change) out.push(target.change);
  return out;
}
