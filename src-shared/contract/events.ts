import type { ConnectionState } from '../model/connections.js';
import type { TransferItem } from './transfers.js';

/** Everything main pushes to the renderer, by event name. */
export interface EventMap {
  'transfer.progress': TransferItem;
  'objects.changed': { account: string; container: string; names: string[] };
  'connection.state': { id: string; state: ConnectionState; error: string | null };
}

export type EventName = keyof EventMap;
export const EVENT_NAMES: readonly EventName[] = ['transfer.progress', 'objects.changed', 'connection.state'];
