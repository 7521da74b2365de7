import { create } from 'zustand';

export type SortColumn = 'name' | 'size' | 'type' | 'modified';
export type SortDirection = 'asc' | 'desc';

interface SortState {
  column: SortColumn;
  direction: SortDirection;
  /** Same column flips the direction; a new column starts ascending. */
  toggle(column: SortColumn): void;
}

/** Name ascending is the server's own order; any other sort applies to what is loaded. */
export const useSort = create<SortState>()((set, get) => ({
  column: 'name',
  direction: 'asc',
  toggle: (column) => {
    const s = get();
    set(s.column === column ? { direction: s.direction === 'asc' ? 'desc' : 'asc' } : { column, direction: 'asc' });
  },
}));

export function isServerOrder(s: { column: SortColumn; direction: SortDirection }): boolean {
  return s.column === 'name' && s.direction === 'asc';
}
