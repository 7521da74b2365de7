import { isLocalConnection } from '../../../src-shared/model/local-connection';
import { errorMessage } from '../../app/errors';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useAccountInfo } from '../../queries/use-accounts';
import { useConnectionDialogs } from '../connections/store';
import { QuotaMeter } from './QuotaMeter';
import './quota.css';

const s = strings.quota;

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
          <QuotaMeter label={s.bytes} used={info.data.usage.bytes} counted={info.data.usage.quotaBytes} max={info.data.quota.maxBytes} format={formatBytes} />
          <QuotaMeter label={s.objects} used={info.data.usage.objects} max={info.data.quota.maxObjects} format={formatCount} />
        </>
      ) : null}
      {isLocalConnection(account) && info.data ? (
        <button type="button" className="link-button sidebar-action" onClick={() => show({ kind: 'quota', account })}>
          {s.set}
        </button>
      ) : null}
    </section>
  );
}
