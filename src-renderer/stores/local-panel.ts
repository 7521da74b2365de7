import { create } from 'zustand';

interface LocalPanelState {
  /** Secrets are masked on screen until asked for; copy buttons always copy the real value. */
  showSecrets: boolean;
  setShowSecrets(on: boolean): void;
}

export const useLocalPanel = create<LocalPanelState>()((set) => ({
  showSecrets: false,
  setShowSecrets: (showSecrets) => set({ showSecrets }),
}));
