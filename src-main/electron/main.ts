// Electron entry point: app lifecycle and the security policy applied to every web contents.
import { app, BrowserWindow, session } from 'electron';
import { createMainWindow } from './windows.js';

function lockDownWebContents(): void {
  // No page may navigate away from the bundled renderer or open windows of its own.
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  // The renderer needs no browser permissions (camera, notifications, geolocation, ...).
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

function focusExistingWindow(): void {
  const [win] = BrowserWindow.getAllWindows();
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.focus();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', focusExistingWindow);

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
  });

  void app.whenReady().then(() => {
    lockDownWebContents();
    createMainWindow();
  });
}
