import { useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { canTakeFocus } from './focus';

/**
 * A toolbar as one Tab stop (the ARIA toolbar pattern): Tab enters at the button used last (else
 * the first one that works), arrows, Home and End move between the buttons that can be used, and
 * Tab again leaves for what follows, the folder's grid.
 */
export function useRovingFocus(ref: RefObject<HTMLElement | null>) {
  const current = useRef<Element | null>(null);
  const buttons = () => [...(ref.current?.querySelectorAll<HTMLElement>('button') ?? [])];

  // After every render: buttons come, go, get disabled or hidden by the overflow.
  useLayoutEffect(() => {
    const all = buttons();
    const usable = all.filter(canTakeFocus);
    const stop = usable.find((b) => b === current.current) ?? usable[0];
    for (const b of all) b.tabIndex = b === stop ? 0 : -1;
  });

  const onFocus = (e: FocusEvent) => {
    if (!(e.target instanceof HTMLButtonElement)) return;
    current.current = e.target;
    for (const b of buttons()) b.tabIndex = b === e.target ? 0 : -1;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const usable = buttons().filter(canTakeFocus);
    const at = usable.findIndex((b) => b === e.target);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: usable.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    usable[(to + usable.length) % usable.length]?.focus();
  };

  return { onFocus, onKeyDown };
}
