import { useId, useState, type FormEvent } from 'react';
import { localAccountOf } from '../../../src-shared/model/local-connection';
import type { ContainerSummary } from '../../../src-shared/model/storage';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useAccountInfo, useSetLocalQuota } from '../../queries/use-accounts';
import { Dialog, FormError } from '../common/Dialog';
import { Loading } from '../common/States';
import { BYTE_UNITS, splitBytes } from './quota';

const s = strings.quota;

/** Reads a non-negative whole number; '' is "no limit" (-1). */
function parseLimit(text: string, factor: number): number | null {
  const t = text.trim();
  if (t === '') return -1;
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const n = Math.round(Number(t) * factor);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A local account's quota (`account`: its connection id), or with `container` that container's:
 * bytes with a unit and objects; empty means unlimited. Starts from the limits in force.
 */
export function SetQuotaDialog({ account, container, onClose }: { account: string; container?: ContainerSummary; onClose: () => void }) {
  const info = useAccountInfo(account);
  const title = container ? s.containerDialogTitle(container.name) : s.dialogTitle;
  const accountId = localAccountOf(account) ?? info.data?.id;
  const current = container ? container.quota : info.data?.quota;
  if (!accountId || current === undefined) {
    return (
      <Dialog title={title} onClose={onClose}>
        {info.isError ? <FormError problem={errorMessage(info.error)} /> : <Loading label={s.loading} />}
      </Dialog>
    );
  }
  const target = { account: accountId, ...(container ? { container: container.name } : {}) };
  return <QuotaForm title={title} target={target} maxBytes={current?.maxBytes ?? null} maxObjects={current?.maxObjects ?? null} onClose={onClose} />;
}

function QuotaForm(p: { title: string; target: { account: string; container?: string }; maxBytes: number | null; maxObjects: number | null; onClose: () => void }) {
  const { onClose } = p;
  const [initialBytes] = useState(() => splitBytes(p.maxBytes));
  const [bytes, setBytes] = useState(initialBytes.value);
  const [unit, setUnit] = useState(initialBytes.unit);
  const [objects, setObjects] = useState(() => (p.maxObjects === null || p.maxObjects < 0 ? '' : String(p.maxObjects)));
  const [problem, setProblem] = useState<string | null>(null);
  const setQuota = useSetLocalQuota();
  const bytesId = useId();
  const objectsId = useId();
  const hintId = useId();

  const apply = (maxBytes: number, maxObjects: number) => {
    setProblem(null);
    setQuota.mutate({ ...p.target, maxBytes, maxObjects }, { onSuccess: onClose, onError: (err) => setProblem(errorMessage(err)) });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const maxBytes = parseLimit(bytes, BYTE_UNITS[unit]!.factor);
    const maxObjects = parseLimit(objects, 1);
    if (maxBytes === null || maxObjects === null || (objects.trim() !== '' && !/^\d+$/.test(objects.trim()))) return setProblem(s.invalid);
    apply(maxBytes, maxObjects);
  };

  return (
    <Dialog title={p.title} onClose={onClose}>
      <form onSubmit={submit} className="form" aria-describedby={hintId}>
        <label htmlFor={bytesId}>{s.maxBytes}</label>
        <div className="quota-units">
          <input id={bytesId} inputMode="decimal" value={bytes} onChange={(e) => setBytes(e.target.value)} autoComplete="off" />
          <select aria-label={s.unit} value={unit} onChange={(e) => setUnit(Number(e.target.value))}>
            {BYTE_UNITS.map((u, i) => (
              <option key={u.label} value={i}>
                {strings.units.bytes[i]}
              </option>
            ))}
          </select>
        </div>
        <label htmlFor={objectsId}>{s.maxObjects}</label>
        <input id={objectsId} inputMode="numeric" value={objects} onChange={(e) => setObjects(e.target.value)} autoComplete="off" />
        <p id={hintId} className="hint">
          {s.emptyMeansNone}
        </p>
        <FormError problem={problem} />
        <div className="dialog-actions">
          <button type="button" className="button danger push-left" onClick={() => apply(-1, -1)} disabled={setQuota.isPending}>
            {s.remove}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {strings.common.cancel}
          </button>
          <button type="submit" className="button primary" disabled={setQuota.isPending}>
            {setQuota.isPending ? s.saving : s.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
