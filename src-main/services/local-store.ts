import type { LocalStoreService, LocalUser, SecretsAtRest } from '../../src-shared/contract/local-store.js';
import { CofferError } from '../../src-shared/errors.js';
import { type AccountInfo, Engine } from '../engine/index.js';
import type { LocalAccounts } from './local-accounts.js';

export interface LocalStoreInfo {
  engine: Engine;
  dataDir: string;
  /** Base URL of the embedded server, once it listens. */
  url: () => string;
  secretsAtRest: SecretsAtRest;
  accounts: LocalAccounts;
}

/** The embedded store as the UI shows it: endpoints, accounts with their keys, quotas; what the CLI's `user`, `key` and `quota` commands do. */
export function createLocalStoreService(s: LocalStoreInfo): LocalStoreService {
  const user = (a: AccountInfo): LocalUser => ({
    id: a.id,
    tenant: a.tenant,
    displayName: a.displayName,
    created: new Date(a.created).toISOString(),
    storageUrl: `${s.url()}/v1/AUTH_${a.id}`,
    keys: a.keys,
    swiftKeys: a.swiftKeys,
    quota: a.quota,
    usage: { objects: a.usage.objects, bytes: a.usage.bytes, containers: a.usage.containers },
  });
  return {
    status: async () => ({
      running: true,
      url: s.url(),
      dataDir: s.dataDir,
      nativeAuthUrl: `${s.url()}/auth/1.0`,
      s3Endpoint: s.url(),
      secretsAtRest: s.secretsAtRest,
    }),
    users: async () => s.engine.listAccounts().map(user),
    createAccount: async (a) =>
      user(await s.engine.createAccount({ id: a.id, ...(a.displayName ? { displayName: a.displayName } : {}), swiftKeys: [{ sub: 'swift' }] })),
    addKey: async (a) => {
      if (a.kind === 's3') return user(await s.engine.addAccessKey(a.account));
      // The engine replaces the key of an existing sub-user; adding must not revoke one.
      const swiftUser = `${a.account}:${a.subuser}`;
      if (s.engine.getAccount(a.account).swiftKeys.some((k) => k.user === swiftUser)) throw new CofferError('AccessKeyInUse', `Swift user ${swiftUser} already exists`);
      return user(await s.engine.addSwiftKey(a.account, a.subuser));
    },
    chooseAccount: async (a) => ({ connectionId: s.accounts.choose(a.account) }),
    setQuota: async (a) => {
      const quota = { ...(a.maxBytes !== undefined ? { maxBytes: a.maxBytes } : {}), ...(a.maxObjects !== undefined ? { maxObjects: a.maxObjects } : {}) };
      if (a.container) await s.engine.updateContainer(Engine.ref(a.account, a.container), { quota });
      else await s.engine.setAccountQuota(a.account, quota);
    },
  };
}
