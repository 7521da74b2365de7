import { useId, useState, type FormEvent } from 'react';
import type { ConnectionInfo } from '../../../src-shared/model/connections';
import { errorMessage } from '../../app/errors';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useConnectionSettings, useSaveConnection, useTestConnection } from '../../queries/use-accounts';
import { useLocalStatus } from '../../queries/use-local-store';
import { Dialog, FormError } from '../common/Dialog';
import { Loading } from '../common/States';
import { ConnectionFields } from './ConnectionFields';
import { emptyForm, formFrom, toConfig, toEdit, type ConnectionForm } from './form';
import { TextField } from './TextField';
import './connections.css';

const s = strings.connections;

type Outcome = { ok: true; text: string } | { ok: false; text: string } | null;

/**
 * Adds a remote connection, or edits one. Editing starts from the saved settings, every one but
 * the secrets (they never come back from the main process): a secret left empty keeps the saved one.
 */
export function ConnectionDialog({ connection, onClose, onRemove }: { connection: ConnectionInfo | null; onClose: () => void; onRemove: () => void }) {
  const settings = useConnectionSettings(connection?.id ?? null);
  if (connection && settings.isPending) {
    return (
      <Dialog title={s.editTitle} onClose={onClose}>
        <Loading label={s.loadingSettings} />
      </Dialog>
    );
  }
  // Saved settings that cannot be read (their keyring is gone) are entered again, secrets included.
  const initial = !connection
    ? emptyForm()
    : settings.data
      ? formFrom(connection.name, settings.data)
      : emptyForm(connection.kind === 'swift' ? 'swift' : 's3', connection.name, connection.endpoint);
  const unreadable = settings.isError ? s.settingsUnreadable(errorMessage(settings.error)) : null;
  return <ConnectionFormDialog connection={connection} initial={initial} keptSecrets={!!settings.data} unreadable={unreadable} onClose={onClose} onRemove={onRemove} />;
}

function ConnectionFormDialog(p: { connection: ConnectionInfo | null; initial: ConnectionForm; keptSecrets: boolean; unreadable: string | null; onClose: () => void; onRemove: () => void }) {
  const { connection, keptSecrets, onClose, onRemove } = p;
  const editing = connection !== null;
  const [form, setForm] = useState<ConnectionForm>(p.initial);
  const [problem, setProblem] = useState<string | null>(p.unreadable);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const test = useTestConnection();
  const save = useSaveConnection();
  // Says nothing about how secrets rest until the main process has said it.
  const atRest = useLocalStatus().data?.secretsAtRest;
  const noteId = useId();
  const set = <K extends keyof ConnectionForm>(key: K) => (value: ConnectionForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setOutcome(null);
  };
  const built = () => (keptSecrets ? toEdit(form) : toConfig(form));

  const runTest = () => {
    const b = built();
    if ('problem' in b) return setProblem(b.problem);
    setProblem(null);
    setOutcome(null);
    test.mutate(keptSecrets && connection ? { config: b.config, id: connection.id } : { config: b.config }, {
      onSuccess: (info) => setOutcome({ ok: true, text: s.testOk(info.id, formatCount(info.usage.objects), formatBytes(info.usage.bytes)) }),
      onError: (err) => setProblem(s.testFailed(errorMessage(err))),
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = form.name.trim();
    if (!name) return setProblem(s.required(s.name));
    setProblem(null);
    const done = { onSuccess: onClose, onError: (err: unknown) => setProblem(errorMessage(err)) };
    if (connection) {
      const b = built();
      if ('problem' in b) return setProblem(b.problem);
      save.mutate({ id: connection.id, name, config: b.config }, done);
    } else {
      const b = toConfig(form);
      if ('problem' in b) return setProblem(b.problem);
      save.mutate({ id: null, name, config: b.config }, done);
    }
  };

  return (
    <Dialog title={editing ? s.editTitle : s.addTitle} onClose={onClose}>
      <form onSubmit={submit} className="form connection-form" aria-describedby={noteId}>
        <TextField label={s.name} value={form.name} onChange={set('name')} />
        <p id={noteId} className="hint">
          {atRest ? `${s.secretsAtRest[atRest]} ` : ''}
          {keptSecrets ? s.secretsNote : s.newSecretsNote}
        </p>
        <ConnectionFields form={form} set={set} keptSecrets={keptSecrets} />
        <FormError problem={problem} />
        {outcome ? (
          <p className="form-ok" role="status">
            {outcome.text}
          </p>
        ) : null}
        <div className="dialog-actions">
          {editing ? (
            <button type="button" className="button danger push-left" onClick={onRemove}>
              {s.remove}
            </button>
          ) : null}
          <button type="button" className="button" onClick={runTest} disabled={test.isPending}>
            {test.isPending ? s.testing : s.test}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {strings.common.cancel}
          </button>
          <button type="submit" className="button primary" disabled={save.isPending}>
            {save.isPending ? s.saving : s.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
