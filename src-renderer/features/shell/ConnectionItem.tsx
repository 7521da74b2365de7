import type { ConnectionInfo } from '../../../src-shared/model/connections';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { connectionName } from './connection-name';

export function ConnectionItem({ connection, current, onSelect }: { connection: ConnectionInfo; current: boolean; onSelect: () => void }) {
  const state = strings.shell.connectionState[connection.state];
  return (
    <li>
      <button
        type="button"
        className="connection"
        aria-current={current ? 'page' : undefined}
        title={connection.error ?? connection.endpoint}
        onClick={onSelect}
        {...(connection.kind === 'local' ? { 'data-testid': 'store-local' } : {})}
      >
        <Icon name={connection.kind === 'local' ? 'local' : 'remote'} />
        <span className="connection-text">
          <span className="connection-name">{connectionName(connection)}</span>
          <span className={`connection-state state-${connection.state}`}>
            <span className="dot" aria-hidden="true" />
            {state}
          </span>
        </span>
      </button>
    </li>
  );
}
