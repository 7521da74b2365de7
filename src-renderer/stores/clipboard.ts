import { create } from 'zustand';

/** What Ctrl/Cmd+C (copy) or Ctrl/Cmd+X (cut) took: objects by name, folders by prefix. */
export interface ClipboardEntry {
  mode: 'copy' | 'cut';
  account: string;
  container: string;
  names: string[];
  prefixes: string[];
}

interface ClipboardState {
  entry: ClipboardEntry | null;
  put(entry: ClipboardEntry): void;
  clear(): void;
}

/** The app's own clipboard (not the system one: object names mean nothing to other apps). */
export const useClipboard = create<ClipboardState>()((set) => ({
  entry: null,
  put: (entry) => set({ entry }),
  clear: () => set({ entry: null }),
}));
