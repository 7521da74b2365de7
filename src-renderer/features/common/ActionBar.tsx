import { useRef, useState } from 'react';
import { Icon, type IconName } from '../../app/icons';
import { strings } from '../../app/strings';
import { Menu, type MenuPosition } from '../context-menu/Menu';
import { tooltip } from './Tooltips';
import { useFittingCount } from './use-fitting-count';
import { useRovingFocus } from './use-roving-focus';
import './action-bar.css';

const s = strings.actionBar;

export interface Action {
  id: string;
  label: string;
  icon: IconName;
  /** The key that does the same: shown in the tooltip, told to assistive technology. */
  keys?: { shown: string; aria: string };
  disabled?: boolean;
  danger?: boolean;
  /** A switch: on or off (aria-pressed; a checked item in the menu). */
  pressed?: boolean;
  run(): void;
}

/**
 * A toolbar of icon buttons with tooltips, one Tab stop. The buttons that do not fit the width
 * left to it move, from the end, into a "More actions" menu, which also holds the actions that
 * never get a button of their own (`menuOnly`).
 */
export function ActionBar({ label, actions, menuOnly }: { label: string; actions: readonly Action[]; menuOnly: readonly Action[] }) {
  const bar = useRef<HTMLDivElement>(null);
  const line = useRef<HTMLDivElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  const roving = useRovingFocus(bar);
  const fitting = useFittingCount(line, actions.map((a) => a.id).join('\n'));
  const [menuAt, setMenuAt] = useState<MenuPosition | null>(null);
  const overflowed = actions.slice(fitting);
  const inMenu = [...overflowed, ...menuOnly];
  const openMenu = () => {
    const r = more.current?.getBoundingClientRect();
    if (r) setMenuAt({ x: r.left, y: r.bottom + 2 });
  };
  return (
    <div ref={bar} role="toolbar" aria-label={label} className="action-bar" onFocus={roving.onFocus} onKeyDown={roving.onKeyDown}>
      <div ref={line} className="action-line">
        {actions.map((a, i) => (
          <button
            key={a.id}
            type="button"
            className={`icon-button tool${a.danger ? ' danger' : ''}${a.pressed ? ' pressed' : ''}`}
            aria-label={a.label}
            aria-pressed={a.pressed}
            aria-keyshortcuts={a.keys?.aria}
            disabled={a.disabled}
            onClick={a.run}
            {...tooltip(a.keys ? s.withKeys(a.label, a.keys.shown) : a.label)}
            {...(i >= fitting ? { 'data-overflowed': 'true' } : {})}
          >
            <Icon name={a.icon} size={18} />
          </button>
        ))}
      </div>
      {inMenu.length > 0 ? (
        <button ref={more} type="button" className="icon-button tool" aria-label={s.more} aria-haspopup="menu" aria-expanded={menuAt !== null} onClick={openMenu} {...tooltip(s.more)}>
          <Icon name="more" size={18} />
        </button>
      ) : null}
      {menuAt ? (
        <Menu
          label={s.moreMenu}
          at={menuAt}
          items={inMenu.map((a, i) => ({
            id: a.id,
            label: a.label,
            onSelect: a.run,
            disabled: a.disabled ?? false,
            danger: a.danger ?? false,
            group: i === overflowed.length && i > 0,
            ...(a.pressed !== undefined ? { checked: a.pressed } : {}),
          }))}
          onClose={() => setMenuAt(null)}
        />
      ) : null}
    </div>
  );
}
