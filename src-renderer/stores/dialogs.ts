import { create } from 'zustand';

export type OpenDialog = { kind: 'create-container' } | { kind: 'delete-container'; name: string } | null;

interface DialogState {
  open: OpenDialog;
  show(dialog: NonNullable<OpenDialog>): void;
  close(): void;
}

/** Which modal dialog is open (one at a time). */
export const useDialogs = create<DialogState>()((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));
