import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContainerOptions } from '../../src-shared/model/storage';
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
    mutationFn: ({ container, options }: { container: string; options: ContainerOptions }) => api.browse.createContainer({ account, container, options }),
    // A creation refused part-way (S3 object lock a server ignored) may still have made the bucket.
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.containers(account) }),
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
