// The local backend's operations that page or loop through the engine on their own.
import { isCofferError } from '../../src-shared/errors.js';
import type { DeleteManyResult, VersionEntry } from '../../src-shared/model/storage.js';
import type { Engine } from '../engine/engine.js';
import type { ContainerRef } from '../engine/types.js';
import { versionEntry } from './local-mapping.js';

export const DEFAULT_PAGE_SIZE = 1000;

/** Every version of one object, newest first. */
export function listLocalVersions(engine: Engine, ref: ContainerRef, name: string): VersionEntry[] {
  const out: VersionEntry[] = [];
  let keyMarker: string | undefined;
  let versionIdMarker: string | undefined;
  // The prefix also matches longer names, which sort after this one: stop at the first of them.
  for (;;) {
    const page = engine.listVersions(ref, { prefix: name, keyMarker, versionIdMarker, limit: DEFAULT_PAGE_SIZE });
    let past = false;
    for (const e of page.entries) {
      if (e.kind === 'version' && e.name === name) out.push(versionEntry(e.version));
      else past = true;
    }
    if (!page.truncated || past) return out;
    keyMarker = page.nextKeyMarker;
    versionIdMarker = page.nextVersionIdMarker;
  }
}

/** Deletes each name; one already gone counts as deleted, other refusals are reported per name. */
export async function deleteLocalObjects(engine: Engine, ref: ContainerRef, names: string[]): Promise<DeleteManyResult> {
  engine.getContainer(ref);
  const result: DeleteManyResult = { deleted: [], errors: [] };
  for (const name of names) {
    try {
      await engine.deleteObject(ref, name, { missingOk: true });
      result.deleted.push(name);
    } catch (err) {
      if (isCofferError(err)) result.errors.push({ name, code: err.code, message: err.message });
      else throw err;
    }
  }
  return result;
}
