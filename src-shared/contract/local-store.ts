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
  displayName: string;
  storageUrl: string;
  keys: { accessKey: string; secretKey: string }[];
  swiftKeys: { user: string; secretKey: string }[];
  quota: { maxBytes: number; maxObjects: number };
  usage: { objects: number; bytes: number; containers: number };
}

const account = z.string().min(1).max(256);

export const localStoreMethods = {
  status: z.object({}),
  users: z.object({}),
  setQuota: z.object({
    account,
    container: z.string().min(1).max(256).optional(),
    maxBytes: z.number().int().min(-1).optional(),
    maxObjects: z.number().int().min(-1).optional(),
  }),
};

type M = typeof localStoreMethods;

/** The embedded store: where it listens, its users and keys (for other tools), quotas. */
export interface LocalStoreService {
  status(a: In<M['status']>): Promise<LocalStoreStatus>;
  users(a: In<M['users']>): Promise<LocalUser[]>;
  setQuota(a: In<M['setQuota']>): Promise<void>;
}
