import { useId } from 'react';
import type { Capabilities, ContainerOptions } from '../../../src-shared/model/storage';
import { strings } from '../../app/strings';
import { BYTE_UNITS } from '../quota/quota';

const s = strings.containerOptions;

export interface OptionsState {
  versioning: boolean;
  public: boolean;
  quotaBytes: string;
  quotaUnit: number;
  quotaObjects: string;
  objectLock: boolean;
}

export const NO_OPTIONS: OptionsState = { versioning: false, public: false, quotaBytes: '', quotaUnit: 2, quotaObjects: '', objectLock: false };

/** A limit typed in: empty is none (null); anything else a whole number, or undefined when it is not one. */
function limit(text: string, factor: number): number | null | undefined {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined;
  const n = Math.round(Number(t) * factor);
  return Number.isSafeInteger(n) && (factor > 1 || /^\d+$/.test(t)) ? n : undefined;
}

/** The options to send, or a problem to show when a limit is not a number. */
export function optionsOf(o: OptionsState): ContainerOptions | string {
  const maxBytes = limit(o.quotaBytes, BYTE_UNITS[o.quotaUnit]!.factor);
  const maxObjects = limit(o.quotaObjects, 1);
  if (maxBytes === undefined || maxObjects === undefined) return s.invalidQuota;
  return {
    ...(o.versioning ? { versioning: true } : {}),
    ...(o.public ? { public: true } : {}),
    ...(maxBytes !== null || maxObjects !== null ? { quota: { maxBytes, maxObjects } } : {}),
    ...(o.objectLock ? { objectLock: true } : {}),
  };
}

/**
 * One checkbox with what it means. `why`: the connection cannot do it (disabled, the reason
 * said); `fixed`: another choice decides it (disabled, that said).
 */
function Check(p: { label: string; hint: string; checked: boolean; onChange: (on: boolean) => void; why?: string | undefined; fixed?: string | undefined }) {
  const hintId = useId();
  const off = p.why !== undefined || p.fixed !== undefined;
  return (
    <>
      <label className="choice">
        <input type="checkbox" checked={p.checked} disabled={off} onChange={(e) => p.onChange(e.target.checked)} aria-describedby={hintId} />
        <span>{p.label}</span>
      </label>
      <p id={hintId} className="hint choice-hint">
        {p.why !== undefined ? s.unavailable(p.why) : (p.fixed ?? p.hint)}
      </p>
    </>
  );
}

/**
 * A new container's options, each said plainly; those the connection cannot honour are shown
 * disabled with the reason (S3 sets no bucket quota; object lock needs an S3 server that has it).
 */
export function ContainerOptionsFields({ caps, value, onChange }: { caps: Capabilities | undefined; value: OptionsState; onChange: (v: OptionsState) => void }) {
  const set = (patch: Partial<OptionsState>) => onChange({ ...value, ...patch });
  const quotaHint = useId();
  const bytesId = useId();
  const objectsId = useId();
  const quotaWhy = caps && !caps.containerQuota ? (caps.why.containerQuota ?? '') : undefined;
  const unavailable = (on: boolean | undefined, why: string | undefined) => (caps && !on ? (why ?? '') : undefined);
  return (
    <fieldset className="choices container-options">
      <legend>{s.legend}</legend>
      <Check
        label={s.versioning}
        hint={s.versioningHint}
        checked={value.versioning || value.objectLock}
        onChange={(versioning) => set({ versioning })}
        why={unavailable(caps?.versions, caps?.why.versions)}
        fixed={value.objectLock ? s.versioningWithLock : undefined}
      />
      <Check label={s.public} hint={s.publicHint} checked={value.public} onChange={(on) => set({ public: on })} why={unavailable(caps?.publicRead, undefined)} />
      <span className="option-label">{s.quota}</span>
      <div className="quota-fields" role="group" aria-label={s.quota} aria-describedby={quotaHint}>
        <label htmlFor={bytesId}>{s.quotaBytes}</label>
        <div className="quota-units">
          <input id={bytesId} inputMode="decimal" value={value.quotaBytes} onChange={(e) => set({ quotaBytes: e.target.value })} disabled={quotaWhy !== undefined} autoComplete="off" aria-describedby={quotaHint} />
          <select aria-label={strings.quota.unit} value={value.quotaUnit} onChange={(e) => set({ quotaUnit: Number(e.target.value) })} disabled={quotaWhy !== undefined}>
            {BYTE_UNITS.map((u, i) => (
              <option key={u.label} value={i}>
                {strings.units.bytes[i]}
              </option>
            ))}
          </select>
        </div>
        <label htmlFor={objectsId}>{s.quotaObjects}</label>
        <input id={objectsId} inputMode="numeric" value={value.quotaObjects} onChange={(e) => set({ quotaObjects: e.target.value })} disabled={quotaWhy !== undefined} autoComplete="off" aria-describedby={quotaHint} />
      </div>
      <p id={quotaHint} className="hint choice-hint">
        {quotaWhy !== undefined ? s.unavailable(quotaWhy) : s.quotaHint}
      </p>
      <Check label={s.objectLock} hint={s.objectLockHint} checked={value.objectLock} onChange={(objectLock) => set({ objectLock })} why={unavailable(caps?.objectLock, caps?.why.objectLock)} />
    </fieldset>
  );
}
