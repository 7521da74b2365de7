import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useAccountInfo, useSetLocalQuota } from '../../queries/use-accounts';
import { Dialog, FormError } from '../common/Dialog';
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

/** The local store's account quota: bytes with a unit and objects; empty means unlimited. */
export function SetQuotaDialog({ account, onClose }: { account: string; onClose: () => void }) {
  const info = useAccountInfo(account);
  const [initialBytes] = useState(() => splitBytes(info.data?.quota.maxBytes ?? null));
  const [bytes, setBytes] = useState(initialBytes.value);
  const [unit, setUnit] = useState(initialBytes.unit);
  const [objects, setObjects] = useState(() => {
    const max = info.data?.quota.maxObjects ?? null;
    return max === null || max < 0 ? '' : String(max);
  });
  const [problem, setProblem] = useState<string | null>(null);
  const setQuota = useSetLocalQuota();
  const bytesId = useId();
  const objectsId = useId();
  const hintId = useId();
  const accountId = info.data?.id;

  const apply = (maxBytes: number, maxObjects: number) => {
    if (!accountId) return;
    setProblem(null);
    setQuota.mutate({ account: accountId, maxBytes, maxObjects }, { onSuccess: onClose, onError: (err) => setProblem(errorMessage(err)) });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const maxBytes = parseLimit(bytes, BYTE_UNITS[unit]!.factor);
    const maxObjects = parseLimit(objects, 1);
    if (maxBytes === null || maxObjects === null || (objects.trim() !== '' && !/^\d+$/.test(objects.trim()))) return setProblem(s.invalid);
    apply(maxBytes, maxObjects);
  };

  return (
    <Dialog title={s.dialogTitle} onClose={onClose}>
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
          <button type="button" className="button danger push-left" onClick={() => apply(-1, -1)} disabled={setQuota.isPending || !accountId}>
            {s.remove}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {strings.common.cancel}
          </button>
          <button type="submit" className="button primary" disabled={setQuota.isPending || !accountId}>
            {setQuota.isPending ? s.saving : s.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
