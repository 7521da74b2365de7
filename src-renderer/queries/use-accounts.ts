// Remote connections (add, update, remove, test) and an account's usage against its quota.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConnectionConfig } from '../../src-shared/model/connections';
import { api } from '../api/client';
import { queryKeys } from './keys';

const accountInfoKey = queryKeys.accountInfo;

/** Usage and quota of one account; asking also refreshes the connection's state in the sidebar. */
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
  });
}

export function useTestConnection() {
  return useMutation({ mutationFn: (config: ConnectionConfig) => api.accounts.test({ config }) });
}

export function useSaveConnection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (a: { id: string | null; name: string; config: ConnectionConfig | undefined }) => {
      const saved = a.id === null ? await api.accounts.add({ name: a.name, config: a.config! }) : await api.accounts.update({ id: a.id, name: a.name, ...(a.config ? { config: a.config } : {}) });
      // Check it at once so the sidebar says whether it works (the error, if any, is the state).
      await api.accounts.info({ id: saved.id }).catch(() => undefined);
      return saved;
    },
    onSettled: async (saved) => {
      await qc.invalidateQueries({ queryKey: queryKeys.connections() });
      if (saved) {
        await qc.invalidateQueries({ queryKey: accountInfoKey(saved.id) });
        await qc.invalidateQueries({ queryKey: queryKeys.containers(saved.id) });
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

export function useSetLocalQuota() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: { account: string; maxBytes: number; maxObjects: number }) => api.localStore.setQuota(a),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: ['account-info'] });
      await qc.invalidateQueries({ queryKey: queryKeys.localUsers() });
    },
  });
}
