import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { toRows, type Row } from '../features/browser/rows';
import { api } from '../api/client';
import { queryKeys } from './keys';

/** The first page: small, so that it paints at once. */
export const FIRST_PAGE_SIZE = 1000;
/**
 * The pages after it: as large as the contract allows. Each backend answers up to its own limit
 * (the local store 10,000, remote S3 and Swift 1,000), so a 100,000-entry local folder loads in
 * 11 round trips rather than 100.
 */
export const NEXT_PAGE_SIZE = 10_000;

/** One marker page of a folder, as the rows it shows. */
export interface FolderRowsPage {
  /** The folder's own marker object (`photos/` inside photos/) has none: it is the folder. */
  rows: Row[];
  nextMarker: string | null;
  /** The name of the page's last entry (the next page may go on with its versions). */
  last: string | undefined;
}

interface PageParam {
  marker: string;
  after: string | undefined;
}

/** What loadToEnd needs of an infinite query's result. */
interface PagesSoFar {
  isError: boolean;
  hasNextPage: boolean;
  fetchNextPage(options: { cancelRefetch: boolean }): Promise<PagesSoFar>;
}

/**
 * One folder (`folder`, the prefix the rows' names are relative to), listing only names that go
 * on with `filter`, as marker pages: a delimiter listing, so deeper names arrive as virtual folders.
 */
export function useFolder(account: string, container: string, folder: string, filter: string, versions = false) {
  const listing = folder + filter;
  return useInfiniteQuery({
    // The folder is part of the key as the rows' labels depend on it, not only on the listing.
    queryKey: [...queryKeys.folder(account, container, listing), folder, ...(versions ? ['versions'] : [])],
    queryFn: async ({ pageParam }): Promise<FolderRowsPage> => {
      const pageSize = pageParam ? NEXT_PAGE_SIZE : FIRST_PAGE_SIZE;
      const page = await api.browse.listFolder({ account, container, prefix: listing, delimiter: '/', pageSize, versions, ...(pageParam ? { marker: pageParam.marker } : {}) });
      const last = page.entries.at(-1);
      // Each page becomes rows once, here, and only the rows are kept: holding the server's
      // entries next to them doubled what every loaded entry costs.
      return { rows: toRows(page.entries, folder, pageParam?.after), nextMarker: page.nextMarker, last: last && (last.kind === 'folder' ? last.prefix : last.name) };
    },
    initialPageParam: undefined as PageParam | undefined,
    getNextPageParam: (last): PageParam | undefined => (last.nextMarker ? { marker: last.nextMarker, after: last.last } : undefined),
  });
}

/**
 * Loads every page after those loaded, each asked for as soon as the one before is in (not once
 * its rows are drawn: that waited a frame or more per page). `next` fetches the next page,
 * joining one already on its way. True once the folder's end is loaded; false on an error or
 * when `stopped()` says the user went elsewhere.
 */
export async function loadToEnd(next: () => Promise<PagesSoFar>, stopped: () => boolean): Promise<boolean> {
  for (let result = await next(); ; result = await result.fetchNextPage({ cancelRefetch: false })) {
    if (result.isError || stopped()) return false;
    if (!result.hasNextPage) return true;
  }
}

export function useHead(account: string, container: string, name: string | null) {
  return useQuery({
    queryKey: queryKeys.head(account, container, name ?? ''),
    queryFn: () => api.browse.head({ account, container, name: name! }),
    enabled: name !== null,
  });
}
