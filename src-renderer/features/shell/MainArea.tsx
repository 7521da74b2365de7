import { LOCAL_CONNECTION_ID } from '../../../src-shared/model/local-connection';
import { strings } from '../../app/strings';
import { useConnections } from '../../queries/use-connections';
import { useNavigation } from '../../stores/navigation';
import { FolderView } from '../browser/FolderView';
import { ContainerList } from '../containers/ContainerList';
import { LocalStorePanel } from '../local-store/LocalStorePanel';
import { TransfersPanel } from '../transfers/TransfersPanel';
import { useContentDrop, useRefuseStrayDrops } from '../transfers/use-folder-drop';
import { connectionName } from './connection-name';
import { panelId, tabId, ViewTabs } from './ViewTabs';

export function MainArea() {
  const { connectionId, view, container, prefix } = useNavigation();
  const connection = useConnections().data?.find((c) => c.id === connectionId);
  const isLocal = connectionId === LOCAL_CONNECTION_ID;
  const shown = isLocal ? view : 'containers';
  // While a folder is shown, files dropped anywhere here (header, details, transfers) go into it.
  const drop = useContentDrop(shown === 'containers' && container !== null ? { account: connectionId, container, prefix } : null);
  useRefuseStrayDrops();
  return (
    <main className="main" aria-label={strings.shell.main} {...drop}>
      <header className="main-header">
        <h1>{connection ? connectionName(connection) : isLocal ? strings.shell.localStoreName : connectionId}</h1>
        {isLocal ? <ViewTabs /> : null}
      </header>
      <div className="main-body" {...(isLocal ? { role: 'tabpanel', id: panelId(shown), 'aria-labelledby': tabId(shown) } : {})}>
        {shown === 'endpoints' ? <LocalStorePanel /> : container === null ? <ContainerList account={connectionId} /> : <FolderView account={connectionId} container={container} />}
      </div>
      <TransfersPanel />
    </main>
  );
}
