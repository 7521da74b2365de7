import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useSelection } from '../../stores/selection';
import { focusHome, reclaimFocus } from '../common/focus';
import { GridHeader } from './GridHeader';
import { GridRow } from './GridRow';
import type { RowList } from './row-list';
import type { Row } from './rows';
import { clickSelect, moveFocus, selectAll, toggleFocused, type Modifiers, type Move } from './selection-logic';
import { useGoToEnd } from './use-go-to-end';

export const ROW_HEIGHT = 30;
/**
 * Ask for the next page this many rows before the end comes into view: a first page's worth, so
 * the page after it is on its way as soon as the folder shows, and scrolling rarely meets the
 * loading row.
 */
const PREFETCH_ROWS = 1000;
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta']);

export interface ObjectGridProps {
  /** The rows in display order, with the key positions focus and selection need. */
  list: RowList;
  label: string;
  /** A new listing (folder or filter): scroll back to the top. */
  listingKey: string;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): void;
  /** Loads every page still to come, until `stopped()`; true once the end is loaded. */
  loadToEnd(stopped: () => boolean): Promise<boolean>;
  onOpen(row: Row): void;
  /** Space on an object: the larger preview. */
  onPreview(row: Row): void;
  onUp(): void;
  /** A context menu asked for at a point: on a row (now part of the selection), or on the empty area (null). */
  onMenu(at: { x: number; y: number }, row: Row | null): void;
  /** Entries cut to the clipboard (shown dimmed until pasted). */
  cutKeys?: ReadonlySet<string> | undefined;
  /** Shown over the body instead of rows: loading, empty, error. */
  overlay: ReactNode;
}

/**
 * The folder's rows in a virtualized ARIA grid: only the visible rows exist in the DOM, so a
 * folder of 100,000 entries scrolls like one of 100. The grid keeps the keyboard focus itself and
 * points at the focused row with aria-activedescendant, so rows may come and go while scrolling.
 */
