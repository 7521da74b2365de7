import { create } from 'zustand';
import type { ContainerSummary } from '../../src-shared/model/storage';

export type OpenDialog =
  | { kind: 'create-container' }
  | { kind: 'delete-container'; name: string }
  /** Asks before anyone may read the container, then shows where (at once when it already is public). */
  | { kind: 'make-public'; name: string; alreadyPublic?: boolean }
  | { kind: 'container-quota'; container: ContainerSummary }
  | { kind: 'versioning'; name: string }
  | null;

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
