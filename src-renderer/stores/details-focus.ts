import { create } from 'zustand';

export type DetailsSection = 'properties' | 'versions' | 'container';

interface DetailsFocusState {
  /** A section of the details panel to move the focus to once it is on screen. */
  wanted: DetailsSection | null;
  request(section: DetailsSection): void;
  done(): void;
}

/** Lets the context menus' Properties, Versions and Lifecycle and tags send the keyboard focus to the details panel. */
export const useDetailsFocus = create<DetailsFocusState>()((set) => ({
  wanted: null,
  request: (wanted) => set({ wanted }),
  done: () => set({ wanted: null }),
}));
