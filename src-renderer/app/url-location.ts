// The place the user is at lives in the address bar too, so Back, Forward, Reload, bookmarks and
// pasted links work: `#/<connection>/<container>/<folder>/`, each name percent-encoded (a folder
// keeps its slashes). A fragment works alike in the browser build and in Electron's file:// page,
// and never reaches the server.
import { useEffect } from 'react';
import { LOCAL_CONNECTION_ID } from '../../src-shared/model/local-connection';
import { useNavigation, type Place } from '../stores/navigation';

export const HOME: Place = { connectionId: LOCAL_CONNECTION_ID, container: null, prefix: '' };

export function hashOf(place: Place): string {
  const connection = `#/${encodeURIComponent(place.connectionId)}`;
  if (place.container === null) return connection;
  return `${connection}/${encodeURIComponent(place.container)}/${place.prefix.split('/').map(encodeURIComponent).join('/')}`;
}

/** The place a fragment names: HOME for none, undefined for one that is not ours or not valid. */
export function placeOf(hash: string): Place | undefined {
  if (hash === '' || hash === '#' || hash === '#/') return HOME;
  const match = /^#\/([^/]+)(?:\/([^/]+)(?:\/(.*))?)?$/.exec(hash);
  if (!match) return undefined;
  try {
    const connectionId = decodeURIComponent(match[1]!);
    if (match[2] === undefined) return { connectionId, container: null, prefix: '' };
    const folder = (match[3] ?? '').split('/').map(decodeURIComponent).join('/');
    return { connectionId, container: decodeURIComponent(match[2]), prefix: folder === '' || folder.endsWith('/') ? folder : `${folder}/` };
  } catch {
    return undefined; // a malformed %-escape
  }
}

/**
 * Keeps the address bar and the navigation store in step: the fragment picks the first place; each
 * move in the app adds a history entry; Back, Forward and an edited address move the app.
 */
export function useUrlLocation(): void {
  useEffect(() => {
    let following = false;
    const follow = () => {
      const place = placeOf(window.location.hash);
      following = true;
      if (place) useNavigation.getState().goTo(place);
      following = false;
      // The address in its own spelling (an unknown fragment gives way to where the app is).
      const hash = hashOf(useNavigation.getState());
      if (hash !== window.location.hash) window.history.replaceState(window.history.state, '', hash);
    };
    follow();
    const unsubscribe = useNavigation.subscribe((now, before) => {
      if (following || (now.connectionId === before.connectionId && now.container === before.container && now.prefix === before.prefix)) return;
      const hash = hashOf(now);
      if (hash !== window.location.hash) window.history.pushState(null, '', hash);
    });
    window.addEventListener('popstate', follow);
    window.addEventListener('hashchange', follow);
    return () => {
      unsubscribe();
      window.removeEventListener('popstate', follow);
      window.removeEventListener('hashchange', follow);
    };
  }, []);
}
