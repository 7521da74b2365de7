import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import './tooltips.css';

/** Gives a control a tooltip (its accessible name stays its own: an aria-label or its text). */
export const tooltip = (text: string) => ({ 'data-tooltip': text });

const GAP = 6;
const MARGIN = 4;

/**
 * The one tooltip of the app, for every element with data-tooltip: shown while the pointer is
 * over it and while it has the keyboard focus (a title attribute shows only to the mouse), hidden
 * by Escape, a click, scrolling or leaving. Placed below the element (above when there is no room)
 * and kept inside the window; fixed on the page, so no toolbar or list clips it.
 */
export function Tooltips() {
  const [anchor, setAnchor] = useState<Element | null>(null);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const owner = (target: EventTarget | null) => (target instanceof Element ? target.closest('[data-tooltip]') : null);
    const onOver = (e: PointerEvent) => setAnchor(owner(e.target));
    const onOut = (e: PointerEvent) => {
      if (!owner(e.relatedTarget)) setAnchor(null);
    };
    const onFocus = (e: FocusEvent) => {
      const el = owner(e.target);
      if (el && el === e.target && el.matches(':focus-visible')) setAnchor(el);
    };
    const hide = () => setAnchor(null);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') hide();
    };
    document.addEventListener('pointerover', onOver);
    document.addEventListener('pointerout', onOut);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('focusout', hide);
    document.addEventListener('pointerdown', hide, true);
    document.addEventListener('keydown', onKey, true);
    window.addEventListener('scroll', hide, true);
    window.addEventListener('resize', hide);
    return () => {
      document.removeEventListener('pointerover', onOver);
      document.removeEventListener('pointerout', onOut);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('focusout', hide);
      document.removeEventListener('pointerdown', hide, true);
      document.removeEventListener('keydown', onKey, true);
      window.removeEventListener('scroll', hide, true);
      window.removeEventListener('resize', hide);
    };
  }, []);

  useLayoutEffect(() => {
    const tip = ref.current;
    if (!tip || !anchor) return;
    const a = anchor.getBoundingClientRect();
    const t = tip.getBoundingClientRect();
    const left = Math.min(Math.max(MARGIN, a.left + a.width / 2 - t.width / 2), window.innerWidth - t.width - MARGIN);
    const below = a.bottom + GAP + t.height <= window.innerHeight - MARGIN;
    tip.style.left = `${left}px`;
    tip.style.top = `${below ? a.bottom + GAP : a.top - GAP - t.height}px`;
    tip.style.visibility = 'visible';
  });

  const text = anchor?.getAttribute('data-tooltip');
  if (!anchor || !text || !anchor.isConnected) return null;
  return (
    <div ref={ref} role="tooltip" className="tooltip" key={text}>
      {text}
    </div>
  );
}
