import type { EngineContext } from '../context.js';
import type { DataRef } from '../types.js';

/**
 * Inside a write transaction: forgets the bytes of a replaced or deleted version. Inline bytes go
 * with the transaction; blob files get a 'gc' intent in the same transaction, so a crash before
 * they are unlinked still leaves a record recovery will finish. Returns the blob ids to unlink.
 */
export function releaseData(ctx: EngineContext, data: DataRef): string[] {
  if ('inline' in data) {
    ctx.store.inline.removeSync(data.inline);
    return [];
  }
  if (!('segments' in data)) return [];
  const now = Date.now();
  for (const s of data.segments) ctx.store.intents.putSync(s.blob, { kind: 'gc', created: now });
  return data.segments.map((s) => s.blob);
}

/**
 * After the commit: unlinks released blob files, then drops their intents. A reader that opened
 * a file before the unlink keeps reading the old bytes whole (POSIX semantics).
 */
export async function releaseBlobs(ctx: EngineContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await Promise.all(ids.map((id) => ctx.blobs.remove(id)));
  await ctx.store.write(() => {
    for (const id of ids) ctx.store.intents.removeSync(id);
  });
}
