// Multi-select as file managers do it, over the rows in their displayed order: click selects one,
// Ctrl/Cmd-click toggles, Shift-click selects a range from the anchor; arrows move the focus and
// select (Shift extends, Ctrl/Cmd moves only), Ctrl/Cmd+A selects all. Pure: keys in, model out.

/** The rows' keys in display order; `indexOf` is -1 for a key not among them. */
export interface KeyOrder {
  readonly length: number;
  keyAt(i: number): string;
  indexOf(key: string): number;
}

/** A plain array of keys as a KeyOrder (its indexOf scans: for small lists). */
export function keyOrder(keys: readonly string[]): KeyOrder {
  return { length: keys.length, keyAt: (i) => keys[i]!, indexOf: (k) => keys.indexOf(k) };
}

function keysBetween(keys: KeyOrder, lo: number, hi: number): string[] {
  const out: string[] = [];
  for (let i = lo; i <= hi; i++) out.push(keys.keyAt(i));
  return out;
}

export interface SelectionModel {
  selected: ReadonlySet<string>;
  /** Where a Shift range starts. */
  anchor: string | null;
  /** The row the keyboard acts on. */
  focus: string | null;
}

export interface Modifiers {
  /** Ctrl (Cmd on macOS). */
  toggle: boolean;
  /** Shift. */
  range: boolean;
}

function rangeKeys(keys: KeyOrder, from: string | null, to: string): string[] {
  const end = keys.indexOf(to);
  const start = from === null ? -1 : keys.indexOf(from);
  if (start < 0 || end < 0) return [to];
  const [lo, hi] = start <= end ? [start, end] : [end, start];
  return keysBetween(keys, lo, hi);
}

export function clickSelect(keys: KeyOrder, model: SelectionModel, key: string, mods: Modifiers): SelectionModel {
  if (mods.range) {
    const anchor = model.anchor ?? key;
    const range = rangeKeys(keys, anchor, key);
    const selected = mods.toggle ? new Set([...model.selected, ...range]) : new Set(range);
    return { selected, anchor, focus: key };
  }
  if (mods.toggle) {
    const selected = new Set(model.selected);
    if (selected.has(key)) selected.delete(key);
    else selected.add(key);
    return { selected, anchor: key, focus: key };
  }
  return { selected: new Set([key]), anchor: key, focus: key };
}

export type Move = { by: number } | 'first' | 'last';

export function moveFocus(keys: KeyOrder, model: SelectionModel, move: Move, mods: Modifiers): SelectionModel {
  if (keys.length === 0) return model;
  const current = model.focus === null ? -1 : keys.indexOf(model.focus);
  let index: number;
  if (move === 'first') index = 0;
  else if (move === 'last') index = keys.length - 1;
  else if (current < 0) index = move.by > 0 ? 0 : keys.length - 1;
  else index = Math.min(keys.length - 1, Math.max(0, current + move.by));
  const key = keys.keyAt(index);
  if (mods.range) return { selected: new Set(rangeKeys(keys, model.anchor ?? model.focus ?? key, key)), anchor: model.anchor ?? model.focus ?? key, focus: key };
  if (mods.toggle) return { ...model, focus: key };
  return { selected: new Set([key]), anchor: key, focus: key };
}

/** Space with Ctrl/Cmd: toggle the focused row. */
export function toggleFocused(model: SelectionModel): SelectionModel {
  if (model.focus === null) return model;
  return clickSelect(keyOrder([]), model, model.focus, { toggle: true, range: false });
}

export function selectAll(keys: KeyOrder, model: SelectionModel): SelectionModel {
  const first = keys.length > 0 ? keys.keyAt(0) : null;
  return { selected: new Set(keysBetween(keys, 0, keys.length - 1)), anchor: model.anchor ?? first, focus: model.focus ?? first };
}
