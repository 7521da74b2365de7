import type { AccountsService } from '../../src-shared/contract/accounts.js';
import { connectionConfigSchema, connectionEditSchema } from '../../src-shared/model/connections.js';
import type { BackendFactory, ConnectionRegistry } from './connections.js';

export function createAccountsService(registry: ConnectionRegistry, makeBackend: BackendFactory): AccountsService {
  return {
    list: async () => registry.list(),
    add: async (a) => registry.add(a.name, connectionConfigSchema.parse(a.config)),
    update: async (a) => registry.update(a.id, a.name, a.config ? connectionEditSchema.parse(a.config) : undefined),
    remove: async (a) => registry.remove(a.id),
    /** The server's own error text comes back as the error message. */
    test: async (a) => {
      const config = a.id === undefined ? connectionConfigSchema.parse(a.config) : registry.completed(a.id, connectionEditSchema.parse(a.config));
      const backend = makeBackend(config);
      try {
        return await backend.accountInfo();
      } finally {
        await backend.close?.();
      }
    },
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
    settings: async (a) => registry.settings(a.id),
    check: (a) => registry.check(a.id),
  };
}
