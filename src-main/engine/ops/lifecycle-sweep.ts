import { isCofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { isLocked } from '../object-lock.js';
import { currentExpiry, deleteMarkerDue, noncurrentDue, uploadDue, type LifecycleRule } from '../lifecycle.js';
import type { ContainerRef, ObjectInfo } from '../types.js';
import { deleteObject } from './delete-object.js';
import { listUploads } from './list-uploads.js';
import { listVersions } from './list-versions.js';
import { abortUpload } from './multipart.js';

export interface LifecycleReport {
  expired: number;
  noncurrentRemoved: number;
  markersRemoved: number;
  uploadsAborted: number;
  /** Noncurrent versions due but kept: under an Object Lock retention or legal hold (AWS's lifecycle skips them too). */
  lockedKept: number;
}

/**
 * Applies every container's lifecycle rules as of `nowMs` (RGW's LC worker, AWS's daily run).
 * Nothing is queued ahead: due dates follow from the rules and the objects' own times, so a
 * restart loses nothing, and a rule changed or removed takes effect at the next sweep. The walk
 * reads only the prefixes the rules cover.
 */
export async function runLifecycle(ctx: EngineContext, nowMs: number): Promise<LifecycleReport> {
  const report: LifecycleReport = { expired: 0, noncurrentRemoved: 0, markersRemoved: 0, uploadsAborted: 0, lockedKept: 0 };
  const work: { ref: ContainerRef; rules: LifecycleRule[] }[] = [];
  for (const { value } of ctx.store.containers.getRange()) {
    const rules = value.lifecycle?.filter((r) => r.enabled);
    if (rules?.length) work.push({ ref: { tenant: value.tenant, container: value.name }, rules });
  }
  for (const { ref, rules } of work) {
    try {
      for (const prefix of outermost(rules.map((r) => r.prefix))) {
        await sweepVersions(ctx, ref, rules, prefix, nowMs, report);
        await sweepUploads(ctx, ref, rules, prefix, nowMs, report);
      }
    } catch (err) {
      // The container went away during the sweep: nothing left to do there.
      if (!isCofferError(err, 'NoSuchContainer')) throw err;
    }
  }
  return report;
}

/** The prefixes to walk: none inside another (a rule for '' covers them all). */
function outermost(prefixes: string[]): string[] {
  const out: string[] = [];
  for (const p of [...new Set(prefixes)].sort()) if (!out.some((o) => p.startsWith(o))) out.push(p);
  return out;
}

async function sweepVersions(ctx: EngineContext, ref: ContainerRef, rules: LifecycleRule[], prefix: string, nowMs: number, report: LifecycleReport): Promise<void> {
  const dayMs = ctx.options.lifecycleDayMs;
  let marker: { key: string; version: string } | undefined;
  // One name's versions may span pages: they are acted on once the next name (or the end) shows.
  let name: string | undefined;
  let versions: ObjectInfo[] = [];
  const flush = async () => {
    if (name !== undefined) await sweepName(ctx, ref, rules, name, versions, nowMs, dayMs, report);
    versions = [];
  };
  for (;;) {
    const page = listVersions(ctx, ref, { prefix, limit: 1000, ...(marker ? { keyMarker: marker.key, versionIdMarker: marker.version } : {}) });
    for (const e of page.entries) {
      if (e.kind !== 'version') continue;
      if (e.name !== name) {
        await flush();
        name = e.name;
      }
      versions.push(e.version);
    }
    if (!page.truncated || page.nextKeyMarker === undefined) break;
    marker = { key: page.nextKeyMarker, version: page.nextVersionIdMarker ?? '' };
  }
  await flush();
}

/** One name's versions, newest first: the current one expires, old ones go, a lone marker goes. */
async function sweepName(
  ctx: EngineContext,
  ref: ContainerRef,
  rules: LifecycleRule[],
  name: string,
  versions: ObjectInfo[],
  nowMs: number,
  dayMs: number,
  report: LifecycleReport,
): Promise<void> {
  const [current, ...older] = versions;
  if (!current) return;
  let left = versions.length;
  if (!current.deleteMarker) {
    const due = currentExpiry(rules, name, current.lastModified, dayMs, current);
    if (due && due.at <= nowMs) {
      // Without a version id, as a client's DELETE: unversioned, the object goes; versioned, a
      // delete marker hides it and its data becomes a noncurrent version (AWS's expiration). A
      // locked version is hidden so too: a delete marker removes nothing.
      await deleteObject(ctx, ref, name, { missingOk: true });
      report.expired++;
    }
  }
  for (let i = 0; i < older.length; i++) {
    const v = older[i]!;
    const since = versions[i]!.lastModified;
    if (!noncurrentDue(rules, name, since, i, nowMs, dayMs, v)) continue;
    if (isLocked(v, nowMs)) {
      report.lockedKept++;
      continue;
    }
    const r = await deleteObject(ctx, ref, name, { versionId: v.versionId ?? 'null', missingOk: true });
    if (!r.missing) {
      report.noncurrentRemoved++;
      left--;
    }
  }
  if (current.deleteMarker && left === 1 && deleteMarkerDue(rules, name)) {
    const r = await deleteObject(ctx, ref, name, { versionId: current.versionId ?? 'null', missingOk: true });
    if (!r.missing) report.markersRemoved++;
  }
}

async function sweepUploads(ctx: EngineContext, ref: ContainerRef, rules: LifecycleRule[], prefix: string, nowMs: number, report: LifecycleReport): Promise<void> {
  const dayMs = ctx.options.lifecycleDayMs;
  let marker: { keyMarker: string; uploadIdMarker: string } | undefined;
  for (;;) {
    const page = listUploads(ctx, ref, { prefix, ...(marker ?? {}) });
    for (const u of page.uploads) {
      if (!uploadDue(rules, u.name, u.initiated, nowMs, dayMs)) continue;
      try {
        await abortUpload(ctx, ref, u.name, u.uploadId);
        report.uploadsAborted++;
      } catch (err) {
        // Completed or aborted by its client meanwhile.
        if (!isCofferError(err, 'NoSuchUpload')) throw err;
      }
    }
    if (!page.truncated || page.nextKeyMarker === undefined) break;
    marker = { keyMarker: page.nextKeyMarker, uploadIdMarker: page.nextUploadIdMarker ?? '' };
  }
}
