// Where the keyboard goes when the element that held it disappears (a dialog closes, one view
// replaces another). Chromium then leaves the focus on <body>, where the folder view's keys
// (Delete, F2, Backspace, paste) reach nothing. This works on the DOM alone, so it holds however
// the app keeps where the user is (a store, the URL).

const HOME = 'data-focus-home';

/** Marks a view's main control (the folder's grid): the focus goes there when it has nowhere better to go. */
export const focusHome = { [HOME]: '' } as const;

/** True when nothing in particular has the focus: it fell to <body>, or its element is gone. */
export function focusIsLost(): boolean {
  const el = document.activeElement;
  return el === null || el === document.body || el === document.documentElement || !el.isConnected;
}

/** Connected, enabled, shown: focus() would move the focus there. */
export function canTakeFocus(el: Element | null): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected || el.matches(':disabled') || el.closest('[inert]')) return false;
  return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
}

/** Focuses `preferred` (a dialog's opener) when it can still take the focus, else the view's home. */
export function returnFocus(preferred: Element | null = null): void {
  const target = canTakeFocus(preferred) ? preferred : document.querySelector<HTMLElement>(`[${HOME}]`);
  target?.focus();
}

/** Gives the focus to the view's home, but only if it was lost: a view never takes it from a control the user is in. */
export function reclaimFocus(): void {
  if (focusIsLost()) returnFocus();
}

let lastShown: { account: string; container: string } | null = null;

/** The folder view notes the container it shows, so that the container list, shown next, can focus it. */
export function containerShown(account: string, container: string): void {
  lastShown = { account, container };
}

/** The container of this account the folder view showed last, if any. */
export function lastContainerShown(account: string): string | null {
  return lastShown?.account === account ? lastShown.container : null;
}
