import type { AccountsService } from '../../src-shared/contract/accounts.js';
import { connectionConfigSchema } from '../../src-shared/model/connections.js';
import type { BackendFactory, ConnectionRegistry } from './connections.js';

export function createAccountsService(registry: ConnectionRegistry, makeBackend: BackendFactory): AccountsService {
  return {
    list: async () => registry.list(),
    add: async (a) => registry.add(a.name, connectionConfigSchema.parse(a.config)),
    update: async (a) => registry.update(a.id, a.name, a.config ? connectionConfigSchema.parse(a.config) : undefined),
    remove: async (a) => registry.remove(a.id),
    /** The server's own error text comes back as the error message. */
    test: async (a) => makeBackend(connectionConfigSchema.parse(a.config)).accountInfo(),
    info: async (a) => {
      try {
        const info = await registry.backend(a.id).accountInfo();
        registry.report(a.id, undefined);
        return info;
      } catch (err) {
        registry.report(a.id, err);
        throw err;
      }
    },
  };
}
