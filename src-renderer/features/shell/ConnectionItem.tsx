import type { ReactNode } from 'react';
import type { ConnectionInfo } from '../../../src-shared/model/connections';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { connectionName } from './connection-name';

/** One connection in the sidebar; `children` go under it (the local store's account picker). */
export function ConnectionItem({ connection, current, onSelect, onEdit, children }: { connection: ConnectionInfo; current: boolean; onSelect: () => void; onEdit: () => void; children?: ReactNode }) {
  const state = strings.shell.connectionState[connection.state];
  return (
    <li className="connection-row">
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
      {connection.kind === 'local' ? null : (
        <button type="button" className="icon-button" aria-label={strings.connections.edit(connection.name)} title={strings.connections.edit(connection.name)} onClick={onEdit}>
          <Icon name="key" />
        </button>
      )}
      {children}
    </li>
  );
}
