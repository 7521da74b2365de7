import { strings } from '../../app/strings';
import { useConnections } from '../../queries/use-connections';
import { useNavigation } from '../../stores/navigation';
import { ErrorState, Loading } from '../common/States';
import { ConnectionItem } from './ConnectionItem';

/** The local store first (the service lists it first), then the remote connections. */
export function Sidebar() {
  const connections = useConnections();
  const current = useNavigation((s) => s.connectionId);
  const select = useNavigation((s) => s.selectConnection);
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
              <ConnectionItem key={c.id} connection={c} current={c.id === current} onSelect={() => select(c.id)} />
            ))}
          </ul>
        ) : null}
      </nav>
    </aside>
  );
}
