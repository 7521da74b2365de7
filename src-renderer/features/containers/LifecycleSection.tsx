import { useState } from 'react';
import type { LifecycleRuleChange, LifecycleRuleFields, LifecycleRuleView } from '../../../src-shared/model/container-settings';
import { errorCode, errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useLifecycle, useSetLifecycle } from '../../queries/use-container-settings';
import { useVersioning } from '../../queries/use-versions';
import { FormError } from '../common/Dialog';
import { Loading } from '../common/States';
import { changesFor, ruleSentences } from './lifecycle-words';
import { RuleDialog } from './RuleDialog';

const s = strings.lifecycle;

/**
 * A container's lifecycle rules in plain words, with add, edit, turn on/off and delete. Each
 * change saves the whole configuration at once; rules made with other tools that do more than
 * the app edits are shown read-only and kept as they are.
 */
export function LifecycleSection({ account, container }: { account: string; container: string }) {
  const { caps, query } = useLifecycle(account, container);
  const versioning = useVersioning(account, container).status;
  const save = useSetLifecycle(account, container);
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<LifecycleRuleView | 'new' | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const view = query.data;

  const apply = (changes: LifecycleRuleChange[], done?: () => void) => {
    if (!view) return;
    setProblem(null);
    save.mutate(
      { basis: view.basis, rules: changes },
      {
        onSuccess: () => done?.(),
        onError: (err) => setProblem(`${s.failed(errorMessage(err))}${errorCode(err) === 'PreconditionFailed' ? ` ${s.changedElsewhere}` : ''}`),
      },
    );
  };
  const saveRule = (original: string | null, rule: LifecycleRuleFields) => apply(changesFor(view!, { id: original, change: { kind: 'fields', ...rule } }), () => setEditing(null));

  if (caps && !caps.lifecycle) {
    return (
      <section aria-label={s.title}>
        <h3 className="details-subtitle">{s.title}</h3>
        <p className="muted">{caps.why.lifecycle}</p>
      </section>
    );
  }
  const versioned = versioning === 'enabled' || versioning === 'suspended';
  return (
    <section aria-label={s.title}>
      <h3 className="details-subtitle">{s.title}</h3>
      {query.isPending ? <Loading label={s.loading} /> : null}
      {query.isError ? <FormError problem={errorMessage(query.error)} /> : null}
      {view && view.rules.length === 0 ? <p className="muted">{s.none}</p> : null}
      {view && view.rules.length > 0 ? (
        <ul className="rule-list" aria-label={s.listLabel}>
          {view.rules.map((r) => (
            <li key={r.id} className={`rule${r.enabled ? '' : ' off'}`} aria-label={s.ruleName(r.id)}>
              <div className="rule-head">
                <span className="rule-name mono">{r.id}</span>
                {r.enabled ? null : (
                  <span className="badge" title={s.offHint}>
                    {s.off}
                  </span>
                )}
              </div>
              {ruleSentences(r, versioned).map((line) => (
                <p key={line} className="rule-words">
                  {line}
                </p>
              ))}
              {r.extras.length > 0 ? <p className="hint">{s.readOnly}</p> : null}
              {confirming === r.id ? (
                <div className="details-actions" role="group" aria-label={s.deleteRule(r.id)}>
                  <p className="rule-words">{s.confirmDelete(r.id)}</p>
                  <button type="button" className="button small danger" disabled={save.isPending} onClick={() => apply(changesFor(view, { id: r.id, change: null }), () => setConfirming(null))}>
                    {s.delete}
                  </button>
                  <button type="button" className="button small" onClick={() => setConfirming(null)}>
                    {s.keep}
                  </button>
                </div>
              ) : (
                <div className="details-actions">
                  {r.extras.length === 0 ? (
                    <button type="button" className="button small" aria-label={s.editRule(r.id)} onClick={() => setEditing(r)}>
                      {s.edit}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="button small"
                    aria-label={r.enabled ? s.turnOffRule(r.id) : s.turnOnRule(r.id)}
                    disabled={save.isPending}
                    onClick={() => apply(changesFor(view, { id: r.id, change: { kind: 'keep', id: r.id, enabled: !r.enabled } }))}
                  >
                    {r.enabled ? s.turnOff : s.turnOn}
                  </button>
                  <button type="button" className="button small" aria-label={s.deleteRule(r.id)} onClick={() => setConfirming(r.id)}>
                    {s.delete}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <FormError problem={editing ? null : problem} />
      {view ? (
        <div className="details-actions">
          <button type="button" className="button" onClick={() => (setProblem(null), setEditing('new'))}>
            {s.add}
          </button>
        </div>
      ) : null}
      {editing && view ? (
        <RuleDialog
          rule={editing === 'new' ? null : editing}
          taken={view.rules.map((r) => r.id).filter((id) => editing === 'new' || id !== editing.id)}
          versioned={versioned}
          busy={save.isPending}
          problem={problem}
          onSave={(rule) => saveRule(editing === 'new' ? null : editing.id, rule)}
          onClose={() => (setProblem(null), setEditing(null))}
        />
      ) : null}
    </section>
  );
}
