import { isCofferError, type CofferErrorCode } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import type { ContainerInfo } from '../types.js';
import { containerInfo, deleteContainer, findContainer } from './containers.js';
import { deleteObject } from './delete-object.js';

/** An object, or (without `name`) a container, to delete. */
export interface DeleteTarget {
  container: string;
  name?: string;
}

export interface DeleteFailure {
  /** `/container/object` or `/container`. */
  path: string;
  /** Why it was not deleted; 'AccessDenied' when the caller's check refused it. */
  code: CofferErrorCode | 'AccessDenied';
  message: string;
}

/** The outcome of many deletes; one path failing does not stop the others. */
export interface DeleteReport {
  deleted: number;
  notFound: number;
  errors: DeleteFailure[];
}

/** Whether the caller may delete this object (`name`) or container (no `name`). */
export type DeleteCheck = (container: ContainerInfo, name: string | undefined) => boolean;

/** Swift's bulk-delete limits (also published in /info). */
export const BULK_DELETE_LIMITS = { maxDeletesPerRequest: 10000, maxFailedDeletes: 1000 } as const;

/**
 * Deletes objects and containers of one tenant, one after the other (a container after the
 * objects listed before it, so `/c/o` then `/c` empties and removes `c`). Missing ones are
 * counted, not failed; a non-empty container fails with ContainerNotEmpty.
 */
export async function deleteMany(ctx: EngineContext, tenant: string, targets: DeleteTarget[], canDelete?: DeleteCheck): Promise<DeleteReport> {
  const report: DeleteReport = { deleted: 0, notFound: 0, errors: [] };
  for (const t of targets) {
    const path = t.name === undefined ? `/${t.container}` : `/${t.container}/${t.name}`;
    const ref = { tenant, container: t.container };
    try {
      const c = findContainer(ctx, ref);
      if (!c) {
        report.notFound++;
        continue;
      }
      if (canDelete && !canDelete(containerInfo(ctx, c), t.name)) {
        report.errors.push({ path, code: 'AccessDenied', message: 'Access denied' });
        continue;
      }
      if (t.name === undefined) await deleteContainer(ctx, ref);
      else await deleteObject(ctx, ref, t.name);
      report.deleted++;
    } catch (err) {
      if (isCofferError(err, 'NoSuchKey') || isCofferError(err, 'NoSuchContainer')) report.notFound++;
      else if (isCofferError(err)) report.errors.push({ path, code: err.code, message: err.message });
      else throw err;
    }
    if (report.errors.length >= BULK_DELETE_LIMITS.maxFailedDeletes) break;
  }
  return report;
}
