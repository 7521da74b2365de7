import { create } from 'zustand';
import { LOCAL_CONNECTION_ID } from '../../src-shared/model/local-connection';
import { useSelection } from './selection';

export type MainView = 'containers' | 'endpoints';

/** Where the user is, as the address bar keeps it (see app/url-location.ts). */
export interface Place {
  connectionId: string;
  /** null: the container list. */
  container: string | null;
  /** '' or ending in '/'. */
  prefix: string;
}

interface NavigationState {
  connectionId: string;
  view: MainView;
  /** null: the container list. */
  container: string | null;
  /** Folder inside the container: '' or ending in '/'. */
  prefix: string;
  /** Name-prefix filter typed by the user (a server-side prefix listing). */
  filter: string;
  selectConnection(id: string): void;
  showView(view: MainView): void;
  openContainer(name: string): void;
  /** Any folder of the current container, '' for its root. */
  openFolder(prefix: string): void;
  /** One level up: parent folder, then the container list. */
  goUp(): void;
  showContainers(): void;
  setFilter(filter: string): void;
  /** Straight to a place (a link, Back, Forward); nothing happens when already there. */
  goTo(place: Place): void;
}

/** Where the user is: UI state only (what is there comes from react-query). */
export const useNavigation = create<NavigationState>()((set, get) => {
  const moved = (patch: Partial<NavigationState>) => {
    useSelection.getState().clear();
    set({ filter: '', ...patch });
  };
  return {
    connectionId: LOCAL_CONNECTION_ID,
    view: 'containers',
    container: null,
    prefix: '',
    filter: '',
    selectConnection: (id) => moved({ connectionId: id, view: 'containers', container: null, prefix: '' }),
    showView: (view) => set({ view }),
    openContainer: (name) => moved({ view: 'containers', container: name, prefix: '' }),
    openFolder: (prefix) => moved({ prefix }),
    goUp: () => {
      const { container, prefix } = get();
      if (container === null) return;
      if (prefix === '') return moved({ container: null });
      const trimmed = prefix.slice(0, -1);
      const cut = trimmed.lastIndexOf('/');
      moved({ prefix: cut < 0 ? '' : trimmed.slice(0, cut + 1) });
    },
    showContainers: () => moved({ container: null, prefix: '' }),
    setFilter: (filter) => {
      useSelection.getState().clear();
      set({ filter });
    },
    goTo: (place) => {
      const now = get();
      if (now.connectionId === place.connectionId && now.container === place.container && now.prefix === place.prefix) return;
      moved({ ...place, view: 'containers' });
    },
  };
});
