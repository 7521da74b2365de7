import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { FolderEntry } from '../../src-shared/model/storage';
import { api } from '../api/client';
import { queryKeys } from './keys';

/** Entries per page: the first page paints at once, the rest stream in as the user scrolls. */
export const FOLDER_PAGE_SIZE = 1000;

/**
 * One folder (or one name-prefix listing inside it) as marker pages: a delimiter listing, so
 * deeper names arrive as virtual folders.
 */
export function useFolder(account: string, container: string, prefix: string) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.folder(account, container, prefix),
    queryFn: ({ pageParam }) =>
      api.browse.listFolder({ account, container, prefix, delimiter: '/', pageSize: FOLDER_PAGE_SIZE, ...(pageParam ? { marker: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextMarker ?? undefined,
  });
  // Rebuilt only when a page arrives: a fresh array on every render (each fetch-state change)
  // made every memo keyed on it (rows, keys, their index) redo O(entries) work each time.
  const entries: FolderEntry[] = useMemo(() => (query.data ? query.data.pages.flatMap((p) => p.entries) : []), [query.data]);
  return { ...query, entries };
}

export function useHead(account: string, container: string, name: string | null) {
  return useQuery({
    queryKey: queryKeys.head(account, container, name ?? ''),
    queryFn: () => api.browse.head({ account, container, name: name! }),
    enabled: name !== null,
  });
}
