import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { queryKeys } from './keys';
import { REFRESH_MS } from './query-client';

/** A connection's containers; their usage and quotas change behind the app's back, so they refresh on focus and now and then. */
export function useContainers(account: string) {
  return useQuery({
    queryKey: queryKeys.containers(account),
    queryFn: () => api.browse.listContainers({ account }),
    refetchOnWindowFocus: 'always',
    refetchInterval: REFRESH_MS,
  });
}

export function useCreateContainer(account: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (container: string) => api.browse.createContainer({ account, container }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.containers(account) }),
  });
}

export function useDeleteContainer(account: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (container: string) => api.browse.deleteContainer({ account, container }),
    onSuccess: (_v, container) => {
      qc.removeQueries({ queryKey: queryKeys.folders(account, container) });
      return qc.invalidateQueries({ queryKey: queryKeys.containers(account) });
    },
  });
}
