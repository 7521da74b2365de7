// The loaded rows of a folder in display order, kept up to date page by page in time linear in
// what arrives: a folder of 100,000 entries loads as 100 pages, and redoing work over everything
// loaded for each of them made scrolling to the end quadratic.
import { isServerOrder, type SortColumn, type SortDirection } from '../../stores/sort';
import { sortRows, type Row } from './rows';

export interface RowOrder {
  column: SortColumn;
  direction: SortDirection;
}

/** Positions of keys, shared by a list and the lists that extend it (their positions agree). */
class KeyIndex {
  private readonly positions = new Map<string, number>();

  /** The longest list sharing this index: only it may be extended with the index shared. */
  constructor(public tip: readonly Row[]) {}

  /** Indexes up to `rows.length`: only rows not yet indexed cost anything. */
  lookup(rows: readonly Row[], key: string): number {
    for (let i = this.positions.size; i < rows.length; i++) this.positions.set(rows[i]!.key, i);
    const at = this.positions.get(key);
    // A longer list sharing this index may have indexed keys past this list's end.
    return at !== undefined && at < rows.length ? at : -1;
  }
}

/**
 * Rows in display order, with positions of keys for focus and selection. The index is built on
 * first use only (scrolling through a folder with nothing focused never needs it), and a list
 * extended by appending shares it, so it grows with the new rows instead of being rebuilt.
 */
export class RowList {
  private constructor(
    readonly rows: readonly Row[],
    private readonly index: KeyIndex,
  ) {}

  static of(rows: readonly Row[]): RowList {
    return new RowList(rows, new KeyIndex(rows));
  }

  get length(): number {
    return this.rows.length;
  }

  keyAt(i: number): string {
    return this.rows[i]!.key;
  }

  indexOf(key: string): number {
    return this.index.lookup(this.rows, key);
  }

  /** These rows, then `more` after them. */
  append(more: readonly Row[]): RowList {
    if (more.length === 0) return this;
    const rows = this.rows.concat(more);
    // Appending twice to the same list would give two lists whose positions disagree past it.
    if (this.index.tip !== this.rows) return RowList.of(rows);
    this.index.tip = rows;
    return new RowList(rows, this.index);
  }

  /** The rows among `keys`, in display order. */
  pick(keys: ReadonlySet<string>): Row[] {
    if (keys.size === 0) return [];
    // A few keys: look each up; many (Ctrl+A): one pass over the rows is cheaper.
    if (keys.size * 16 >= this.rows.length) return this.rows.filter((r) => keys.has(r.key));
    const at: number[] = [];
    for (const key of keys) {
      const i = this.indexOf(key);
      if (i >= 0) at.push(i);
    }
    return at.sort((a, b) => a - b).map((i) => this.rows[i]!);
  }
}

/** What `nextRowList` derives the list from, kept to extend it when the next page arrives. */
export interface LoadedRows {
  pages: readonly (readonly Row[])[];
  order: RowOrder;
  list: RowList;
}

function startsWith(pages: readonly (readonly Row[])[], head: readonly (readonly Row[])[]): boolean {
  if (head.length > pages.length) return false;
  for (let i = 0; i < head.length; i++) if (pages[i] !== head[i]) return false;
  return true;
}

/**
 * The rows of `pages` (each already in the server's order) in `order`. When the previous result
 * had the same order and its pages are the first of these, only the new pages are worked on: in
 * the server's order they append; in another, they are sorted by themselves and merged in (the
 * engine's sort finds the loaded rows already in order, so it merges rather than sorts them).
 */
export function nextRowList(prev: LoadedRows | null, pages: readonly (readonly Row[])[], order: RowOrder): LoadedRows {
  const sameOrder = prev !== null && prev.order.column === order.column && prev.order.direction === order.direction;
  if (prev !== null && sameOrder && startsWith(pages, prev.pages)) {
    if (pages.length === prev.pages.length) return prev;
    const added = pages.slice(prev.pages.length).flat();
    const list = isServerOrder(order) ? prev.list.append(added) : RowList.of(sortRows(prev.list.rows.concat(added), order.column, order.direction));
    return { pages, order, list };
  }
  return { pages, order, list: RowList.of(sortRows(pages.flat(), order.column, order.direction)) };
}
