import { QueryClient } from '@tanstack/react-query';
import { errorKind } from '../app/errors';

/**
 * Server state lives here. The store is local or a remote account the app is told about through
 * events, so: no refetch on focus (a 100k-entry folder would reload every page), one retry for
 * transient errors, none when the server is gone or the session expired (say so at once).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, err) => failures < 1 && errorKind(err) === 'other' && !/^NoSuch/.test(String((err as { code?: string }).code)),
        retryDelay: 400,
      },
      mutations: { retry: false },
    },
  });
}
