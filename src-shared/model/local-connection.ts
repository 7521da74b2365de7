/**
 * Connection ids of the embedded store's accounts. Apart from connections.ts (which holds the zod
 * schemas) so the renderer can use them without bundling the validation library.
 *
 * Each local account is its own connection, `local:<account id>`, so a listing, a queued upload
 * or an event always names the account it belongs to, whichever one the app shows. The bare
 * `local` is kept for what it named before there was a choice: the first account by id.
 */
export const LOCAL_CONNECTION_ID = 'local';

const PREFIX = `${LOCAL_CONNECTION_ID}:`;

export function localConnectionId(accountId: string): string {
  return PREFIX + accountId;
}

/** The local account a connection id names: its id, null for the bare `local`, undefined for a remote connection. */
export function localAccountOf(connectionId: string): string | null | undefined {
  if (connectionId === LOCAL_CONNECTION_ID) return null;
  return connectionId.startsWith(PREFIX) && connectionId.length > PREFIX.length ? connectionId.slice(PREFIX.length) : undefined;
}

export function isLocalConnection(connectionId: string): boolean {
  return localAccountOf(connectionId) !== undefined;
}
