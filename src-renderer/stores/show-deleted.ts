import { create } from 'zustand';

interface ShowDeletedState {
  on: boolean;
  toggle(): void;
}

/** Whether the folder view lists deleted objects and earlier versions (where the container keeps them). */
export const useShowDeleted = create<ShowDeletedState>()((set) => ({
  on: false,
  toggle: () => set((s) => ({ on: !s.on })),
}));
