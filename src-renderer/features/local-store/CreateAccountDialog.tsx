import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useCreateLocalAccount } from '../../queries/use-local-store';
import { Dialog, FormActions, FormError } from '../common/Dialog';

const s = strings.local;

/** A new account in the local store, with generated keys (as `coffer user create` makes it). */
export function CreateAccountDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const [id, setId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateLocalAccount();
  const idField = useId();
  const nameField = useId();
  const hintId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = id.trim();
    if (!trimmed) return setProblem(s.accountIdRequired);
    setProblem(null);
    create.mutate(
      { id: trimmed, ...(displayName.trim() ? { displayName: displayName.trim() } : {}) },
      {
        onSuccess: (user) => {
          onClose();
          onCreated(user.id);
        },
        onError: (err) => setProblem(errorMessage(err)),
      },
    );
  };
  return (
    <Dialog title={s.createAccountTitle} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label htmlFor={idField}>{s.accountId}</label>
        <input id={idField} value={id} onChange={(e) => setId(e.target.value)} autoFocus aria-describedby={hintId} aria-invalid={problem !== null} spellCheck={false} autoComplete="off" />
        <p id={hintId} className="hint">
          {s.accountIdHint}
        </p>
        <label htmlFor={nameField}>{s.displayName}</label>
        <input id={nameField} value={displayName} onChange={(e) => setDisplayName(e.target.value)} autoComplete="off" />
        <FormError problem={problem} />
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.create} busyLabel={s.creating} busy={create.isPending} />
      </form>
    </Dialog>
  );
}
