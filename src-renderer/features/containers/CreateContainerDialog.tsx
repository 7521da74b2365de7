import { useId, useState, type FormEvent } from 'react';
import { errorCode, errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useCreateContainer } from '../../queries/use-containers';
import { Dialog, FormActions, FormError } from '../common/Dialog';

const s = strings.containers.createDialog;

function explain(err: unknown, name: string): string {
  const code = errorCode(err);
  if (code === 'ContainerExists' || code === 'ContainerOwnedByYou') return strings.errors.containerExists(name);
  if (code === 'InvalidContainerName') return strings.errors.invalidContainerName(errorMessage(err));
  return errorMessage(err);
}

export function CreateContainerDialog({ account, onClose, onCreated }: { account: string; onClose: () => void; onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateContainer(account);
  const inputId = useId();
  const hintId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblem(s.required);
    setProblem(null);
    create.mutate(trimmed, { onSuccess: () => onCreated(trimmed), onError: (err) => setProblem(explain(err, trimmed)) });
  };
  return (
    <Dialog title={s.title} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label htmlFor={inputId}>{s.nameLabel}</label>
        <input id={inputId} value={name} onChange={(e) => setName(e.target.value)} autoFocus aria-describedby={hintId} aria-invalid={problem !== null} spellCheck={false} autoComplete="off" />
        <p id={hintId} className="hint">
          {s.nameHint}
        </p>
        <FormError problem={problem} />
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.submit} busyLabel={s.busy} busy={create.isPending} />
      </form>
    </Dialog>
  );
}
