import { focusManager, QueryClient } from '@tanstack/react-query';
import { errorKind } from '../app/errors';

/**
 * How often the figures that change behind the app's back (usage and quotas, containers, whether
 * a connection works) are asked for again while the window shows; react-query pauses it while hidden.
 */
export const REFRESH_MS = 30_000;

/**
 * "Focus" is the window coming back: a tab shown again (react-query's default) and also the
 * desktop window activated again while it stayed visible behind another application's (so it
 * counts as away once it loses the focus: react-query acts only on a change).
 */
focusManager.setEventListener((onFocus) => {
  const changed = () => onFocus(document.visibilityState !== 'hidden');
  const focused = () => onFocus(true);
  const blurred = () => onFocus(false);
  window.addEventListener('visibilitychange', changed);
  window.addEventListener('focus', focused);
  window.addEventListener('blur', blurred);
  return () => {
    window.removeEventListener('visibilitychange', changed);
    window.removeEventListener('focus', focused);
    window.removeEventListener('blur', blurred);
  };
});

/**
 * Server state lives here. The store is local or a remote account the app is told about through
 * events, so: no refetch on focus by default (a 100k-entry folder would reload every page; the
 * small figures that change elsewhere opt in, with REFRESH_MS), one retry for transient errors,
 * none when the server is gone or the session expired (say so at once).
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
