import { z } from 'zod';
import type { ConnectionSettings } from '../model/connection-secrets.js';
import { connectionConfigSchema, connectionEditSchema, type ConnectionInfo, type ConnectionState } from '../model/connections.js';
import type { AccountSummary } from '../model/storage.js';
import type { In } from './types.js';

/** Connection ids: remote ones are UUIDs, local ones `local:<account id>` (account ids up to 256 bytes). */
const id = z.string().min(1).max(300);
const name = z.string().trim().min(1).max(200);

export const accountsMethods = {
  list: z.object({}),
  add: z.object({ name, config: connectionConfigSchema }),
  /** Secrets left empty in `config` keep the saved ones (same kind and sign-in type). */
  update: z.object({ id, name: name.optional(), config: connectionEditSchema.optional() }),
  remove: z.object({ id }),
  /**
   * Tries a configuration without saving it; fails with the server's own error text. With `id`,
   * secrets left empty are the saved connection's (testing an edit).
   */
  test: z
    .object({ config: connectionEditSchema, id: id.optional() })
    .refine((a) => a.id !== undefined || connectionConfigSchema.safeParse(a.config).success, { message: 'Enter every setting, secrets included', path: ['config'] }),
  info: z.object({ id }),
  /** A saved connection's settings without its secrets, to fill the edit dialog. */
  settings: z.object({ id }),
  /** Checks a connection with a request the server must authenticate, and records the outcome as its state. */
  check: z.object({ id }),
};

type M = typeof accountsMethods;

/** Connections: the local store first, then remote native and compatible accounts. */
export interface AccountsService {
  list(a: In<M['list']>): Promise<ConnectionInfo[]>;
  add(a: In<M['add']>): Promise<ConnectionInfo>;
  update(a: In<M['update']>): Promise<ConnectionInfo>;
  remove(a: In<M['remove']>): Promise<void>;
  test(a: In<M['test']>): Promise<AccountSummary>;
  info(a: In<M['info']>): Promise<AccountSummary>;
  settings(a: In<M['settings']>): Promise<ConnectionSettings>;
  check(a: In<M['check']>): Promise<{ id: string; state: ConnectionState; error: string | null }>;
}
