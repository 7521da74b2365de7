import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import './menu.css';

export interface MenuItem {
  id: string;
  label: string;
  onSelect(): void;
  danger?: boolean;
  /** Shown, and reachable with the arrows, but does nothing. */
  disabled?: boolean;
  /** Starts a new group (a separator above it). */
  group?: boolean;
  /** A switch, on or off (menuitemcheckbox). */
  checked?: boolean;
}

export interface MenuPosition {
  x: number;
  y: number;
}

/**
 * A context menu as the ARIA menu pattern has it: role menu/menuitem, the first item focused
 * on open, arrow keys (wrapping), Home/End and first letters move, Enter/Space choose, Escape or
 * Tab or a click elsewhere closes, and the focus goes back where it was.
 */
export function Menu({ label, at, items, onClose }: { label: string; at: MenuPosition; items: readonly MenuItem[]; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState(at);
  const [active, setActive] = useState(0);
  const returnTo = useRef<Element | null>(null);
  // The owner's latest onClose: the listeners below are added once per opening and must not call
  // the one of the render that opened the menu.
  const onCloseRef = useRef(onClose);
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });
  // Set once closing: a hover's render can still have its focus effect pending when an item is
  // clicked (React flushes it before unmounting the menu); it must not take the focus back from
  // where closing put it.
  const closed = useRef(false);
  const close = useCallback((restoreFocus: boolean) => {
    closed.current = true;
    onCloseRef.current();
    if (restoreFocus && returnTo.current instanceof HTMLElement) returnTo.current.focus();
  }, []);

  // Keep the menu inside the window: open up/left of the point when there is no room below/right.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({ x: Math.max(0, Math.min(at.x, window.innerWidth - r.width - 4)), y: Math.max(0, Math.min(at.y, window.innerHeight - r.height - 4)) });
  }, [at.x, at.y]);

  useEffect(() => {
    returnTo.current = document.activeElement;
    const onPointer = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) close(false);
    };
    const onBlur = () => close(false);
    document.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('blur', onBlur);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('blur', onBlur);
    };
    // Once per opening (the menu is remounted for each): close never changes.
  }, [close]);

  useEffect(() => {
    if (closed.current) return;
    ref.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[active]?.focus();
  }, [active, items.length]);

  const choose = (item: MenuItem) => {
    if (item.disabled) return;
    close(true);
    item.onSelect();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    // The menu's keys are its own, not the folder view's shortcuts.
    e.stopPropagation();
    const n = items.length;
    switch (e.key) {
      case 'ArrowDown':
        setActive((i) => (i + 1) % n);
        break;
      case 'ArrowUp':
        setActive((i) => (i - 1 + n) % n);
        break;
      case 'Home':
        setActive(0);
        break;
      case 'End':
        setActive(n - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        close(true);
        break;
      case 'Enter':
      case ' ': {
        const item = items[active];
        if (item) choose(item);
        break;
      }
      default: {
        if (e.key.length !== 1) return;
        const letter = e.key.toLowerCase();
        const next = [...items.keys()].map((k) => (active + 1 + k) % n).find((i) => items[i]!.label.toLowerCase().startsWith(letter));
        if (next === undefined) return;
        setActive(next);
      }
    }
    e.preventDefault();
  };

  return (
    <div ref={ref} role="menu" aria-label={label} className="context-menu" style={{ left: pos.x, top: pos.y }} onKeyDown={onKeyDown} onContextMenu={(e) => e.preventDefault()}>
      {items.map((item, i) => (
        <div
          key={item.id}
          role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
          aria-checked={item.checked}
          tabIndex={i === active ? 0 : -1}
          aria-disabled={item.disabled || undefined}
          className={`context-menu-item${item.danger ? ' danger' : ''}${item.group && i > 0 ? ' group' : ''}`}
          onClick={() => choose(item)}
          onPointerMove={() => setActive(i)}
        >
          {item.label}
        </div>
      ))}
    </div>
  );
}
