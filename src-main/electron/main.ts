// Electron entry point: app lifecycle, the security policy applied to every web contents, and the
// embedded store started from the same composition root as `coffer serve`.
// First: the engine's facade bounds the heap's growth before the rest of the app loads
// (engine/heap-growth.ts says why).
import '../engine/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, protocol, session } from 'electron';
import { createAppContext, type AppContext } from '../app-context.js';
import { logUnhandledRejections } from '../process-guards.js';
import { stagingRootOf } from '../services/transfers/local-paths.js';
import { electronShell } from './dialogs.js';
import { installElectronIpcBridge } from './ipc-bridge.js';
import { installMenu } from './menu.js';
import { OBJECT_SCHEME, OBJECT_SCHEME_PRIVILEGES, objectProtocolHandler } from './object-protocol.js';
import { safeStorageBox } from './safe-storage.js';
import { createMainWindow, rendererHtml } from './windows.js';

let context: AppContext | undefined;
let mainWindow: BrowserWindow | undefined;

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

/** The port from settings.json (`{"port": 7480}`), or a free one. */
function preferredPort(): number {
  try {
    const settings = JSON.parse(readFileSync(join(app.getPath('userData'), 'settings.json'), 'utf8')) as { port?: number };
    return Number.isInteger(settings.port) ? settings.port! : 0;
  } catch {
    return 0;
  }
}

async function startStore(): Promise<AppContext> {
  const dataDir = join(app.getPath('userData'), 'store');
  const drag = { stagingRoot: stagingRootOf(dataDir), iconPath: join(app.getAppPath(), 'assets', 'icon.png') };
  const common = { dataDir, host: '127.0.0.1', secrets: safeStorageBox(), shell: electronShell(() => mainWindow, drag) };
  try {
    return await createAppContext({ ...common, port: preferredPort() });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    return createAppContext({ ...common, port: 0 });
  }
}

function focusExistingWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

logUnhandledRejections((line) => console.error(line));

// Previews' bytes come from main over a scheme of the app's own; it must be privileged before ready.
protocol.registerSchemesAsPrivileged([{ scheme: OBJECT_SCHEME, privileges: OBJECT_SCHEME_PRIVILEGES }]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', focusExistingWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
  // Close the store cleanly (in-flight requests finish, the index closes) before quitting.
  let closing = false;
  app.on('before-quit', (event) => {
    if (!context || closing) return;
    event.preventDefault();
    closing = true;
    void context.close().finally(() => app.exit(0));
  });

  void app.whenReady().then(async () => {
    lockDownWebContents();
    installMenu();
    context = await startStore();
    installElectronIpcBridge(context.rpc, () => mainWindow, pathToFileURL(rendererHtml).href);
    protocol.handle(OBJECT_SCHEME, objectProtocolHandler(context.objects));
    mainWindow = createMainWindow();
    mainWindow.on('closed', () => (mainWindow = undefined));
  });
}