export function ObjectGrid({ list, label, listingKey, hasNextPage, isFetchingNextPage, fetchNextPage, loadToEnd, onOpen, onPreview, onUp, onMenu, cutKeys, overlay }: ObjectGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridId = useId();
  const selection = useSelection();
  const rows = list.rows;
  const count = rows.length + (hasNextPage ? 1 : 0);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const lastVisible = items.length > 0 ? items[items.length - 1]!.index : -1;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastVisible >= rows.length - PREFETCH_ROWS) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastVisible, rows.length, fetchNextPage]);

  const arrive = useCallback((mods: Modifiers) => selection.apply(moveFocus(list, selection, 'last', mods)), [list, selection]);
  const toEnd = useGoToEnd({ hasNextPage, listingKey, loadToEnd, arrive });
  // While the pages come, the view stays at the bottom, where the loading row counts them.
  useEffect(() => {
    if (toEnd.pending) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [toEnd.pending, count, virtualizer]);

  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [listingKey, virtualizer]);

  // A container just opened (its button in the list is gone) or focus fell out of a closed view: the grid takes it.
  useEffect(() => reclaimFocus(), []);

  const focusIndex = selection.focus === null ? -1 : list.indexOf(selection.focus);
  // Follow the focus when the user moves it, not when rows shift under it (a re-sort, or a new
  // page sorted into the loaded part): following those would scroll to the end, load the next
  // page, shift again, and so on through the whole folder.
  const focusIndexRef = useRef(focusIndex);
  focusIndexRef.current = focusIndex;
  useEffect(() => {
    if (focusIndexRef.current >= 0) virtualizer.scrollToIndex(focusIndexRef.current, { align: 'auto' });
  }, [selection.focus, virtualizer]);

  const rowId = (i: number) => `${gridId}-row-${i}`;
  const { cancel: cancelToEnd } = toEnd;
  const onRowClick = useCallback(
    (e: MouseEvent, row: Row) => {
      cancelToEnd();
      selection.apply(clickSelect(list, selection, row.key, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey }));
    },
    [list, selection, cancelToEnd],
  );

  const onRowMenu = useCallback(
    (e: MouseEvent, row: Row) => {
      e.preventDefault();
      e.stopPropagation();
      // As in file managers: a right-click outside the selection selects that row alone.
      if (!selection.selected.has(row.key)) selection.apply(clickSelect(list, selection, row.key, { toggle: false, range: false }));
      onMenu({ x: e.clientX, y: e.clientY }, row);
    },
    [list, selection, onMenu],
  );

  /**
   * The menu key (or Shift+F10): the selection's menu when something is selected (under the
   * focused row if it is part of it), else the folder's own menu.
   */
  const menuFromKeyboard = () => {
    const selectedRow = rows.find((r) => selection.selected.has(r.key)) ?? null;
    const focused = focusIndex >= 0 ? rows[focusIndex] : undefined;
    const rowEl = focused && selection.selected.has(focused.key) ? document.getElementById(rowId(focusIndex)) : null;
    const r = (rowEl ?? scrollRef.current)?.getBoundingClientRect();
    onMenu({ x: (r?.left ?? 0) + 24, y: rowEl ? (r?.bottom ?? 0) : (r?.top ?? 0) + 8 }, selectedRow);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    // Keys on the header's sort buttons are theirs.
    if (e.target !== e.currentTarget) return;
    if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault();
      menuFromKeyboard();
      return;
    }
    const mods = { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey };
    // Another key while going to the end (not a modifier on its own): the user went elsewhere.
    if (toEnd.pending && e.key !== 'End' && !MODIFIER_KEYS.has(e.key)) toEnd.cancel();
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const move = (m: Move) => selection.apply(moveFocus(list, selection, m, mods));
    switch (e.key) {
      case 'ArrowDown':
        move({ by: 1 });
        break;
      case 'ArrowUp':
        move({ by: -1 });
        break;
      case 'PageDown':
        move({ by: page });
        break;
      case 'PageUp':
        move({ by: -page });
        break;
      case 'Home':
        move('first');
        break;
      case 'End':
        // Ctrl+End too: the last entry of the folder, not of what is loaded so far.
        if (hasNextPage) toEnd.start(mods);
        else move('last');
        break;
      case 'Enter': {
        const row = focusIndex >= 0 ? rows[focusIndex] : undefined;
        if (!row) return;
        onOpen(row);
        break;
      }
      case 'Backspace':
        onUp();
        break;
      case 'Escape':
        selection.clear();
        break;
      case ' ': {
        if (mods.toggle) {
          selection.apply(toggleFocused(selection));
          break;
        }
        if (selection.focus === null) break;
        selection.apply(clickSelect(list, selection, selection.focus, { toggle: false, range: e.shiftKey }));
        // Space alone on an object: Quick Look, as in file managers.
        const row = focusIndex >= 0 ? rows[focusIndex] : undefined;
        if (!e.shiftKey && row?.kind === 'object') onPreview(row);
        break;
      }
      default:
        if ((e.key === 'a' || e.key === 'A') && mods.toggle && !e.shiftKey && !e.altKey) {
          selection.apply(selectAll(list, selection));
          break;
        }
        return;
    }
    e.preventDefault();
  };

  return (
    <div className="grid-frame">
    <div
      role="grid"
      className="grid"
      aria-label={label}
      aria-multiselectable="true"
      aria-rowcount={hasNextPage ? -1 : rows.length + 1}
      aria-busy={toEnd.pending !== null}
      aria-colcount={4}
      aria-activedescendant={focusIndex >= 0 && items.some((v) => v.index === focusIndex) ? rowId(focusIndex) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      {...focusHome}
    >
      <GridHeader />
      <div
        role="rowgroup"
        className="grid-body"
        ref={scrollRef}
        onContextMenu={(e) => {
          e.preventDefault();
          selection.clear();
          onMenu({ x: e.clientX, y: e.clientY }, null);
        }}
      >
        <div role="presentation" className="grid-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((v) => {
            const row = rows[v.index];
            if (!row) {
              return (
                <div key="more" role="row" aria-rowindex={v.index + 2} className="grid-row grid-item grid-more" style={{ transform: `translateY(${v.start}px)` }}>
                  <div role="gridcell" className="col-name">
                    <span className="spinner" aria-hidden="true" /> {toEnd.pending ? strings.toEnd.loading(formatCount(rows.length)) : strings.browser.loadingMore}
                  </div>
                </div>
              );
            }
            return (
              <GridRow
                key={row.key}
                row={row}
                id={rowId(v.index)}
                index={v.index}
                top={v.start}
                selected={selection.selected.has(row.key)}
                cut={cutKeys?.has(row.key) ?? false}
                focused={v.index === focusIndex}
                onClick={onRowClick}
                onOpen={onOpen}
                onContextMenu={onRowMenu}
              />
            );
          })}
        </div>
      </div>
    </div>
    {overlay ? <div className="grid-overlay">{overlay}</div> : null}
    </div>
  );
}
