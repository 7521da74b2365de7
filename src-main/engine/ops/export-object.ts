import { chmod, link } from 'node:fs/promises';
import type { EngineContext } from '../context.js';
import type { ContainerRef } from '../types.js';
import { findVersion } from './read-object.js';

/**
 * Hard-links the current version's blob to `dest` when the object is exactly one blob file (not
 * inline, not in parts, not a manifest): the bytes leave the store without a copy. Blob files
 * are written once and never opened for writing again, so the link stays a faithful copy even
 * after the object is deleted. False when it cannot (the caller copies instead).
 */
export async function linkObjectTo(ctx: EngineContext, ref: ContainerRef, name: string, dest: string): Promise<boolean> {
  const { record } = findVersion(ctx, ref, name);
  if (record.manifest || !('segments' in record.data) || record.data.segments.length !== 1) return false;
  const [segment] = record.data.segments;
  if (segment!.size !== record.size) return false;
  try {
    await link(ctx.blobs.path(segment!.blob), dest);
    // Read-only, so nothing writes through the link into the store (Windows would then refuse
    // to release the blob, and copies there anyway: hard links need administrator rights).
    if (process.platform !== 'win32') await chmod(dest, 0o444);
    return true;
  } catch {
    // Released since the lookup, another file system, or links not allowed: copy instead.
    return false;
  }
}
