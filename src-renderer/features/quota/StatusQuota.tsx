import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useAccountInfo } from '../../queries/use-accounts';
import { quotaLevel, type QuotaLevel } from './quota';
import './quota.css';

const s = strings.quota;

/**
 * The account's quota in the status bar, the tighter of its two limits (bytes or objects) as a
 * small bar; "No quota" or "Quota unknown" when there is nothing to measure against.
 */
export function StatusQuota({ account }: { account: string }) {
  const info = useAccountInfo(account);
  if (info.isPending) return null;
  if (!info.data) return <span className="status-quota">{s.statusUnknown}</span>;
  const { usage, quota } = info.data;
  const levels: { level: QuotaLevel; format: (n: number) => string }[] = [
    { level: quotaLevel(usage.bytes, quota.maxBytes, usage.quotaBytes), format: formatBytes },
    { level: quotaLevel(usage.objects, quota.maxObjects), format: formatCount },
  ];
  const limited = levels.flatMap((l) => (l.level.kind === 'limited' ? [{ ...l, level: l.level }] : []));
  const unknown = levels.some((l) => l.level.kind === 'unknown') && (quota.maxBytes !== null || quota.maxObjects !== null);
  const tightest = limited.sort((a, b) => b.level.percent - a.level.percent)[0];
  if (!tightest) return <span className="status-quota">{unknown ? s.statusUnknown : s.statusNone}</span>;
  const { level, format } = tightest;
  const text =
    level.counted === level.used
      ? s.statusOf(format(level.used), format(level.max), String(level.percent))
      : s.statusOfCounted(format(level.used), format(level.counted), format(level.max), String(level.percent));
  const warning = level.over ? s.overLimit : level.warn ? s.nearLimit : null;
  return (
    <span className="status-quota">
      <span
        role="meter"
        aria-label={s.statusLabel}
        aria-valuemin={0}
        aria-valuemax={level.max}
        aria-valuenow={Math.min(level.counted, level.max)}
        aria-valuetext={warning ? `${text}, ${warning}` : text}
        className={`quota-bar small${level.warn ? ' warn' : ''}${level.over ? ' over' : ''}`}
      >
        <span className="quota-fill" style={{ width: `${Math.min(100, level.percent)}%` }} />
      </span>
      <span>
        {text}
        {warning ? <strong className={`quota-warning${level.over ? ' over' : ''}`}> · {warning}</strong> : null}
      </span>
    </span>
  );
}
