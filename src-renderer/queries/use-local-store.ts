import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { queryKeys } from './keys';
import { REFRESH_MS } from './query-client';

export function useLocalStatus() {
  return useQuery({ queryKey: queryKeys.localStatus(), queryFn: () => api.localStore.status({}) });
}

/** Every account of the local store, with keys, quota and usage (which change behind the app's back, from the CLI). */
export function useLocalUsers() {
  return useQuery({ queryKey: queryKeys.localUsers(), queryFn: () => api.localStore.users({}), refetchOnWindowFocus: 'always', refetchInterval: REFRESH_MS });
}

/** Shows another local account: remembered by the store; answers the connection id to browse. */
export function useChooseLocalAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (account: string) => api.localStore.chooseAccount({ account }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.connections() }),
  });
}

export function useCreateLocalAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: { id: string; displayName?: string }) => api.localStore.createAccount(a),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.localUsers() }),
  });
}

export function useAddLocalKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: { account: string; kind: 's3' } | { account: string; kind: 'swift'; subuser: string }) => api.localStore.addKey(a),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.localUsers() }),
  });
}
