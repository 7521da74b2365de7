import type { KeyboardEvent } from 'react';
import { useClipboard } from '../../stores/clipboard';
import type { Row } from '../browser/rows';

/** Puts the selected rows on the app clipboard, to be copied (or moved, after cut) by a paste. */
export function takeRows(mode: 'copy' | 'cut', account: string, container: string, rows: readonly Row[]): void {
  if (rows.length === 0) return;
  useClipboard.getState().put({
    mode,
    account,
    container,
    names: rows.filter((r) => r.kind === 'object').map((r) => r.key),
    prefixes: rows.filter((r) => r.kind === 'folder').map((r) => r.key),
  });
}

/** Ctrl/Cmd+C copies, Ctrl/Cmd+X cuts, Ctrl/Cmd+V pastes; true when the key was one of them. */
export function clipboardKey(e: KeyboardEvent, where: { account: string; container: string; selected: readonly Row[] }, paste: () => void): boolean {
  // Only keys typed in the grid: elsewhere (a text field, text selected in the details panel)
  // the system clipboard keeps its usual meaning.
  if (!(e.target instanceof Element) || !e.target.closest('[role="grid"]')) return false;
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return false;
  const key = e.key.toLowerCase();
  if ((key === 'c' || key === 'x') && where.selected.length > 0) takeRows(key === 'c' ? 'copy' : 'cut', where.account, where.container, where.selected);
  else if (key === 'v' && useClipboard.getState().entry) paste();
  else return false;
  e.preventDefault();
  return true;
}
