import type { LocalStoreService, LocalUser, SecretsAtRest } from '../../src-shared/contract/local-store.js';
import { Engine } from '../engine/engine.js';

export interface LocalStoreInfo {
  engine: Engine;
  dataDir: string;
  /** Base URL of the embedded server, once it listens. */
  url: () => string;
  secretsAtRest: SecretsAtRest;
}

/** The embedded store as the UI shows it: endpoints, users with their keys, quotas. */
export function createLocalStoreService(s: LocalStoreInfo): LocalStoreService {
  return {
    status: async () => ({
      running: true,
      url: s.url(),
      dataDir: s.dataDir,
      nativeAuthUrl: `${s.url()}/auth/1.0`,
      s3Endpoint: s.url(),
      secretsAtRest: s.secretsAtRest,
    }),
    users: async () =>
      s.engine.listAccounts().map(
        (a): LocalUser => ({
          id: a.id,
          displayName: a.displayName,
          storageUrl: `${s.url()}/swift/v1/AUTH_${a.id}`,
          keys: a.keys,
          swiftKeys: a.swiftKeys,
          quota: a.quota,
          usage: { objects: a.usage.objects, bytes: a.usage.bytes, containers: a.usage.containers },
        }),
      ),
    setQuota: async (a) => {
      const quota = { ...(a.maxBytes !== undefined ? { maxBytes: a.maxBytes } : {}), ...(a.maxObjects !== undefined ? { maxObjects: a.maxObjects } : {}) };
      if (a.container) await s.engine.updateContainer(Engine.ref(a.account, a.container), { quota });
      else await s.engine.setAccountQuota(a.account, quota);
    },
  };
}
