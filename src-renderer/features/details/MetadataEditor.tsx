import { useId, useState, type FormEvent } from 'react';
import type { ObjectDetails, StandardHeaderValues } from '../../../src-shared/model/storage';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useSetMetadata } from '../../queries/use-object-ops';
import { FormActions, FormProblems } from '../common/Dialog';
import { KeyValueInputs, KeyValueTable, useKeyValueRows } from '../common/KeyValueRows';
import { validateMeta } from './metadata-rules';

const s = strings.metadataEditor;
const d = strings.details;

type Edited = 'contentDisposition' | 'cacheControl' | 'contentEncoding';
const EDITED: readonly Edited[] = ['contentDisposition', 'cacheControl', 'contentEncoding'];

/** The user metadata of one object, and the editor that replaces the whole set on save. */
export function MetadataSection({ account, container, details }: { account: string; container: string; details: ObjectDetails }) {
  const [editing, setEditing] = useState(false);
  const meta = Object.entries(details.meta).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return (
    <>
      <h3 className="details-subtitle">{d.metadata}</h3>
      {editing ? (
        <MetadataForm account={account} container={container} details={details} onDone={() => setEditing(false)} />
      ) : (
        <>
          {meta.length === 0 ? (
            <p className="muted">{d.noMetadata}</p>
          ) : (
            <KeyValueTable label={d.metadata} keyHeader={d.metaKey} valueHeader={d.metaValue} entries={meta} />
          )}
          <div className="details-actions">
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {s.edit}
            </button>
          </div>
        </>
      )}
    </>
  );
}

function MetadataForm({ account, container, details, onDone }: { account: string; container: string; details: ObjectDetails; onDone: () => void }) {
  const [contentType, setContentType] = useState(details.contentType);
  const [headers, setHeaders] = useState<Record<Edited, string>>({
    contentDisposition: details.headers.contentDisposition ?? '',
    cacheControl: details.headers.cacheControl ?? '',
    contentEncoding: details.headers.contentEncoding ?? '',
  });
  // The value is read in the handler: an updater that read e.target later (React may run it on a
  // rebase, after the input was restored to its last rendered value) could save the old value.
  const setHeader = (k: Edited, value: string) => setHeaders((h) => ({ ...h, [k]: value }));
  const editor = useKeyValueRows(() => Object.entries(details.meta).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const [problems, setProblems] = useState<string[]>([]);
  const save = useSetMetadata(account, container, details.name);
  const ids = { contentType: useId(), contentDisposition: useId(), cacheControl: useId(), contentEncoding: useId(), hint: useId() };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateMeta(editor.rows, contentType);
    setProblems(found);
    if (found.length > 0) return;
    // The whole set: headers not edited here (Content-Language, Expires) are kept as they were.
    const nextHeaders: StandardHeaderValues = { ...details.headers };
    for (const k of EDITED) {
      const v = headers[k].trim();
      if (v) nextHeaders[k] = v;
      else delete nextHeaders[k];
    }
    const meta = Object.fromEntries(editor.rows.map((r) => [r.key.trim().toLowerCase(), r.value]));
    save.mutate({ contentType: contentType.trim(), meta, headers: nextHeaders }, { onSuccess: onDone, onError: (err) => setProblems([errorMessage(err)]) });
  };

  return (
    <form className="form meta-form" aria-label={s.formLabel} onSubmit={submit} noValidate>
      <label htmlFor={ids.contentType}>{s.contentType}</label>
      <input id={ids.contentType} value={contentType} onChange={(e) => setContentType(e.target.value)} spellCheck={false} autoComplete="off" />
      {EDITED.map((k) => (
        <div key={k} className="form">
          <label htmlFor={ids[k]}>{s[k]}</label>
          <input id={ids[k]} value={headers[k]} onChange={(e) => setHeader(k, e.target.value)} spellCheck={false} autoComplete="off" />
        </div>
      ))}
      <fieldset className="meta-rows" aria-describedby={ids.hint}>
        <legend>{s.userMetadata}</legend>
        <KeyValueInputs editor={editor} labels={{ key: s.rowName, value: s.rowValue, remove: s.removeRow, add: s.addRow }} />
        <p id={ids.hint} className="hint">
          {s.limits}
        </p>
      </fieldset>
      <FormProblems label={s.problems} problems={problems} />
      <FormActions dismissLabel={strings.common.cancel} onDismiss={onDone} submitLabel={s.save} busyLabel={s.saving} busy={save.isPending} />
    </form>
  );
}
