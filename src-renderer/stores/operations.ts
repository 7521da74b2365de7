import { create } from 'zustand';
import type { Row } from '../features/browser/rows';

export type OpenOperation =
  | { kind: 'new-folder' }
  | { kind: 'delete'; rows: readonly Row[] }
  | { kind: 'rename'; row: Row }
  | { kind: 'share'; name: string }
  | { kind: 'versioning' }
  /** A folder (a prefix; '' the container) back to a moment. */
  | { kind: 'restore-time'; prefix: string }
  /** Deleted objects brought back, by name. */
  | { kind: 'undelete'; names: string[] }
  | null;

interface OperationState {
  open: OpenOperation;
  show(op: NonNullable<OpenOperation>): void;
  close(): void;
}

/** Which operation dialog of the folder view is open (one at a time). */
export const useOperations = create<OperationState>()((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));
