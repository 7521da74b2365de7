import { z } from 'zod';
import type { ObjectDetails, VersioningStatus } from '../model/storage.js';
import type { In } from './types.js';

const account = z.string().min(1).max(300);
const container = z.string().min(1).max(256);
const where = { account, container };
const prefix = z.string().max(1024).default('');
/** A moment, to the millisecond (ISO 8601 with its zone). */
const at = z.string().datetime({ offset: true });

export const versionsMethods = {
  /** The container's versioning (NotSupported, with the reason, where the backend keeps no versions). */
  status: z.object(where),
  /** Turns versioning on, or suspends it; a container never versioned stays so when turned off. */
  set: z.object({ ...where, on: z.boolean() }),
  /** Brings deleted objects back as their newest versions were; one that is not deleted stays as it is. */
  undelete: z.object({ ...where, names: z.array(z.string().min(1).max(1024)).min(1).max(10_000) }),
  /** What restoring a folder (a prefix; '' the whole container) to a moment would do, counted before anything is done. */
  planRestore: z.object({ ...where, prefix, at, limit: z.number().int().min(1).max(1_000_000).default(100_000) }),
  /**
   * Every object under the prefix back to its version current at `at`: changed ones get that
   * version back, deleted ones come back, ones made after it are deleted (a delete marker where
   * versioning is on). Reports progress as 'operation.progress' under `operationId`.
   */
  restoreTo: z.object({ ...where, prefix, at, operationId: z.string().min(1).max(100).optional() }),
};

/** What a restore to a moment does, name by name, counted before it is done. */
export interface RestorePlan {
  versioning: VersioningStatus;
  /** Changed since: their version of then becomes current again. */
  restore: number;
  /** Deleted since: they come back as they were then. */
  bringBack: number;
  /** Made since (or absent then): they are deleted. */
  remove: number;
  /** The same then and now. */
  unchanged: number;
  /** False when counting stopped at the limit: there are at least these many. */
  complete: boolean;
}

export interface RestoreResult {
  restored: number;
  broughtBack: number;
  removed: number;
  errors: { name: string; code: string; message: string }[];
}

type M = typeof versionsMethods;

/** Versions as a view of their own: a container's versioning switch, undelete, and a folder back to a moment. */
export interface VersionsService {
  status(a: In<M['status']>): Promise<{ status: VersioningStatus }>;
  set(a: In<M['set']>): Promise<{ status: VersioningStatus }>;
  undelete(a: In<M['undelete']>): Promise<{ restored: ObjectDetails[]; errors: RestoreResult['errors'] }>;
  planRestore(a: In<M['planRestore']>): Promise<RestorePlan>;
  restoreTo(a: In<M['restoreTo']>): Promise<RestoreResult>;
}
