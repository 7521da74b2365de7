import type { EngineContext } from '../context.js';

export interface RecoveryReport {
  tmpFilesRemoved: number;
  uncommittedBlobsRemoved: number;
  releasedBlobsRemoved: number;
}

/**
 * Finishes what a crash interrupted, looking only at what was in flight: files still in tmp/
 * (never renamed, so never committed) and the intents table. A 'put' intent that survived means
 * its commit never happened (the commit removes it atomically), and a 'gc' intent is a release
 * that was committed but not yet unlinked: either way the blob file goes.
 */
export async function recover(ctx: EngineContext): Promise<RecoveryReport> {
  const report: RecoveryReport = { tmpFilesRemoved: ctx.blobs.clearTmp(), uncommittedBlobsRemoved: 0, releasedBlobsRemoved: 0 };
  const pending = [...ctx.store.intents.getRange({})];
  if (pending.length === 0) return report;
  for (const { key, value } of pending) {
    await ctx.blobs.remove(key);
    if (value.kind === 'put') report.uncommittedBlobsRemoved++;
    else report.releasedBlobsRemoved++;
  }
  await ctx.store.write(() => {
    for (const { key } of pending) ctx.store.intents.removeSync(key);
  });
  return report;
}
