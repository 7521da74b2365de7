// The main application window. Paths are relative to this file's compiled location
// (dist/src-main/electron/windows.js), which is the same layout inside the packaged app.
import { fileURLToPath } from 'node:url';
import { BrowserWindow } from 'electron';

export const rendererHtml = fileURLToPath(new URL('../../renderer/index.html', import.meta.url));
const preloadScript = fileURLToPath(new URL('../../preload/preload.cjs', import.meta.url));

export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    title: 'Coffer',
    width: 1100,
    height: 720,
    minWidth: 640,
    minHeight: 420,
    show: false,
    webPreferences: {
      preload: preloadScript,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadFile(rendererHtml);
  return win;
}
