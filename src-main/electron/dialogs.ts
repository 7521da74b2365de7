import { dialog, type BrowserWindow } from 'electron';
import type { HostShell } from '../services/host-shell.js';

/** Native open/save dialogs, attached to the app window. */
export function electronShell(window: () => BrowserWindow | undefined): HostShell {
  const parent = () => window();
  const open = async (options: Electron.OpenDialogOptions) => {
    const win = parent();
    return win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options);
  };
  return {
    async pickPaths(a) {
      const properties: Electron.OpenDialogOptions['properties'] = [a.folders ? 'openDirectory' : 'openFile'];
      if (a.multiple !== false) properties.push('multiSelections');
      const r = await open({ properties, ...(a.title ? { title: a.title } : {}) });
      return { paths: r.canceled ? [] : r.filePaths };
    },
    async pickSavePath(a) {
      const win = parent();
      const options = { defaultPath: a.defaultName, ...(a.title ? { title: a.title } : {}) };
      const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return { path: r.canceled || !r.filePath ? null : r.filePath };
    },
    async pickFolder(a) {
      const r = await open({ properties: ['openDirectory', 'createDirectory'], ...(a.title ? { title: a.title } : {}) });
      return { path: r.canceled ? null : (r.filePaths[0] ?? null) };
    },
  };
}
