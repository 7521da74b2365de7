import { create } from 'zustand';
import type { ConnectionInfo } from '../../../src-shared/model/connections';

export type ConnectionDialogState =
  | { kind: 'add' }
  | { kind: 'edit'; connection: ConnectionInfo }
  | { kind: 'remove'; connection: ConnectionInfo }
  /** The quota of a local account, by its connection id. */
  | { kind: 'quota'; account: string }
  | null;

interface State {
  open: ConnectionDialogState;
  show(dialog: NonNullable<ConnectionDialogState>): void;
  close(): void;
}

/** Which sidebar dialog (connection add/edit/remove, local quota) is open. */
export const useConnectionDialogs = create<State>()((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));
