import { CofferError } from '../../../src-shared/errors.js';
import type { EngineContext } from '../context.js';
import { CID_BYTES, expiryBound } from '../index/keys.js';
import { deleteObject } from './delete-object.js';

/**
 * Removes objects whose X-Delete-At has passed (they are already hidden from reads). The queue
 * is ordered by time, so a sweep reads only the entries that are due.
 */
export async function expireDue(ctx: EngineContext, nowMs = Date.now(), max = 1000): Promise<number> {
  const due = [...ctx.store.expiry.getKeys({ end: expiryBound(Math.floor(nowMs / 1000) + 1), limit: max })];
  let removed = 0;
  for (const key of due) {
    const deleteAt = Number(key.readBigUInt64BE(0));
    const objKey = key.subarray(8);
    const cid = objKey.readUInt32BE(0);
    const name = objKey.subarray(CID_BYTES).toString('utf8');
    const current = ctx.store.objects.get(objKey);
    const container = current ? findByCid(ctx, cid) : undefined;
    if (current?.deleteAt === deleteAt && container) {
      try {
        await deleteObject(ctx, container, name, { versionId: current.versionId ?? 'null' });
        removed++;
        continue;
      } catch (err) {
        if (!(err instanceof CofferError)) throw err;
      }
    }
    await ctx.store.write(() => ctx.store.expiry.removeSync(key));
  }
  return removed;
}

function findByCid(ctx: EngineContext, cid: number) {
  const key = ctx.store.meta.get(`cid:${cid}`) as string | undefined;
  const rec = key === undefined ? undefined : ctx.store.containers.get(key);
  return rec ? { tenant: rec.tenant, container: rec.name } : undefined;
}
