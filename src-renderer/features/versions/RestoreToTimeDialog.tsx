import { useId, useState } from 'react';
import type { RestorePlan, RestoreResult } from '../../../src-shared/contract/versions';
import { errorMessage } from '../../app/errors';
import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useRestorePlan, useRestoreTo } from '../../queries/use-versions';
import { newOperationId, useProgress } from '../../stores/progress';
import { Dialog, FormError } from '../common/Dialog';
import { OperationProgressBar } from '../operations/OperationProgressBar';
import './versions.css';

const s = strings.restoreTime;

/** `datetime-local` text for a moment, in the browser's time zone, to the second. */
function localText(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The moment a `datetime-local` value names (local time), as ISO 8601; null while incomplete. */
function isoOf(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const hasWork = (p: RestorePlan) => p.restore + p.bringBack + p.remove > 0;

/**
 * A folder (or the whole container) back to a moment. What it will do is counted and said for
 * the moment picked, before anything is done; the restore then runs with its progress.
 */
export function RestoreToTimeDialog({ account, container, prefix, onClose }: { account: string; container: string; prefix: string; onClose: () => void }) {
  const [text, setText] = useState(() => localText(Date.now() - 3600_000));
  const at = isoOf(text);
  const plan = useRestorePlan(account, container, prefix, at);
  const run = useRestoreTo(account, container, prefix);
  const [operationId] = useState(newOperationId);
  const forget = useProgress((p) => p.forget);
  const [result, setResult] = useState<RestoreResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const introId = useId();
  const start = () => {
    if (!at) return;
    setProblem(null);
    run.mutate({ at, operationId }, { onSettled: () => forget(operationId), onSuccess: setResult, onError: (err) => setProblem(errorMessage(err)) });
  };
  const ready = plan.data !== undefined && hasWork(plan.data) && !run.isPending && result === null;
  return (
    <Dialog title={s.title(prefix ? `${container}/${prefix}` : container)} onClose={onClose}>
      <div className="form">
        <p id={introId} className="wrap">
          {s.intro}
        </p>
        <label htmlFor={inputId}>{s.when}</label>
        <input
          id={inputId}
          type="datetime-local"
          step={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={introId}
          aria-invalid={at === null}
          disabled={run.isPending || result !== null}
          data-autofocus=""
        />
        <div aria-live="polite">
          {at === null ? <p className="hint">{s.invalid}</p> : null}
          {at !== null && plan.isPending ? <p className="muted">{s.checking}</p> : null}
          {plan.data && result === null ? <PlanText plan={plan.data} /> : null}
        </div>
        <FormError problem={plan.isError ? errorMessage(plan.error) : problem} />
        {run.isPending ? <OperationProgressBar id={operationId} label={s.progress} /> : null}
        {result ? <ResultText result={result} /> : null}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {result ? strings.common.close : strings.common.cancel}
          </button>
          {result ? null : (
            <button type="button" className="button primary" disabled={!ready} onClick={start}>
              {run.isPending ? s.busy : s.submit}
            </button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

function PlanText({ plan }: { plan: RestorePlan }) {
  if (!hasWork(plan)) return <p>{s.nothing}</p>;
  const n = formatCount;
  return (
    <>
      <p>{s.will}</p>
      <ul className="restore-plan" aria-label={s.will}>
        {plan.restore > 0 ? <li>{s.restore(n(plan.restore))}</li> : null}
        {plan.bringBack > 0 ? <li>{s.bringBack(n(plan.bringBack))}</li> : null}
        {plan.remove > 0 ? <li>{s.remove(n(plan.remove))}</li> : null}
        {plan.unchanged > 0 ? <li>{s.unchanged(n(plan.unchanged))}</li> : null}
      </ul>
      {plan.complete ? null : <p className="hint">{s.atLeast}</p>}
      {plan.versioning !== 'enabled' ? <p className="versions-warning">{s.notVersioned}</p> : plan.remove > 0 ? <p>{s.removedCanComeBack}</p> : null}
    </>
  );
}

function ResultText({ result }: { result: RestoreResult }) {
  const n = formatCount;
  return (
    <>
      <p role="status">{s.done(n(result.restored), n(result.broughtBack), n(result.removed))}</p>
      {result.errors.length > 0 ? (
        <div className="form-error" role="alert">
          <p>{s.failed(n(result.errors.length))}</p>
          <ul>
            {result.errors.map((e) => (
              <li key={e.name}>{strings.showDeleted.failure(e.name, e.message)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
