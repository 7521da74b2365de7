import { create } from 'zustand';
import type { TransferItem } from '../../../src-shared/contract/transfers';

interface TransfersState {
  /** Items in the order they first appeared (the queue's order). */
  items: readonly TransferItem[];
  concurrency: number;
  panelOpen: boolean;
  /** Shown in the panel: a drag-out waits for its files to be staged. */
  hint: string | null;
  /**
   * Why this page's upload of an item was refused before main took its bytes (an expired session,
   * a server that did not answer): main's item cannot say it, so the row shows this.
   */
  notes: Readonly<Record<string, string>>;
  /** The whole list from transfers.list(): replaces what the events built. */
  replace(items: readonly TransferItem[], concurrency: number): void;
  /** A burst of progress events, newest last. */
  merge(updates: readonly TransferItem[]): void;
  setConcurrency(n: number): void;
  setPanelOpen(open: boolean): void;
  setHint(hint: string | null): void;
  setNote(id: string, note: string | null): void;
}

/** The transfer queue as main reports it (main owns it; this is the renderer's copy) and the panel's UI state. */
export const useTransfers = create<TransfersState>()((set) => ({
  items: [],
  concurrency: 0,
  panelOpen: false,
  hint: null,
  notes: {},
  replace: (items, concurrency) => set({ items, concurrency }),
  merge: (updates) =>
    set((s) => {
      const index = new Map(s.items.map((item, i) => [item.id, i]));
      const next = [...s.items];
      for (const item of updates) {
        const at = index.get(item.id);
        if (at === undefined) {
          index.set(item.id, next.length);
          next.push(item);
        } else next[at] = item;
      }
      return { items: next };
    }),
  setConcurrency: (concurrency) => set({ concurrency }),
  setPanelOpen: (panelOpen) => set({ panelOpen }),
  setHint: (hint) => set({ hint }),
  setNote: (id, note) =>
    set((s) => {
      if ((s.notes[id] ?? null) === note) return s;
      const { [id]: _, ...notes } = s.notes;
      return { notes: note === null ? notes : { ...notes, [id]: note } };
    }),
}));
