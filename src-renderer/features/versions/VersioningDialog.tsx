import { useId, useState, type FormEvent } from 'react';
import type { VersioningStatus } from '../../../src-shared/model/storage';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useSetVersioning, useVersioning } from '../../queries/use-versions';
import { Dialog, FormActions, FormError } from '../common/Dialog';
import { ErrorState, Loading } from '../common/States';
import './versions.css';

const s = strings.versioning;

/**
 * A container's versioning, on or off, each choice saying plainly what it means. Where the
 * connection keeps no versions the dialog says why instead.
 */
export function VersioningDialog({ account, container, onClose }: { account: string; container: string; onClose: () => void }) {
  const { caps, status, query } = useVersioning(account, container);
  let body;
  if (caps && !caps.versions) {
    body = (
      <>
        <p className="wrap">
          {s.cannot} {caps.why.versions}
        </p>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose} autoFocus>
            {strings.common.close}
          </button>
        </div>
      </>
    );
  } else if (status !== undefined) body = <VersioningForm account={account} container={container} status={status} onClose={onClose} />;
  else if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else body = <Loading label={s.loading} />;
  return (
    <Dialog title={s.title(container)} onClose={onClose}>
      {body}
    </Dialog>
  );
}

function VersioningForm({ account, container, status, onClose }: { account: string; container: string; status: VersioningStatus; onClose: () => void }) {
  const [on, setOn] = useState(status === 'enabled');
  const [problem, setProblem] = useState<string | null>(null);
  const set = useSetVersioning(account, container);
  const name = useId();
  const onHint = useId();
  const offHint = useId();
  const never = status === 'unversioned';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    set.mutate(on, { onSuccess: onClose, onError: (err) => setProblem(errorMessage(err)) });
  };
  return (
    <form className="form" onSubmit={submit}>
      <p role="status">{s.now[status]}</p>
      <fieldset className="choices">
        <legend>{s.choice}</legend>
        <label className="choice">
          <input type="radio" name={name} checked={on} onChange={() => setOn(true)} aria-describedby={onHint} data-autofocus={on ? '' : undefined} />
          <span>{s.on}</span>
        </label>
        <p id={onHint} className="hint choice-hint">
          {s.onHint}
        </p>
        <label className="choice">
          <input type="radio" name={name} checked={!on} onChange={() => setOn(false)} aria-describedby={offHint} data-autofocus={on ? undefined : ''} />
          <span>{never ? s.offNever : s.off}</span>
        </label>
        <p id={offHint} className="hint choice-hint">
          {never ? s.offNeverHint : s.offHint}
        </p>
      </fieldset>
      {never ? <p className="hint">{s.forGood}</p> : null}
      <FormError problem={problem} />
      <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.save} busyLabel={s.busy} busy={set.isPending} />
    </form>
  );
}
