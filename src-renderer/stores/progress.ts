import { create } from 'zustand';
import type { OperationProgress } from '../../src-shared/contract/events';

interface ProgressState {
  byId: Record<string, OperationProgress>;
  report(p: OperationProgress): void;
  forget(id: string): void;
}

/** The latest progress of each long operation the UI started (by the id it gave the call). */
export const useProgress = create<ProgressState>()((set) => ({
  byId: {},
  report: (p) => set((s) => ({ byId: { ...s.byId, [p.id]: p } })),
  forget: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.byId;
      return { byId: rest };
    }),
}));

/** A fresh id for one operation's progress events. */
export function newOperationId(): string {
  return crypto.randomUUID();
}
