import { create } from 'zustand';
import type { SelectionModel } from '../features/browser/selection-logic';

interface SelectionState extends SelectionModel {
  apply(next: SelectionModel): void;
  clear(): void;
}

const EMPTY: SelectionModel = { selected: new Set(), anchor: null, focus: null };

/** The selected entries of the folder on screen (keys: object names and folder prefixes). */
export const useSelection = create<SelectionState>()((set) => ({
  ...EMPTY,
  apply: (next) => set(next),
  clear: () => set(EMPTY),
}));
