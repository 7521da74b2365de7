import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { useCapabilities } from './use-object-ops';
import { queryKeys } from './keys';

/**
 * A container's versioning, where the connection keeps versions (none asked otherwise: the
 * status is then "cannot", said by the capabilities). Undefined while unknown.
 */
export function useVersioning(account: string, container: string) {
  const caps = useCapabilities(account).data;
  const query = useQuery({
    queryKey: queryKeys.versioning(account, container),
    queryFn: async () => (await api.versions.status({ account, container })).status,
    enabled: caps?.versions === true,
  });
  return { caps, status: caps?.versions ? query.data : undefined, query };
}

function useInvalidate(account: string, container: string) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.folders(account, container) }),
      qc.invalidateQueries({ queryKey: queryKeys.heads(account, container) }),
      qc.invalidateQueries({ queryKey: queryKeys.containers(account) }),
    ]);
}

export function useSetVersioning(account: string, container: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) => (await api.versions.set({ account, container, on })).status,
    onSuccess: (status) => qc.setQueryData(queryKeys.versioning(account, container), status),
  });
}

export function useUndelete(account: string, container: string) {
  const invalidate = useInvalidate(account, container);
  return useMutation({ mutationFn: (names: string[]) => api.versions.undelete({ account, container, names }), onSettled: invalidate });
}

/** What restoring a folder to a moment would do; asked again whenever the moment changes. */
export function useRestorePlan(account: string, container: string, prefix: string, at: string | null) {
  return useQuery({
    queryKey: [...queryKeys.folders(account, container), 'restore-plan', prefix, at],
    queryFn: () => api.versions.planRestore({ account, container, prefix, at: at! }),
    enabled: at !== null,
    staleTime: 0,
    retry: false,
  });
}

export function useRestoreTo(account: string, container: string, prefix: string) {
  const invalidate = useInvalidate(account, container);
  return useMutation({ mutationFn: (a: { at: string; operationId: string }) => api.versions.restoreTo({ account, container, prefix, ...a }), onSettled: invalidate });
}
