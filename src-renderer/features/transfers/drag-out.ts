// Dragging objects out of the window. The desktop app stages local files first (main links or
// downloads them) and starts an OS drag of those; the browser build hands Chromium a download
// address (its DownloadURL drag type), for one object at a time.
import type { DragEvent } from 'react';
import { api } from '../../api/client';
import { downloadUrl, hasDesktopShell } from '../../api/uploads';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useNavigation } from '../../stores/navigation';
import { useSelection } from '../../stores/selection';
import type { Row } from '../browser/rows';
import { useIsDropTarget, rowDropAttributes } from './drop';
import { useTransfers } from './store';
import { reloadTransfers } from './use-transfer-feed';

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/** The DownloadURL drag data Chromium turns into a file where the drag ends. */
export function downloadUrlData(account: string, container: string, name: string): string {
  const url = new URL(downloadUrl(account, container, name), window.location.href).href;
  return `application/octet-stream:${baseName(name)}:${url}`;
}

/** Dragging a selected row drags the whole selection (objects and folders); any other row drags itself. */
function dragged(row: Row): { names: string[]; prefixes: string[] } {
  const { selected } = useSelection.getState();
  const keys = selected.has(row.key) ? [...selected] : [row.key];
  return { names: keys.filter((k) => !k.endsWith('/')), prefixes: keys.filter((k) => k.endsWith('/')) };
}

async function stageAndDrag(account: string, container: string, what: { names: string[]; prefixes: string[] }): Promise<void> {
  const { setHint, setPanelOpen } = useTransfers.getState();
  try {
    const staged = await api.transfers.stageForDrag({ account, container, ...what });
    if (staged.ready) {
      setHint(null);
      await api.shell.startDrag({ paths: staged.paths });
      return;
    }
    setHint(strings.transfers.dragHint);
    setPanelOpen(true);
    await reloadTransfers();
  } catch (err) {
    setHint(strings.transfers.dragFailed(errorMessage(err)));
    setPanelOpen(true);
  }
}

/** What a grid row adds: drag-out for objects, drop-in for folders (with its highlight). */
export function useRowTransfer(row: Row) {
  const account = useNavigation((n) => n.connectionId);
  const container = useNavigation((n) => n.container) ?? '';
  const folder = row.kind === 'folder';
  // A row of an earlier version or a delete marker stands for no object that could be dragged.
  const version = row.kind === 'version';
  const over = useIsDropTarget({ account, container, prefix: row.key });
  const desktop = hasDesktopShell();
  return {
    ...(folder ? rowDropAttributes(row.key, over) : {}),
    // The desktop app drags folders out as folder trees; the browser build has one address per drag.
    draggable: !version && (desktop || !folder),
    onDragStart: (e: DragEvent) => {
      if (version) return e.preventDefault();
      if (desktop) {
        e.preventDefault();
        void stageAndDrag(account, container, dragged(row));
        return;
      }
      if (folder) return;
      // The drag data holds one download address: the row under the pointer.
      e.dataTransfer.effectAllowed = 'copy';
      e.dataTransfer.setData('DownloadURL', downloadUrlData(account, container, row.key));
      e.dataTransfer.setData('text/uri-list', new URL(downloadUrl(account, container, row.key), window.location.href).href);
    },
  };
}
