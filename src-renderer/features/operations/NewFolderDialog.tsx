import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useCreateFolder } from '../../queries/use-object-ops';
import type { Row } from '../browser/rows';
import { Dialog, FormActions, FormError } from '../common/Dialog';

const s = strings.operations.newFolderDialog;

/** A new virtual folder: a zero-byte `name/` marker in the folder on screen. */
export function NewFolderDialog({ account, container, prefix, rows, onClose }: { account: string; container: string; prefix: string; rows: readonly Row[]; onClose: () => void }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateFolder(account, container);
  const inputId = useId();
  const hintId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblem(s.required);
    if (trimmed.startsWith('/') || trimmed.endsWith('/') || trimmed.includes('//')) return setProblem(s.invalid);
    const key = `${prefix}${trimmed}/`;
    if (rows.some((r) => r.key === key)) return setProblem(s.exists(trimmed));
    setProblem(null);
    create.mutate(key, { onSuccess: onClose, onError: (err) => setProblem(errorMessage(err)) });
  };
  return (
    <Dialog title={s.title} onClose={onClose}>
      <form onSubmit={submit} className="form" noValidate>
        <label htmlFor={inputId}>{s.nameLabel}</label>
        <input id={inputId} value={name} onChange={(e) => setName(e.target.value)} autoFocus aria-describedby={hintId} aria-invalid={problem !== null} spellCheck={false} autoComplete="off" />
        <p id={hintId} className="hint">
          {s.hint(`${container}/${prefix}`)}
        </p>
        <FormError problem={problem} />
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.submit} busyLabel={s.busy} busy={create.isPending} />
      </form>
    </Dialog>
  );
}
