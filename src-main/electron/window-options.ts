// The main window's options, apart from windows.ts so a test can check them without Electron
// (only a type comes from 'electron' here).
import type { BrowserWindowConstructorOptions } from 'electron';

/** The renderer runs isolated and sandboxed, with no Node and the web security model on. */
export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    title: 'Coffer',
    width: 1100,
    height: 720,
    minWidth: 640,
    minHeight: 420,
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      // Middle-click would open links in new windows (which are refused anyway).
      disableBlinkFeatures: 'Auxclick',
    },
  };
}
