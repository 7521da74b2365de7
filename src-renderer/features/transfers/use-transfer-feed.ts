import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TransferItem } from '../../../src-shared/contract/transfers';
import { api, client } from '../../api/client';
import { onUploadAnswer } from '../../api/uploads';
import { queryKeys } from '../../queries/keys';
import { ACTIVE } from './progress';
import { useTransfers } from './store';

/** Events of 10,000 small files arrive in bursts: the panel re-renders once per burst. */
const FLUSH_MS = 100;
/**
 * The event stream has no replay: events sent while it reconnects are lost. When items are
 * unfinished and nothing was heard for this long, the whole list is asked for again.
 */
const QUIET_MS = 5000;

/** Reloads the whole queue from main (after calls that remove items, which send no event). */
export async function reloadTransfers(): Promise<void> {
  const { items, concurrency } = await api.transfers.list({});
  useTransfers.getState().replace(items, concurrency);
}

/**
 * Keeps the renderer's copy of the queue: the whole list once, then every item's progress events.
 * A finished upload also refreshes its container's listings right away (the listing is where the
 * user looks for it).
 */
export function useTransferFeed(): void {
  const qc = useQueryClient();
  useEffect(() => {
    let pending: TransferItem[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      const before = new Map(useTransfers.getState().items.map((i) => [i.id, i.state]));
      useTransfers.getState().merge(batch);
      const touched = new Map<string, readonly unknown[]>();
      for (const item of batch) {
        if (item.direction === 'upload' && item.state === 'done' && before.get(item.id) !== 'done') {
          touched.set(`${item.account}\n${item.container}`, queryKeys.folders(item.account, item.container));
        }
      }
      for (const queryKey of touched.values()) void qc.invalidateQueries({ queryKey });
    };
    let heard = Date.now();
    const off = client.on('transfer.progress', (report) => {
      heard = Date.now();
      pending.push(...report.items);
      timer ??= setTimeout(flush, FLUSH_MS);
    });
    const watchdog = setInterval(() => {
      if (Date.now() - heard < QUIET_MS || !useTransfers.getState().items.some((i) => ACTIVE.has(i.state))) return;
      heard = Date.now();
      reloadTransfers().catch(() => undefined);
    }, QUIET_MS);
    reloadTransfers().catch(() => undefined);
    const offRefusals = onUploadAnswer((id, error) => useTransfers.getState().setNote(id, error?.message ?? null));
    return () => {
      clearTimeout(timer);
      clearInterval(watchdog);
      off();
      offRefusals();
    };
  }, [qc]);
}
