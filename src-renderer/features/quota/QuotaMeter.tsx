import { strings } from '../../app/strings';
import { quotaLevel } from './quota';
import './quota.css';

const s = strings.quota;

/**
 * One used/limit pair: a bar with warning colours near and over the limit, or plainly why there
 * is none. `counted` is the store's own quota figure, when it counts differently from `used`.
 */
export function QuotaMeter({ label, used, counted, max, format }: { label: string; used: number | null; counted?: number | undefined; max: number | null; format: (n: number) => string }) {
  const level = quotaLevel(used, max, counted);
  if (level.kind !== 'limited') {
    const text = level.kind === 'unknown' ? s.unknown : `${s.used(format(level.used))} · ${s.noQuota}`;
    return (
      <div className="quota-row">
        <span className="quota-label">{label}</span>
        <span className="quota-text" aria-label={`${label}: ${level.kind === 'unknown' ? s.unknown : s.noQuota}`}>
          {text}
        </span>
      </div>
    );
  }
  const text =
    level.counted === level.used
      ? s.of(format(level.used), format(level.max), String(level.percent))
      : s.ofCounted(format(level.used), format(level.counted), format(level.max), String(level.percent));
  const warning = level.over ? s.overLimit : level.warn ? s.nearLimit : null;
  return (
    <div className="quota-row">
      <span className="quota-label">{label}</span>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={level.max}
        aria-valuenow={Math.min(level.counted, level.max)}
        aria-valuetext={warning ? `${text}, ${warning}` : text}
        className={`quota-bar${level.warn ? ' warn' : ''}${level.over ? ' over' : ''}`}
      >
        <span className="quota-fill" style={{ width: `${Math.min(100, level.percent)}%` }} />
      </div>
      <span className="quota-text">
        {text}
        {warning ? <strong className={`quota-warning${level.over ? ' over' : ''}`}> · {warning}</strong> : null}
      </span>
    </div>
  );
}

