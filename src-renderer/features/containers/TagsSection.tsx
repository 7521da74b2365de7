import { useState, type FormEvent } from 'react';
import { isSystemTag, type TagsView } from '../../../src-shared/model/container-settings';
import { errorCode, errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useContainerTags, useSetContainerTags } from '../../queries/use-container-settings';
import { FormActions, FormError, FormProblems } from '../common/Dialog';
import { KeyValueInputs, KeyValueTable, useKeyValueRows } from '../common/KeyValueRows';
import { Loading } from '../common/States';
import { tagProblems } from './tag-rules';

const s = strings.containerTags;

/** A container's tags, and the editor that replaces the whole set on save. */
export function TagsSection({ account, container }: { account: string; container: string }) {
  const { caps, query } = useContainerTags(account, container);
  const [editing, setEditing] = useState(false);
  // Why the editor closed without saving (the tags changed elsewhere meanwhile).
  const [notice, setNotice] = useState<string | null>(null);
  if (caps && !caps.containerTags) {
    return (
      <section aria-label={s.title}>
        <h3 className="details-subtitle">{s.title}</h3>
        <p className="muted">{caps.why.containerTags}</p>
      </section>
    );
  }
  const view = query.data;
  return (
    <section aria-label={s.title}>
      <h3 className="details-subtitle">{s.title}</h3>
      {query.isPending ? <Loading label={s.loading} /> : null}
      {query.isError ? <FormError problem={errorMessage(query.error)} /> : null}
      {view && editing ? <TagsForm account={account} container={container} view={view} onDone={(why) => (setNotice(why ?? null), setEditing(false))} /> : null}
      {view && !editing ? (
        <>
          {view.tags.length === 0 ? (
            <p className="muted">{s.none}</p>
          ) : (
            <KeyValueTable label={s.title} keyHeader={s.key} valueHeader={s.value} entries={view.tags.map((t) => [t.key, t.value] as const)} />
          )}
          <FormError problem={notice} />
          <div className="details-actions">
            <button type="button" className="button" onClick={() => (setNotice(null), setEditing(true))}>
              {s.edit}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}

function TagsForm({ account, container, view, onDone }: { account: string; container: string; view: TagsView; onDone: (why?: string) => void }) {
  // AWS's own tags are shown, not edited: the save keeps them.
  const system = view.tags.filter((t) => isSystemTag(t.key));
  const editor = useKeyValueRows(() => view.tags.filter((t) => !isSystemTag(t.key)).map((t) => [t.key, t.value]));
  const [problems, setProblems] = useState<string[]>([]);
  const save = useSetContainerTags(account, container);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Keys as typed but for the spaces around them; an empty row is no tag.
    const tags = editor.rows.map((r) => ({ key: r.key.trim(), value: r.value })).filter((t) => t.key !== '' || t.value !== '');
    const found = tagProblems(tags, system.length);
    setProblems(found);
    if (found.length > 0) return;
    save.mutate(
      { basis: view.basis, tags },
      {
        onSuccess: () => onDone(),
        onError: (err) => {
          if (errorCode(err) === 'PreconditionFailed') onDone(`${errorMessage(err)} ${s.changedElsewhere}`);
          else setProblems([errorMessage(err)]);
        },
      },
    );
  };
  return (
    <form className="form meta-form" aria-label={s.formLabel} onSubmit={submit} noValidate>
      <fieldset className="meta-rows">
        <legend>{s.title}</legend>
        {system.length > 0 ? (
          <ul className="system-tags" aria-label={s.system}>
            {system.map((t) => (
              <li key={t.key} className="mono wrap">
                {t.key} = {t.value}
              </li>
            ))}
          </ul>
        ) : null}
        {system.length > 0 ? <p className="hint">{s.systemHint}</p> : null}
        <KeyValueInputs editor={editor} labels={{ key: (n) => s.rowKey(String(n)), value: (n) => s.rowValue(String(n)), remove: (n) => s.removeRow(String(n)), add: s.add }} />
        <p className="hint">{s.limits}</p>
      </fieldset>
      <FormProblems label={s.problems} problems={problems} />
      <FormActions dismissLabel={strings.common.cancel} onDismiss={() => onDone()} submitLabel={s.save} busyLabel={s.saving} busy={save.isPending} />
    </form>
  );
}
