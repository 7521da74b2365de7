import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MetadataSet } from '../../src-shared/model/storage';
import { api } from '../api/client';
import { queryKeys } from './keys';

/** After any change to a container's objects: its listings, heads and counters are stale. */
function useInvalidateContainer(account: string, container: string) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.folders(account, container) }),
      qc.invalidateQueries({ queryKey: queryKeys.heads(account, container) }),
      qc.invalidateQueries({ queryKey: queryKeys.containers(account) }),
    ]);
}

/** Replaces an object's whole metadata set (the native API replaces on POST). */
export function useSetMetadata(account: string, container: string, name: string) {
  const qc = useQueryClient();
  const invalidate = useInvalidateContainer(account, container);
  return useMutation({
    mutationFn: (set: MetadataSet) => api.browse.setMetadata({ account, container, name, ...set }),
    onSuccess: (details) => {
      qc.setQueryData(queryKeys.head(account, container, name), details);
      return invalidate();
    },
  });
}

export function useCreateFolder(account: string, container: string) {
  const invalidate = useInvalidateContainer(account, container);
  return useMutation({
    mutationFn: (prefix: string) => api.browse.createFolder({ account, container, prefix }),
    onSuccess: invalidate,
  });
}

export function useDeleteEntries(account: string, container: string) {
  const invalidate = useInvalidateContainer(account, container);
  return useMutation({
    mutationFn: (what: { names: string[]; prefixes: string[]; operationId?: string }) => api.browse.delete({ account, container, ...what }),
    onSettled: invalidate,
  });
}

export function useMove(account: string, container: string) {
  const invalidate = useInvalidateContainer(account, container);
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      api.browse.move({ from: { account, container, name: from }, to: { account, container, name: to } }),
    onSettled: invalidate,
  });
}

/** What the account's backend can do; the UI hides what it cannot. */
export function useCapabilities(account: string) {
  return useQuery({ queryKey: queryKeys.capabilities(account), queryFn: () => api.browse.capabilities({ account }), staleTime: Infinity });
}

export function useSetPublic(account: string, container: string) {
  const invalidate = useInvalidateContainer(account, container);
  return useMutation({
    mutationFn: ({ name, on }: { name?: string; on: boolean }) => api.browse.setPublic({ account, container, on, ...(name === undefined ? {} : { name }) }),
    onSettled: invalidate,
  });
}

/** Where anyone reads a public container (asked once it is public). */
export function usePublicUrl(account: string, container: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.publicUrl(account, container), queryFn: () => api.browse.publicUrl({ account, container }), enabled, staleTime: Infinity, retry: false });
}

export function useShareLink(account: string, container: string, name: string) {
  return useMutation({ mutationFn: (expiresInSeconds: number) => api.browse.shareLink({ account, container, name, expiresInSeconds }) });
}

/** An object's versions, newest first; under the object's head key so the same events refresh it. */
export function useVersions(account: string, container: string, name: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.versions(account, container, name), queryFn: () => api.browse.listVersions({ account, container, name }), enabled });
}

export function useRestoreVersion(account: string, container: string, name: string) {
  const invalidate = useInvalidateContainer(account, container);
  return useMutation({ mutationFn: (versionId: string) => api.browse.restoreVersion({ account, container, name, versionId }), onSettled: invalidate });
}

export function useDeleteVersion(account: string, container: string, name: string) {
  const invalidate = useInvalidateContainer(account, container);
  return useMutation({ mutationFn: (versionId: string) => api.browse.deleteVersion({ account, container, name, versionId }), onSettled: invalidate });
}

/** The objects whole folders hold, for the delete confirmation (counting stops at 100,000). */
export function useFolderCount(account: string, container: string, prefixes: string[]) {
  return useQuery({
    queryKey: [...queryKeys.folders(account, container), 'count', ...prefixes],
    queryFn: () => api.browse.countUnder({ account, container, prefixes }),
    enabled: prefixes.length > 0,
    staleTime: 0,
  });
}
