import { useId, useState, type FormEvent } from 'react';
import type { LifecycleRuleFields } from '../../../src-shared/model/container-settings';
import { strings } from '../../app/strings';
import { Dialog, FormActions, FormError, FormProblems } from '../common/Dialog';
import { draftOf, ruleFromDraft, ruleSentences, suggestId, type RuleDraft } from './lifecycle-words';

const s = strings.lifecycle;
const d = s.dialog;

type DayField = 'expirationDays' | 'noncurrentDays' | 'abortIncompleteDays';
const DAY_FIELDS: readonly [DayField, string][] = [
  ['expirationDays', d.expire],
  ['noncurrentDays', d.noncurrent],
  ['abortIncompleteDays', d.abort],
];

/** A new rule, or one of the rules the app edits in full: its name, the objects it covers, what it does and when; what it says in words as it is typed. */
export function RuleDialog(p: {
  rule: LifecycleRuleFields | null;
  taken: readonly string[];
  versioned: boolean;
  busy: boolean;
  /** The server's answer to the last save. */
  problem: string | null;
  onSave: (rule: LifecycleRuleFields) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<RuleDraft>(() => draftOf(p.rule, suggestId(p.taken)));
  const [problems, setProblems] = useState<string[]>([]);
  const ids = { name: useId(), prefix: useId(), prefixHint: useId(), hint: useId(), scope: useId(), expirationDays: useId(), noncurrentDays: useId(), abortIncompleteDays: useId() };
  const set = (patch: Partial<RuleDraft>) => setDraft((x) => ({ ...x, ...patch }));
  const made = ruleFromDraft(draft, p.taken);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if ('problems' in made) return setProblems(made.problems);
    setProblems([]);
    p.onSave(made.rule);
  };
  return (
    <Dialog title={p.rule ? d.editTitle(p.rule.id) : d.addTitle} onClose={p.onClose} className="rule-dialog">
      <form className="form" onSubmit={submit} noValidate>
        <label htmlFor={ids.name}>{d.name}</label>
        <input id={ids.name} value={draft.id} onChange={(e) => set({ id: e.target.value })} spellCheck={false} autoComplete="off" data-autofocus />
        <fieldset className="rule-scope" aria-labelledby={ids.scope}>
          <legend id={ids.scope}>{d.scope}</legend>
          <label className="check">
            <input type="radio" name="scope" checked={!draft.everything} onChange={() => set({ everything: false })} /> {d.underPrefix}
          </label>
          <input
            id={ids.prefix}
            aria-label={d.prefix}
            aria-describedby={ids.prefixHint}
            value={draft.prefix}
            placeholder="logs/"
            disabled={draft.everything}
            onChange={(e) => set({ prefix: e.target.value })}
            spellCheck={false}
            autoComplete="off"
          />
          <p id={ids.prefixHint} className="hint">
            {d.prefixHint}
          </p>
          <label className="check">
            <input type="radio" name="scope" checked={draft.everything} onChange={() => set({ everything: true })} /> {d.everything}
          </label>
        </fieldset>
        {DAY_FIELDS.map(([field, label]) => (
          <div key={field} className="form">
            <label htmlFor={ids[field]}>{label}</label>
            <input id={ids[field]} inputMode="numeric" value={draft[field]} onChange={(e) => set({ [field]: e.target.value })} autoComplete="off" aria-describedby={ids.hint} />
          </div>
        ))}
        <p id={ids.hint} className="hint">
          {d.daysHint}
        </p>
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> {d.enabled}
        </label>
        {'rule' in made ? (
          <div className="rule-preview" aria-label={d.preview} role="group">
            {ruleSentences(made.rule, p.versioned).map((line) => (
              <p key={line} className="rule-words">
                {line}
              </p>
            ))}
          </div>
        ) : null}
        {problems.length > 0 ? <FormProblems label={d.problems} problems={problems} /> : <FormError problem={p.problem} />}
        <FormActions dismissLabel={strings.common.cancel} onDismiss={p.onClose} submitLabel={d.save} busyLabel={s.saving} busy={p.busy} />
      </form>
    </Dialog>
  );
}
