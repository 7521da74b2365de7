import type { ConnectionState } from '../model/connections.js';
import type { TransferItem } from './transfers.js';

/** Everything main pushes to the renderer, by event name. */
export interface EventMap {
  /** Items that changed since the last report, a few reports a second at most (10,000 small files must not flood the renderer). */
  'transfer.progress': { items: TransferItem[] };
  'objects.changed': { account: string; container: string; names: string[] };
  'connection.state': { id: string; state: ConnectionState; error: string | null };
  /** A long browse operation (delete, paste, restore to a moment) under the id the caller gave it; a few a second at most. */
  'operation.progress': OperationProgress;
}

export interface OperationProgress {
  id: string;
  kind: 'delete' | 'copy' | 'move' | 'restore';
  /** Objects handled so far (failures included). */
  done: number;
  /** null while whole folders are still being listed. */
  total: number | null;
  finished: boolean;
}

export type EventName = keyof EventMap;
export const EVENT_NAMES: readonly EventName[] = ['transfer.progress', 'objects.changed', 'connection.state', 'operation.progress'];
