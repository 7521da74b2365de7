// Remote connections (add, update, remove, test, check), an account's usage against its quota, and
// the local store's account quotas.
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConnectionConfig, ConnectionEdit, ConnectionInfo } from '../../src-shared/model/connections';
import { api } from '../api/client';
import { queryKeys } from './keys';
import { REFRESH_MS } from './query-client';

const accountInfoKey = queryKeys.accountInfo;

/**
 * Usage and quota of one account, refreshed on focus and now and then (quotas change from the
 * CLI and other clients); asking also refreshes the connection's state in the sidebar.
 */
export function useAccountInfo(id: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: accountInfoKey(id),
    queryFn: async () => {
      try {
        return await api.accounts.info({ id });
      } finally {
        void qc.invalidateQueries({ queryKey: queryKeys.connections() });
      }
    },
    retry: false,
    refetchOnWindowFocus: 'always',
    refetchInterval: REFRESH_MS,
  });
}

/**
 * Asks each remote connection's server whether it works (a request it must authenticate): at
 * start, when the window comes back and now and then, so a wrong key or a server that went away
 * shows without waiting for a failed click. The state reaches the sidebar by its event.
 */
export function useConnectionChecks(connections: ConnectionInfo[] | undefined) {
  useQueries({
    queries: (connections ?? [])
      .filter((c) => c.kind !== 'local')
      .map((c) => ({
        queryKey: queryKeys.connectionCheck(c.id),
        queryFn: () => api.accounts.check({ id: c.id }),
        refetchOnWindowFocus: 'always',
        refetchInterval: REFRESH_MS,
        staleTime: 0,
        retry: false,
      })),
  });
}

/** A saved connection's settings, secrets left out: what the edit dialog starts from. */
export function useConnectionSettings(id: string | null) {
  return useQuery({ queryKey: queryKeys.connectionSettings(id ?? ''), queryFn: () => api.accounts.settings({ id: id! }), enabled: id !== null, staleTime: 0, gcTime: 0, retry: false });
}

/** Tries settings; with the id of a saved connection, secrets left empty are its saved ones. */
export function useTestConnection() {
  return useMutation({ mutationFn: (a: { config: ConnectionEdit; id?: string }) => api.accounts.test(a) });
}

export function useSaveConnection() {
  const qc = useQueryClient();
  return useMutation({
    /** A new connection needs every setting; an edit may leave secrets empty to keep the saved ones. */
    mutationFn: async (a: { id: null; name: string; config: ConnectionConfig } | { id: string; name: string; config: ConnectionEdit }) => {
      const saved = a.id === null ? await api.accounts.add({ name: a.name, config: a.config }) : await api.accounts.update({ id: a.id, name: a.name, config: a.config });
      // Check it at once so the sidebar says whether it works (the error, if any, is the state).
      await api.accounts.check({ id: saved.id }).catch(() => undefined);
      return saved;
    },
    onSettled: async (saved) => {
      await qc.invalidateQueries({ queryKey: queryKeys.connections() });
      if (saved) {
        await qc.invalidateQueries({ queryKey: accountInfoKey(saved.id) });
        await qc.invalidateQueries({ queryKey: queryKeys.containers(saved.id) });
        await qc.invalidateQueries({ queryKey: queryKeys.capabilities(saved.id) });
      }
    },
  });
}

export function useRemoveConnection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.accounts.remove({ id }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.connections() }),
  });
}

/** An account's quota, or (with `container`) one container's, in the local store. */
export function useSetLocalQuota() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: { account: string; container?: string; maxBytes: number; maxObjects: number }) => api.localStore.setQuota(a),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: ['account-info'] });
      await qc.invalidateQueries({ queryKey: queryKeys.localUsers() });
      await qc.invalidateQueries({ queryKey: ['containers'] });
    },
  });
}
