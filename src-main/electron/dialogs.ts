import { isAbsolute, relative } from 'node:path';
import { dialog, nativeImage, type BrowserWindow } from 'electron';
import { CofferError } from '../../src-shared/errors.js';
import type { HostShell } from '../services/host-shell.js';

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/**
 * Native open/save dialogs and file drags, attached to the app window. Drags carry only files
 * the transfers service staged (under `stagingRoot`): the renderer cannot drag arbitrary paths.
 */
export function electronShell(window: () => BrowserWindow | undefined, drag: { stagingRoot: string; iconPath: string }): HostShell {
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
    async startDrag(a) {
      const win = parent();
      if (!win) throw new CofferError('NotSupported', 'No window to drag from');
      if (!a.paths.every((p) => inside(drag.stagingRoot, p))) throw new CofferError('AccessDenied', 'Only staged files can be dragged out');
      const icon = nativeImage.createFromPath(drag.iconPath).resize({ width: 32, height: 32 });
      win.webContents.startDrag({ file: a.paths[0]!, files: a.paths, icon });
    },
  };
}
