import { useId, useState, type FormEvent } from 'react';
import type { ConflictPolicy, UploadPlan } from '../../../src-shared/contract/transfers';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { Dialog, FormActions, FormError } from '../common/Dialog';
import { quotaExceededBy } from '../quota/quota';
import { acceptQuota, chooseConflict, dismissUpload, useUploadFlow, type PendingUpload } from './upload-flow';

const s = strings.transfers;
const POLICIES: readonly ConflictPolicy[] = ['replace', 'skip', 'keepBoth'];

/** The questions an upload asks before it starts, for the first upload waiting on one. */
export function UploadPrompts() {
  const first = useUploadFlow((f) => f.pending.find((p) => p.step !== 'planning'));
  if (!first?.plan && first?.step !== 'error') return null;
  const close = () => dismissUpload(first.key);
  if (first.step === 'error') {
    return (
      <Dialog title={s.startFailedTitle} onClose={close}>
        <FormError problem={first.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close} autoFocus>
            {strings.common.close}
          </button>
        </div>
      </Dialog>
    );
  }
  const plan = first.plan!;
  // While starting, the question last answered stays on screen (busy); none when nothing was asked.
  const conflicts = first.step === 'conflicts' || (first.step === 'starting' && plan.conflicts.count > 0);
  if (conflicts) return <ConflictPrompt key={first.key} upload={first} plan={plan} onClose={close} />;
  if (first.step === 'quota' || (first.step === 'starting' && plan.quota)) return <QuotaPrompt key={first.key} upload={first} plan={plan} onClose={close} />;
  return null;
}

function where(upload: PendingUpload): string {
  return `${upload.target.container}/${upload.target.prefix}`;
}

function QuotaPrompt({ upload, plan, onClose }: { upload: PendingUpload; plan: UploadPlan; onClose: () => void }) {
  const q = plan.quota!;
  const fmt = q.limit === 'bytes' ? formatBytes : formatCount;
  const bytes = q.limit === 'bytes';
  const excess = quotaExceededBy(
    { bytes: bytes ? q.used : null, objects: bytes ? null : q.used },
    { maxBytes: bytes ? q.max : null, maxObjects: bytes ? null : q.max },
    { bytes: bytes ? q.adding : 0, objects: bytes ? 0 : q.adding },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void acceptQuota(upload.key);
  };
  return (
    <Dialog title={s.quota.title} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <p>{s.quota.body(q.scope === 'account' ? s.quota.account : s.quota.container(upload.target.container), q.limit === 'bytes' ? s.quota.bytes : s.quota.objects)}</p>
        <dl className="quota-numbers">
          <dt>{s.quota.used}</dt>
          <dd>{fmt(q.used)}</dd>
          <dt>{s.quota.adding}</dt>
          <dd>{fmt(q.adding)}</dd>
          <dt>{s.quota.max}</dt>
          <dd>{fmt(q.max)}</dd>
          {excess ? (
            <>
              <dt>{s.quota.over}</dt>
              <dd>{fmt(bytes ? excess.bytes : excess.objects)}</dd>
            </>
          ) : null}
        </dl>
        {bytes && q.roundedTo ? <p className="hint">{s.quota.rounded(formatCount(q.roundedTo))}</p> : null}
        <p className="hint">{s.quota.hint}</p>
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.quota.goOn} busyLabel={s.starting} busy={upload.step === 'starting'} />
      </form>
    </Dialog>
  );
}

/** Asked once per batch: what to do with every name that already exists. */
function ConflictPrompt({ upload, plan, onClose }: { upload: PendingUpload; plan: UploadPlan; onClose: () => void }) {
  const [policy, setPolicy] = useState<ConflictPolicy>('replace');
  const name = useId();
  const { count, sample } = plan.conflicts;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void chooseConflict(upload.key, policy);
  };
  return (
    <Dialog title={s.conflicts.title} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <p>{s.conflicts.body(formatCount(count), formatCount(plan.files), where(upload))}</p>
        <ul className="delete-list" aria-label={s.conflicts.sampleLabel}>
          {sample.map((n) => (
            <li key={n} className="mono">
              {n}
            </li>
          ))}
          {count > sample.length ? <li>{s.conflicts.more(formatCount(count - sample.length))}</li> : null}
        </ul>
        <fieldset className="conflict-choices">
          <legend>{s.conflicts.legend}</legend>
          {POLICIES.map((p) => (
            <label key={p} className="conflict-choice">
              <input type="radio" name={name} value={p} checked={policy === p} onChange={() => setPolicy(p)} />
              <span>
                {s.conflicts.policies[p]}
                <span className="hint"> — {s.conflicts.policyHints[p]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <FormError problem={upload.error} />
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.conflicts.submit} busyLabel={s.starting} busy={upload.step === 'starting'} />
      </form>
    </Dialog>
  );
}
