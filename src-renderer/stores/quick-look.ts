import { create } from 'zustand';

interface QuickLookState {
  /** The larger preview (Space) is open; it shows the focused object of the folder on screen. */
  open: boolean;
  show(): void;
  hide(): void;
}

export const useQuickLook = create<QuickLookState>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));
