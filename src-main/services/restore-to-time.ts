// A folder (a prefix) back to a moment: every object under it as its version current then.
// Decided name by name from one flat listing with versions, so the plan and the work agree, and
// counted before anything is done. Works on any backend that lists versions.
import type { RestorePlan, RestoreResult } from '../../src-shared/contract/versions.js';
import type { FolderEntry } from '../../src-shared/model/storage.js';
import type { ObjectBackend } from '../backends/object-backend.js';

type Listed = Exclude<FolderEntry, { kind: 'folder' }>;

export type Step =
  | { name: string; action: 'restore' | 'bringBack'; versionId: string }
  | { name: string; action: 'remove' | 'unchanged' }
  /** Absent then and now: nothing to do, and nothing a user sees. */
  | { name: string; action: 'none' };

/** Names handled per batch: steps run while the listing waits. */
const BATCH = 1000;
const CONCURRENCY = 8;

/** One name's versions (newest first, the current one an `object` entry) against the moment. */
export function decide(name: string, versions: readonly Listed[], atMs: number): Step {
  const current = versions[0]?.kind === 'object' ? versions[0] : undefined;
  const then = versions.find((v) => Date.parse(v.lastModified) <= atMs);
  const thenLive = then !== undefined && (then.kind === 'object' || !then.deleteMarker);
  if (!current) return thenLive ? { name, action: 'bringBack', versionId: then.versionId ?? 'null' } : { name, action: 'none' };
  if (!thenLive) return { name, action: 'remove' };
  // The same version, or a copy of it made since (an earlier restore): nothing to change.
  if (then === current || (then.etag === current.etag && then.size === current.size)) return { name, action: 'unchanged' };
  return { name, action: 'restore', versionId: then.versionId ?? 'null' };
}

/** Each name under the prefix with all its versions, newest first; a name split across pages is joined. */
async function* namesWithVersions(backend: ObjectBackend, container: string, prefix: string): AsyncGenerator<{ name: string; versions: Listed[] }> {
  let name: string | undefined;
  let versions: Listed[] = [];
  for await (const page of backend.listFolder(container, { prefix, delimiter: '', versions: true, pageSize: backend.listPageLimit })) {
    for (const e of page.entries) {
      if (e.kind === 'folder') continue;
      if (e.name !== name) {
        if (name !== undefined) yield { name, versions };
        name = e.name;
        versions = [];
      }
      versions.push(e);
    }
  }
  if (name !== undefined) yield { name, versions };
}

async function* steps(backend: ObjectBackend, container: string, prefix: string, at: string): AsyncGenerator<Step> {
  const atMs = Date.parse(at);
  for await (const n of namesWithVersions(backend, container, prefix)) yield decide(n.name, n.versions, atMs);
}

export async function planRestore(backend: ObjectBackend, container: string, prefix: string, at: string, limit: number): Promise<RestorePlan> {
  const plan: RestorePlan = { versioning: await backend.versioning(container), restore: 0, bringBack: 0, remove: 0, unchanged: 0, complete: true };
  let counted = 0;
  for await (const step of steps(backend, container, prefix, at)) {
    if (step.action === 'none') continue;
    if (counted++ >= limit) return { ...plan, complete: false };
    plan[step.action]++;
  }
  return plan;
}

/**
 * Does what planRestore counted, a batch of names at a time: versions of then are copied back
 * (each becomes the newest version), objects made since are deleted. `progress` hears of each
 * name handled; failures are reported per name and the rest goes on.
 */
export async function restoreToTime(backend: ObjectBackend, container: string, prefix: string, at: string, progress: (n: number) => void = () => {}): Promise<RestoreResult> {
  const result: RestoreResult = { restored: 0, broughtBack: 0, removed: 0, errors: [] };
  const fail = (name: string, err: unknown) => {
    const e = err as { code?: string; message?: string };
    result.errors.push({ name, code: e.code ?? 'InternalError', message: e.message ?? String(err) });
  };
  const run = async (batch: Step[]) => {
    const copies = batch.filter((s): s is Extract<Step, { versionId: string }> => s.action === 'restore' || s.action === 'bringBack');
    await eachLimited(copies, CONCURRENCY, async (s) => {
      try {
        await backend.restoreVersion(container, s.name, s.versionId);
        result[s.action === 'restore' ? 'restored' : 'broughtBack']++;
      } catch (err) {
        fail(s.name, err);
      }
      progress(1);
    });
    const removals = batch.filter((s) => s.action === 'remove').map((s) => s.name);
    if (removals.length === 0) return;
    const r = await backend.deleteMany(container, removals);
    result.removed += r.deleted.length;
    result.errors.push(...r.errors);
    progress(removals.length);
  };
  let batch: Step[] = [];
  for await (const step of steps(backend, container, prefix, at)) {
    if (step.action === 'none' || step.action === 'unchanged') continue;
    batch.push(step);
    if (batch.length >= BATCH) {
      await run(batch);
      batch = [];
    }
  }
  await run(batch);
  return result;
}

async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
