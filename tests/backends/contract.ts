// The one suite every ObjectBackend passes (local engine, remote native, remote S3): the same
// cases, gated on what the backend says it can do (capabilities()).
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, type TestContext } from 'vitest';
import type { Capabilities } from '../../src-shared/model/storage.js';
import { skipReason } from '../reference/reference.js';
import type { ReferenceKind } from '../reference/servers.js';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import type { SegmentPlace } from './helpers.js';
import { accessCases } from './contract-access.js';
import { containerOptionCases } from './contract-container-options.js';
import { containerSettingCases } from './contract-container-settings.js';
import { containerCases } from './contract-containers.js';
import { partCases } from './contract-parts.js';
import { listingCases } from './contract-listing.js';
import { objectCases } from './contract-objects.js';
import { transferCases } from './contract-transfers.js';
import { versionCases } from './contract-versions.js';

export interface BackendFixture {
  backend: ObjectBackend;
  /** Where a client without credentials reads an object once it is public. */
  publicUrl(container: string, name: string): string;
  /** Multipart/segment uploads still open in the container, when the store can tell. */
  pendingUploads?(container: string): Promise<number>;
  /** The same store reached with wrong credentials; absent where credentials do not apply. */
  withWrongCredentials?(): ObjectBackend;
  /** Account usage reaches the account's HEAD this long after a write (Swift's container updater); absent: at once. */
  usageLagMs?: number;
  /** Has the server bring a container's figures to its account now, where it does that on a schedule of its own (Swift's container updater). */
  settleUsage?(container: string): Promise<void>;
  /** What the server says of an account's and a container's figures, and its own logs, shown when they did not arrive in time. */
  diagnoseUsage?(container: string): Promise<string>;
  /** The backend pointed at an address nothing answers on; absent where there is no network. */
  unreachable?(): ObjectBackend;
  /** Whether the server makes a bucket with object lock when asked (RGW does; Coffer's S3 API ignores the request). */
  honoursObjectLock?: boolean;
  /** Makes a Swift Static Large Object of these segments (over the store's Swift API), for what the backend reads of one. */
  /** Resolves with where each segment was put. */
  putSlo?(container: string, name: string, segments: Buffer[], at?: SegmentPlace): Promise<{ container: string; name: string }[]>;
  /** Makes a Swift Dynamic Large Object of these segments, put at `at` (over the store's Swift API); resolves with where each went. */
  putDlo?(container: string, name: string, segments: Buffer[], at: SegmentPlace): Promise<{ container: string; name: string }[]>;
  /** Why the store's answers leave its large objects' parts unknown to the backend (partLayout undefined), where they do. */
  noPartLayout?: string;
  /** Another S3 client on the same store and account, for what the backend cannot write itself (a lifecycle rule with a tag filter). */
  s3?: S3Client;
  /** Why a capability the contract checks is missing on this backend, shown with the skipped case. */
  lacks?: Partial<Record<keyof Capabilities, string>>;
  close(): Promise<void>;
}

/** Lets the case groups reach the fixture built in beforeAll. */
export type FixtureRef = () => BackendFixture;

/**
 * Skips the running case, saying why, where the backend lacks `feature` (its capabilities() say
 * so); the reason is the fixture's, printed too, so a report shows what was not checked and why.
 */
export function requireFeature(ctx: TestContext, f: BackendFixture, feature: keyof Capabilities): void {
  if (f.backend.capabilities()[feature]) return;
  const why = (f.backend.capabilities().why as Partial<Record<string, string>>)[feature];
  const reason = `not applicable: no ${feature} here (${why ?? f.lacks?.[feature] ?? 'the backend says so'})`;
  console.info(`${ctx.task.name}: ${reason}`);
  ctx.skip(reason);
}

/** Skips the running case, saying why, where the fixture cannot provide what it needs. */
export function requireFixture(ctx: TestContext, present: unknown, what: string): void {
  if (present) return;
  console.info(`${ctx.task.name}: not applicable: ${what}`);
  ctx.skip(`not applicable: ${what}`);
}

export interface ContractOptions {
  /** The reference server the fixture runs on: without it installed (and not in CI) the suite is skipped, saying why. */
  needs?: ReferenceKind;
}

export function describeBackendContract(name: string, makeFixture: () => Promise<BackendFixture>, opts: ContractOptions = {}): void {
  const skip = opts.needs ? skipReason(opts.needs) : undefined;
  (skip ? describe.skip : describe)(`ObjectBackend contract: ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let fixture: BackendFixture | undefined;
    beforeAll(async () => {
      fixture = await makeFixture();
    });
    afterAll(async () => {
      await fixture?.close();
    });
    const get: FixtureRef = () => {
      if (!fixture) throw new Error('fixture not ready');
      return fixture;
    };
    containerCases(get);
    objectCases(get);
    listingCases(get);
    transferCases(get);
    partCases(get);
    accessCases(get);
    versionCases(get);
    containerOptionCases(get);
    containerSettingCases(get);
  });
}
