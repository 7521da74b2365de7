import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isLocalConnection } from '../../src-shared/model/local-connection';
import { client } from '../api/client';
import { useProgress } from '../stores/progress';
import { queryKeys } from './keys';

/** Bursts of events (a bulk upload sends one per object) become one refetch per key. */
const BATCH_MS = 200;

/**
 * Pushed events keep the cache honest: a change to objects (from this app, another tool or
 * another window) invalidates that container's listings, its heads and the counters shown
 * around them; a connection's new state refreshes the sidebar.
 */
export function useServerEvents(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const pending = new Map<string, QueryKey>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const invalidate = (...keys: QueryKey[]) => {
      for (const key of keys) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(() => {
        timer = undefined;
        const batch = [...pending.values()];
        pending.clear();
        for (const queryKey of batch) void qc.invalidateQueries({ queryKey });
      }, BATCH_MS);
    };
    const offObjects = client.on('objects.changed', ({ account, container }) => {
      invalidate(queryKeys.folders(account, container), queryKeys.heads(account, container), queryKeys.containers(account), queryKeys.accountInfo(account));
      if (isLocalConnection(account)) invalidate(queryKeys.localUsers());
    });
    const offState = client.on('connection.state', () => invalidate(queryKeys.connections()));
    const offProgress = client.on('operation.progress', (p) => useProgress.getState().report(p));
    return () => {
      offProgress();
      clearTimeout(timer);
      offObjects();
      offState();
    };
  }, [qc]);
}
