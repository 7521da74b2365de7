import { useIsFetching } from '@tanstack/react-query';
import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useConnections } from '../../queries/use-connections';
import { useFolder } from '../../queries/use-folder';
import { useNavigation } from '../../stores/navigation';
import { useClipboard } from '../../stores/clipboard';
import { useSelection } from '../../stores/selection';
import { StatusQuota } from '../quota/StatusQuota';
import { TransfersToggle } from '../transfers/TransfersToggle';
import { connectionName } from './connection-name';

function FolderCounts({ account, container, prefix, filter }: { account: string; container: string; prefix: string; filter: string }) {
  const folder = useFolder(account, container, prefix, filter);
  const selected = useSelection((s) => s.selected.size);
  if (!folder.data) return null;
  // Summed over the pages (a hundred in a big folder), not over the entries.
  const count = formatCount(folder.data.pages.reduce((n, p) => n + p.rows.length, 0));
  return (
    <>
      <span>{folder.hasNextPage ? strings.browser.itemsPartial(count) : strings.browser.itemsAll(count)}</span>
      {selected > 0 ? <span>{strings.browser.selected(formatCount(selected))}</span> : null}
    </>
  );
}

/** What the app clipboard holds, so a paste does not surprise. */
function ClipboardNote() {
  const entry = useClipboard((c) => c.entry);
  if (!entry) return null;
  const count = formatCount(entry.names.length + entry.prefixes.length);
  return <span className="statusbar-clipboard">{entry.mode === 'cut' ? strings.clipboard.cut(count) : strings.clipboard.copied(count)}</span>;
}

/** Connection state, what the folder holds (loaded so far), the selection, the account's quota, background activity. */
export function StatusBar() {
  const { connectionId, container, prefix, filter, view } = useNavigation();
  const connection = useConnections().data?.find((c) => c.id === connectionId);
  const fetching = useIsFetching() > 0;
  return (
    <footer className="statusbar" aria-label={strings.shell.statusBar}>
      <span role="status" className="statusbar-live">
        {connection ? <span>{strings.status.connection(connectionName(connection), strings.shell.connectionState[connection.state])}</span> : null}
        {container !== null && view === 'containers' ? <FolderCounts account={connectionId} container={container} prefix={prefix} filter={filter} /> : null}
      </span>
      <ClipboardNote />
      {connection ? <StatusQuota key={connectionId} account={connectionId} /> : null}
      <TransfersToggle />
      <span className="statusbar-activity" aria-hidden={!fetching}>
        {fetching ? strings.status.fetching : ''}
      </span>
    </footer>
  );
}
