import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { toRows, type Row } from '../features/browser/rows';
import { api } from '../api/client';
import { queryKeys } from './keys';

/** Entries per page: the first page paints at once, the rest stream in as the user scrolls. */
export const FOLDER_PAGE_SIZE = 1000;

/** One marker page of a folder, as the rows it shows. */
export interface FolderRowsPage {
  /** The folder's own marker object (`photos/` inside photos/) has none: it is the folder. */
  rows: Row[];
  nextMarker: string | null;
}

/**
 * One folder (`folder`, the prefix the rows' names are relative to), listing only names that go
 * on with `filter`, as marker pages: a delimiter listing, so deeper names arrive as virtual folders.
 */
export function useFolder(account: string, container: string, folder: string, filter: string) {
  const listing = folder + filter;
  return useInfiniteQuery({
    // The folder is part of the key as the rows' labels depend on it, not only on the listing.
    queryKey: [...queryKeys.folder(account, container, listing), folder],
    queryFn: async ({ pageParam }): Promise<FolderRowsPage> => {
      const page = await api.browse.listFolder({ account, container, prefix: listing, delimiter: '/', pageSize: FOLDER_PAGE_SIZE, ...(pageParam ? { marker: pageParam } : {}) });
      // Each page becomes rows once, here, and only the rows are kept: holding the server's
      // entries next to them doubled what every loaded entry costs.
      return { rows: toRows(page.entries, folder), nextMarker: page.nextMarker };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextMarker ?? undefined,
  });
}

export function useHead(account: string, container: string, name: string | null) {
  return useQuery({
    queryKey: queryKeys.head(account, container, name ?? ''),
    queryFn: () => api.browse.head({ account, container, name: name! }),
    enabled: name !== null,
  });
}
