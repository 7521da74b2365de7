// Which local account the app shows: the local store's entry in the connection list says it, and
// the navigation follows it (switching keeps the view the user is on).
import { useEffect } from 'react';
import type { ConnectionInfo } from '../../../src-shared/model/connections';
import { LOCAL_CONNECTION_ID } from '../../../src-shared/model/local-connection';
import { useConnections } from '../../queries/use-connections';
import { useNavigation } from '../../stores/navigation';

export function useShownLocalAccount(): ConnectionInfo | undefined {
  return useConnections().data?.find((c) => c.kind === 'local');
}

/** Moves the navigation to another local account's connection, on the same view (containers or endpoints). */
export function showLocalConnection(connectionId: string): void {
  const nav = useNavigation.getState();
  const view = nav.view;
  nav.selectConnection(connectionId);
  nav.showView(view);
}

/**
 * The app starts on the bare `local` (the first account by id) until the connection list says
 * which account the user chose: then it moves there, keeping where it was.
 */
export function useFollowLocalChoice(): void {
  const shown = useShownLocalAccount();
  const current = useNavigation((n) => n.connectionId);
  useEffect(() => {
    if (current === LOCAL_CONNECTION_ID && shown && shown.id !== LOCAL_CONNECTION_ID) useNavigation.setState({ connectionId: shown.id });
  }, [current, shown]);
}
