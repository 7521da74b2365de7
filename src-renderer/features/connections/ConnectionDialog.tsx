import { useId, useState, type FormEvent } from 'react';
import type { ConnectionInfo } from '../../../src-shared/model/connections';
import { errorMessage } from '../../app/errors';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useSaveConnection, useTestConnection } from '../../queries/use-accounts';
import { useLocalStatus } from '../../queries/use-local-store';
import { Dialog, FormError } from '../common/Dialog';
import { emptyForm, toConfig, type AuthType, type ConnectionForm } from './form';
import { TextField } from './TextField';

const s = strings.connections;

type Outcome = { ok: true; text: string } | { ok: false; text: string } | null;

/**
 * Adds a remote connection, or edits one. The app never gets a saved connection's settings back
 * (secrets stay in the main process), so editing keeps them unless the user re-enters the whole
 * configuration; the dialog says so, and how secrets rest on this computer.
 */
export function ConnectionDialog({ connection, onClose, onRemove }: { connection: ConnectionInfo | null; onClose: () => void; onRemove: () => void }) {
  const editing = connection !== null;
  const [form, setForm] = useState<ConnectionForm>(() =>
    connection ? emptyForm(connection.kind === 'swift' ? 'swift' : 's3', connection.name, connection.endpoint) : emptyForm(),
  );
  const [changeSettings, setChangeSettings] = useState(!editing);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const test = useTestConnection();
  const save = useSaveConnection();
  // Says nothing about how secrets rest until the main process has said it.
  const atRest = useLocalStatus().data?.secretsAtRest;
  const noteId = useId();
  const changeId = useId();
  const authTypeId = useId();
  const set = <K extends keyof ConnectionForm>(key: K) => (value: ConnectionForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setOutcome(null);
  };

  const runTest = () => {
    const built = toConfig(form);
    if ('problem' in built) return setProblem(built.problem);
    setProblem(null);
    setOutcome(null);
    test.mutate(built.config, {
      onSuccess: (info) => setOutcome({ ok: true, text: s.testOk(info.id, formatCount(info.usage.objects), formatBytes(info.usage.bytes)) }),
      onError: (err) => setOutcome({ ok: false, text: s.testFailed(errorMessage(err)) }),
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = form.name.trim();
    if (!name) return setProblem(s.required(s.name));
    let config;
    if (changeSettings) {
      const built = toConfig(form);
      if ('problem' in built) return setProblem(built.problem);
      config = built.config;
    }
    setProblem(null);
    save.mutate({ id: connection?.id ?? null, name, config }, { onSuccess: onClose, onError: (err) => setProblem(errorMessage(err)) });
  };

  return (
    <Dialog title={editing ? s.editTitle : s.addTitle} onClose={onClose}>
      <form onSubmit={submit} className="form connection-form" aria-describedby={noteId}>
        <TextField label={s.name} value={form.name} onChange={set('name')} />
        <p id={noteId} className="hint">
          {atRest ? `${s.secretsAtRest[atRest]} ` : ''}
          {editing ? s.secretsNote : s.newSecretsNote}
        </p>
        {editing ? (
          <label htmlFor={changeId} className="check">
            <input id={changeId} type="checkbox" checked={changeSettings} onChange={(e) => setChangeSettings(e.target.checked)} />
            {s.changeSettings}
          </label>
        ) : null}
        {changeSettings ? (
          <>
            <fieldset className="kind-switch">
              <legend>{s.kind}</legend>
              {(['swift', 's3'] as const).map((kind) => (
                <label key={kind} className="check">
                  <input type="radio" name="kind" checked={form.kind === kind} onChange={() => set('kind')(kind)} />
                  {kind === 'swift' ? s.native : s.compatible}
                </label>
              ))}
            </fieldset>
            {form.kind === 'swift' ? (
              <>
                <TextField label={s.authUrl} type="url" value={form.authUrl} onChange={set('authUrl')} />
                <label htmlFor={authTypeId}>{s.authType}</label>
                <select id={authTypeId} value={form.authType} onChange={(e) => set('authType')(e.target.value as AuthType)}>
                  {(['v1', 'password', 'application-credential'] as const).map((t) => (
                    <option key={t} value={t}>
                      {s.authTypes[t]}
                    </option>
                  ))}
                </select>
                {form.authType === 'v1' ? (
                  <>
                    <TextField label={s.user} value={form.user} onChange={set('user')} />
                    <TextField label={s.key} secret value={form.key} onChange={set('key')} />
                  </>
                ) : null}
                {form.authType === 'password' ? (
                  <>
                    <TextField label={s.user} value={form.user} onChange={set('user')} />
                    <TextField label={s.userDomain} value={form.userDomain} onChange={set('userDomain')} />
                    <TextField label={s.project} value={form.project} onChange={set('project')} />
                    <TextField label={s.projectDomain} value={form.projectDomain} onChange={set('projectDomain')} />
                    <TextField label={s.password} secret value={form.password} onChange={set('password')} />
                  </>
                ) : null}
                {form.authType === 'application-credential' ? (
                  <>
                    <TextField label={s.appCredId} value={form.appCredId} onChange={set('appCredId')} />
                    <TextField label={s.appCredSecret} secret value={form.appCredSecret} onChange={set('appCredSecret')} />
                  </>
                ) : null}
                <TextField label={s.regionOptional} value={form.region} onChange={set('region')} />
              </>
            ) : (
              <>
                <TextField label={s.endpoint} type="url" value={form.endpoint} onChange={set('endpoint')} />
                <TextField label={s.region} value={form.s3Region} onChange={set('s3Region')} />
                <TextField label={s.accessKey} value={form.accessKey} onChange={set('accessKey')} />
                <TextField label={s.secretKey} secret value={form.secretKey} onChange={set('secretKey')} />
                <label className="check">
                  <input type="checkbox" checked={form.pathStyle} onChange={(e) => set('pathStyle')(e.target.checked)} />
                  {s.pathStyle}
                </label>
              </>
            )}
          </>
        ) : null}
        <FormError problem={problem} />
        {outcome ? (
          outcome.ok ? (
            <p className="form-ok" role="status">
              {outcome.text}
            </p>
          ) : (
            <p className="form-error" role="alert">
              {outcome.text}
            </p>
          )
        ) : null}
        <div className="dialog-actions">
          {editing ? (
            <button type="button" className="button danger push-left" onClick={onRemove}>
              {s.remove}
            </button>
          ) : null}
          {changeSettings ? (
            <button type="button" className="button" onClick={runTest} disabled={test.isPending}>
              {test.isPending ? s.testing : s.test}
            </button>
          ) : null}
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
