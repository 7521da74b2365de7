import { isLocalConnection, LOCAL_CONNECTION_ID } from '../../../src-shared/model/local-connection';
import { strings } from '../../app/strings';
import { useConnections } from '../../queries/use-connections';
import { useNavigation } from '../../stores/navigation';
import { FolderView } from '../browser/FolderView';
import { Loading } from '../common/States';
import { ContainerList } from '../containers/ContainerList';
import { LocalStorePanel } from '../local-store/LocalStorePanel';
import { TransfersPanel } from '../transfers/TransfersPanel';
import { useContentDrop, useRefuseStrayDrops } from '../transfers/use-folder-drop';
import { connectionName } from './connection-name';
import { panelId, tabId, ViewTabs } from './ViewTabs';

export function MainArea() {
  const { connectionId, view, container, prefix } = useNavigation();
  const connections = useConnections();
  const connection = connections.data?.find((c) => c.id === connectionId);
  const isLocal = isLocalConnection(connectionId);
  const shown = isLocal ? view : 'containers';
  // The bare `local` only until the list says which local account to show (useFollowLocalChoice).
  const shownLocal = connections.data?.find((c) => c.kind === 'local');
  const waiting = connectionId === LOCAL_CONNECTION_ID && (connections.isPending || (shownLocal !== undefined && shownLocal.id !== LOCAL_CONNECTION_ID));
  // While a folder is shown, files dropped anywhere here (header, details, transfers) go into it.
  const drop = useContentDrop(!waiting && shown === 'containers' && container !== null ? { account: connectionId, container, prefix } : null);
  useRefuseStrayDrops();
  return (
    <main className="main" aria-label={strings.shell.main} {...drop}>
      <header className="main-header">
        <h1>{connection ? connectionName(connection) : isLocal ? strings.shell.localStoreName : connectionId}</h1>
        {isLocal ? <ViewTabs /> : null}
      </header>
      <div className="main-body" {...(isLocal ? { role: 'tabpanel', id: panelId(shown), 'aria-labelledby': tabId(shown) } : {})}>
        {waiting ? (
          <Loading label={strings.shell.loadingConnections} />
        ) : shown === 'endpoints' ? (
          <LocalStorePanel />
        ) : container === null ? (
          <ContainerList account={connectionId} />
        ) : (
          <FolderView account={connectionId} container={container} />
        )}
      </div>
      <TransfersPanel />
    </main>
  );
}
