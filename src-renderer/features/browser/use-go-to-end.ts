import { useCallback, useEffect, useRef, useState } from 'react';
import type { Modifiers } from './selection-logic';

/**
 * End (and Ctrl/Shift+End) in a folder whose end is not loaded yet: every page after the loaded
 * ones is loaded, then `arrive` moves to the last entry with the modifiers of the key press.
 * Pressing End again meanwhile changes nothing; any other move (`cancel`) or another listing
 * stops the loading where it is.
 */
export function useGoToEnd({ hasNextPage, listingKey, loadToEnd, arrive }: { hasNextPage: boolean; listingKey: string; loadToEnd(stopped: () => boolean): Promise<boolean>; arrive(mods: Modifiers): void }) {
  const [pending, setPending] = useState<Modifiers | null>(null);
  // Each start gets a number; a stale number tells its loading to stop.
  const run = useRef(0);

  const cancel = useCallback(() => {
    run.current++;
    setPending(null);
  }, []);

  const start = (mods: Modifiers) => {
    if (pending) return;
    const mine = ++run.current;
    setPending(mods);
    void loadToEnd(() => run.current !== mine).then((reached) => {
      if (!reached && run.current === mine) setPending(null);
    });
  };

  // The last page is in (and drawn into the list this render): go to the last entry.
  useEffect(() => {
    if (pending && !hasNextPage) {
      setPending(null);
      arrive(pending);
    }
  }, [pending, hasNextPage, arrive]);

  useEffect(() => cancel, [listingKey, cancel]);

  return { pending, start, cancel };
}
