import { z } from 'zod';
import type { In } from './types.js';

/**
 * How remote connections' secrets rest on this computer: encrypted with a key the OS keyring
 * holds, or in a file only this user can read, not encrypted (no usable keyring).
 */
export type SecretsAtRest = 'keyring' | 'file';

export interface LocalStoreStatus {
  running: boolean;
  /** Base URL of the embedded server on loopback. */
  url: string;
  dataDir: string;
  nativeAuthUrl: string;
  s3Endpoint: string;
  secretsAtRest: SecretsAtRest;
}

export interface LocalUser {
  id: string;
  /** The namespace its containers share with the tenant's other accounts ('' for none). */
  tenant: string;
  displayName: string;
  /** ISO 8601 */
  created: string;
  storageUrl: string;
  keys: { accessKey: string; secretKey: string }[];
  swiftKeys: { user: string; secretKey: string }[];
  quota: { maxBytes: number; maxObjects: number };
  usage: { objects: number; bytes: number; containers: number };
}

const account = z.string().min(1).max(256);

export const localStoreMethods = {
  status: z.object({}),
  /** Every account of the store, by id. */
  users: z.object({}),
  /** A new account `[tenant$]name` with a generated S3 key pair and Swift key (sub-user `swift`), as `coffer user create` makes it. */
  createAccount: z.object({ id: account, displayName: z.string().trim().max(200).optional() }),
  /** A new generated S3 key pair, or a Swift key for a new sub-user. */
  addKey: z.discriminatedUnion('kind', [
    z.object({ account, kind: z.literal('s3') }),
    z.object({ account, kind: z.literal('swift'), subuser: z.string().trim().min(1).max(256) }),
  ]),
  /** The account the app shows (remembered in the data directory); answers its connection id. */
  chooseAccount: z.object({ account }),
  setQuota: z.object({
    account,
    container: z.string().min(1).max(256).optional(),
    maxBytes: z.number().int().min(-1).optional(),
    maxObjects: z.number().int().min(-1).optional(),
  }),
};

type M = typeof localStoreMethods;

/** The embedded store: where it listens, its accounts and keys (for other tools), which one the app shows, quotas. */
export interface LocalStoreService {
  status(a: In<M['status']>): Promise<LocalStoreStatus>;
  users(a: In<M['users']>): Promise<LocalUser[]>;
  createAccount(a: In<M['createAccount']>): Promise<LocalUser>;
  addKey(a: In<M['addKey']>): Promise<LocalUser>;
  chooseAccount(a: In<M['chooseAccount']>): Promise<{ connectionId: string }>;
  setQuota(a: In<M['setQuota']>): Promise<void>;
}
