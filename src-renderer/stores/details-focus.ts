import { create } from 'zustand';

export type DetailsSection = 'properties' | 'versions';

interface DetailsFocusState {
  /** A section of the details panel to move the focus to once it is on screen. */
  wanted: DetailsSection | null;
  request(section: DetailsSection): void;
  done(): void;
}

/** Lets the context menu's Properties and Versions send the keyboard focus to the details panel. */
export const useDetailsFocus = create<DetailsFocusState>()((set) => ({
  wanted: null,
  request: (wanted) => set({ wanted }),
  done: () => set({ wanted: null }),
}));
