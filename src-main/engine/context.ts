import { EventEmitter } from 'node:events';
import type { BlobStore } from './blobs/blob-store.js';
import type { IndexStore } from './index/store.js';

export interface EngineOptions {
  /** Objects up to this size live in the index (one commit, no file). */
  inlineMax: number;
  /** Largest single upload (and part). */
  maxObjectSize: number;
  /** Smallest part of a multipart upload, except the last. */
  minPartSize: number;
  maxPartNumber: number;
  /** Default cap on containers per account (RGW's max_buckets); -1 = unlimited. */
  maxContainersPerAccount: number;
  /** How often due X-Delete-At objects are removed; 0 = never automatically. */
  expirySweepMs: number;
  /**
   * How long a lifecycle "day" is (S3 lifecycle rules count in days). TEST ONLY when not a day,
   * as RGW's `rgw lc debug interval`: tests and `COFFER_TEST_LIFECYCLE_DAY_MS` make it seconds.
   */
  lifecycleDayMs: number;
  /** Skip fsync (tests and benchmarks of the code path only, never for user data). */
  noSync: boolean;
  /**
   * Finish interrupted writes at open. Only the process that serves the store may do this:
   * admin commands that open a store a server is using pass false.
   */
  recover: boolean;
}

export const DEFAULT_OPTIONS: EngineOptions = {
  inlineMax: 64 * 1024,
  maxObjectSize: 5 * 1024 ** 3,
  minPartSize: 5 * 1024 ** 2,
  maxPartNumber: 10000,
  maxContainersPerAccount: 1000,
  expirySweepMs: 60_000,
  lifecycleDayMs: Number(process.env.COFFER_TEST_LIFECYCLE_DAY_MS) > 0 ? Number(process.env.COFFER_TEST_LIFECYCLE_DAY_MS) : 86_400_000,
  noSync: false,
  recover: true,
};

export interface ObjectsChanged {
  tenant: string;
  container: string;
  names: string[];
}

export interface EngineEvents {
  'objects.changed': [ObjectsChanged];
}

/** What every operation needs: the index, the blob files, the options and a clock. */
export class EngineContext {
  readonly events = new EventEmitter<EngineEvents>();
  /** Credential -> the account that held it when last looked up (a hint; see ops/accounts.ts). */
  readonly credentialHints = new Map<string, string>();
  private lastMicros = 0;

  constructor(
    readonly store: IndexStore,
    readonly blobs: BlobStore,
    readonly options: EngineOptions,
  ) {}

  /** Wall-clock microseconds, strictly increasing within this process. */
  nowMicros(): number {
    const now = Date.now() * 1000 + Number(process.hrtime.bigint() % 1000n);
    this.lastMicros = Math.max(now, this.lastMicros + 1);
    return this.lastMicros;
  }

  changed(tenant: string, container: string, names: string[]): void {
    if (this.events.listenerCount('objects.changed') > 0) this.events.emit('objects.changed', { tenant, container, names });
  }
}
