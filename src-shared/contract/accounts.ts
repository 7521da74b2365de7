import { z } from 'zod';
import { connectionConfigSchema, type ConnectionInfo } from '../model/connections.js';
import type { AccountSummary } from '../model/storage.js';
import type { In } from './types.js';

const id = z.string().min(1).max(200);
const name = z.string().trim().min(1).max(200);

export const accountsMethods = {
  list: z.object({}),
  add: z.object({ name, config: connectionConfigSchema }),
  update: z.object({ id, name: name.optional(), config: connectionConfigSchema.optional() }),
  remove: z.object({ id }),
  /** Tries a configuration without saving it; fails with the server's own error text. */
  test: z.object({ config: connectionConfigSchema }),
  info: z.object({ id }),
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
}
