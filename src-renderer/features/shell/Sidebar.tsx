import { strings } from '../../app/strings';
import { useConnectionChecks } from '../../queries/use-accounts';
import { useConnections } from '../../queries/use-connections';
import { useNavigation } from '../../stores/navigation';
import { ErrorState, Loading } from '../common/States';
import { SidebarDialogs } from '../connections/SidebarDialogs';
import { AccountPicker } from '../local-store/AccountPicker';
import { useFollowLocalChoice } from '../local-store/shown-account';
import { useConnectionDialogs } from '../connections/store';
import { QuotaBar } from '../quota/QuotaBar';
import { ConnectionItem } from './ConnectionItem';
import { connectionName } from './connection-name';

/** The local store first (the service lists it first), then the remote connections, each checked with its server. */
export function Sidebar() {
  const connections = useConnections();
  const current = useNavigation((s) => s.connectionId);
  const select = useNavigation((s) => s.selectConnection);
  const show = useConnectionDialogs((d) => d.show);
  const selected = connections.data?.find((c) => c.id === current);
  useFollowLocalChoice();
  useConnectionChecks(connections.data);
  return (
    <aside className="sidebar" aria-label={strings.shell.sidebar}>
      <div className="brand">{strings.appName}</div>
      <nav aria-label={strings.shell.connections}>
        <h2 className="sidebar-heading">{strings.shell.connections}</h2>
        {connections.isPending ? <Loading label={strings.shell.loadingConnections} /> : null}
        {connections.isError ? <ErrorState error={connections.error} onRetry={() => void connections.refetch()} /> : null}
        {connections.data ? (
          <ul className="connection-list">
            {connections.data.map((c) => (
              <ConnectionItem key={c.id} connection={c} current={c.id === current} onSelect={() => select(c.id)} onEdit={() => show({ kind: 'edit', connection: c })}>
                {c.kind === 'local' ? <AccountPicker /> : null}
              </ConnectionItem>
            ))}
          </ul>
        ) : null}
        <button type="button" className="link-button sidebar-action" onClick={() => show({ kind: 'add' })}>
          {strings.connections.add}
        </button>
      </nav>
      {selected ? <QuotaBar key={selected.id} account={selected.id} name={connectionName(selected)} /> : null}
      <SidebarDialogs />
    </aside>
  );
}
