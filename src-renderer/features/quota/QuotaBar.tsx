import { LOCAL_CONNECTION_ID } from '../../../src-shared/model/connections';
import { errorMessage } from '../../app/errors';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useAccountInfo } from '../../queries/use-accounts';
import { useConnectionDialogs } from '../connections/store';
import { quotaLevel } from './quota';
import './quota.css';

const s = strings.quota;

function Meter({ label, used, max, format }: { label: string; used: number | null; max: number | null; format: (n: number) => string }) {
  const level = quotaLevel(used, max);
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
  const text = s.of(format(level.used), format(level.max), String(level.percent));
  const warning = level.over ? s.overLimit : level.warn ? s.nearLimit : null;
  return (
    <div className="quota-row">
      <span className="quota-label">{label}</span>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={level.max}
        aria-valuenow={Math.min(level.used, level.max)}
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

/** The selected account's bytes and objects against its quota; for the local store, a way to set it. */
export function QuotaBar({ account, name }: { account: string; name: string }) {
  const info = useAccountInfo(account);
  const show = useConnectionDialogs((d) => d.show);
  return (
    <section className="quota" aria-label={s.title(name)}>
      <h2 className="sidebar-heading">{s.label}</h2>
      {info.isPending ? <p className="quota-text">{s.loading}</p> : null}
      {info.isError ? <p className="quota-text">{s.failed(errorMessage(info.error))}</p> : null}
      {info.data ? (
        <>
          <Meter label={s.bytes} used={info.data.usage.bytes} max={info.data.quota.maxBytes} format={formatBytes} />
          <Meter label={s.objects} used={info.data.usage.objects} max={info.data.quota.maxObjects} format={formatCount} />
        </>
      ) : null}
      {account === LOCAL_CONNECTION_ID && info.data ? (
        <button type="button" className="link-button sidebar-action" onClick={() => show({ kind: 'quota' })}>
          {s.set}
        </button>
      ) : null}
    </section>
  );
}
