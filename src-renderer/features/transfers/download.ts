// "Download…" for a selection. The desktop app asks where (a file for one object, a folder for
// several or for folders) and main's queue does the work; the browser build lets the browser
// download one object from its address, and anything more as one zip streamed by the server.
import { api } from '../../api/client';
import { downloadUrl, hasDesktopShell, zipUrl } from '../../api/uploads';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import type { Row } from '../browser/rows';
import { useTransfers } from './store';
import { reloadTransfers } from './use-transfer-feed';

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/** Whether "Download…" applies to these rows: objects and folders alike, in the app and the browser build. */
export function canDownload(rows: readonly Row[]): boolean {
  return rows.length > 0;
}

/**
 * Downloads the rows (objects and, in the desktop app, whole folders). Resolves when the
 * transfers are queued (desktop) or handed to the browser; a dismissed dialog does nothing.
 */
export async function downloadRows(account: string, container: string, rows: readonly Row[]): Promise<void> {
  if (!canDownload(rows)) return;
  const objects = rows.filter((r) => r.kind === 'object');
  if (!hasDesktopShell()) {
    const [only] = rows;
    if (rows.length === 1 && only?.kind === 'object') return clickDownload(downloadUrl(account, container, only.key), baseName(only.key));
    const prefixes = rows.filter((r) => r.kind === 'folder').map((r) => r.key);
    const title = rows.length === 1 && only ? only.label : container;
    return clickDownload(await zipUrl({ account, container, names: objects.map((o) => o.key), prefixes, title }), `${title}.zip`);
  }
  const [only] = rows;
  if (rows.length === 1 && only?.kind === 'object') {
    const { path } = await api.shell.pickSavePath({ defaultName: baseName(only.key), title: strings.transfers.downloadTitle });
    if (path === null) return;
    await api.transfers.downloadToPath({ account, container, name: only.key, path });
  } else {
    const { path } = await api.shell.pickFolder({ title: strings.transfers.downloadTitle });
    if (path === null) return;
    const prefixes = rows.filter((r) => r.kind === 'folder').map((r) => r.key);
    await api.transfers.download({ account, container, names: objects.map((o) => o.key), prefixes, folder: path });
  }
  useTransfers.getState().setPanelOpen(true);
  await reloadTransfers();
}

/**
 * "Download…" for a toolbar button or a context menu item: like downloadRows, with a failure
 * shown in the transfers panel instead of thrown.
 */
export function startDownload(account: string, container: string, rows: readonly Row[]): void {
  downloadRows(account, container, rows).catch((err: unknown) => {
    useTransfers.getState().setHint(strings.transfers.downloadFailed(errorMessage(err)));
    useTransfers.getState().setPanelOpen(true);
  });
}

function clickDownload(href: string, name: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}
