// Waiting on the transfer service's items as the transfers panel sees them (`transfers.list`).
import { setTimeout as sleep } from 'node:timers/promises';
import type { TransferItem } from '../../src-shared/contract/transfers.js';

/** The items `ids` once every one of them is listed and done, failed or cancelled; fails after `timeoutMs`. */
export async function settledItems(list: () => Promise<{ items: TransferItem[] }>, ids: string[], timeoutMs = 60_000): Promise<TransferItem[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const items = (await list()).items.filter((i) => ids.includes(i.id));
    if (items.length === ids.length && items.every((i) => ['done', 'failed', 'cancelled'].includes(i.state))) return items;
    if (Date.now() > until) throw new Error(`transfers still running: ${JSON.stringify(items)}`);
    await sleep(25);
  }
}
