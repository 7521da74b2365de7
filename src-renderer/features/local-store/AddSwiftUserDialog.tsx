import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useAddLocalKey } from '../../queries/use-local-store';
import { Dialog, FormActions, FormError } from '../common/Dialog';

const s = strings.local;

/** A Swift sub-user with a generated key for one local account (`coffer key add --swift-user`). */
export function AddSwiftUserDialog({ account, onClose }: { account: string; onClose: () => void }) {
  const [subuser, setSubuser] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddLocalKey();
  const inputId = useId();
  const hintId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = subuser.trim();
    if (!name) return setProblem(s.subuserRequired);
    setProblem(null);
    add.mutate({ account, kind: 'swift', subuser: name }, { onSuccess: onClose, onError: (err) => setProblem(errorMessage(err)) });
  };
  return (
    <Dialog title={s.addSwiftUserTitle} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label htmlFor={inputId}>{s.subuser}</label>
        <input id={inputId} value={subuser} onChange={(e) => setSubuser(e.target.value)} autoFocus aria-describedby={hintId} aria-invalid={problem !== null} spellCheck={false} autoComplete="off" />
        <p id={hintId} className="hint">
          {s.subuserHint(account)}
        </p>
        <FormError problem={problem} />
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.add} busyLabel={s.adding} busy={add.isPending} />
      </form>
    </Dialog>
  );
}
