// A stand-in for the 'electron' module, enough to run the desktop shell's entry point
// (src-main/electron/main.ts) under plain Node, with a real store behind it: the app's events and
// lifecycle, windows that keep the options they were built with and emit 'web-contents-created'
// as Electron does, the default session's permission handlers, the menu, dialogs and a
// safeStorage with no keyring. Every call the shell makes into Electron is recorded by name in
// `calls`, and a member the fake lacks as 'missing: NAME' (it then does nothing), so a test sees
// everything the shell asked Electron for.
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';
import { FakeIpcMain } from './fake-ipc.js';

/** Every call into the fake module, as 'app.on(web-contents-created)', 'session.defaultSession.setPermissionRequestHandler', ... */
export const calls: string[] = [];

/** Records calls made on `target` (and on whatever a missing member is asked for) under `name`. */
function recorded<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(obj, key, receiver) {
      if (typeof key === 'symbol' || key === 'then') return Reflect.get(obj, key, receiver);
      const value = Reflect.get(obj, key, receiver) as unknown;
      const path = `${name}.${key}`;
      if (value === undefined) {
        calls.push(`missing: ${path}`);
        return recorded(path, () => calls.push(`${path}()`));
      }
      if (typeof value !== 'function') return typeof value === 'object' && value !== null && !(value instanceof EventEmitter) ? recorded(path, value) : value;
      return (...args: unknown[]) => {
        const first = typeof args[0] === 'string' ? `(${args[0]})` : '()';
        calls.push(`${path}${first}`);
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
    apply(fn, self, args) {
      return Reflect.apply(fn as (...a: unknown[]) => unknown, self, args);
    },
  });
}

export const userData = mkdtempSync(join(tmpdir(), 'coffer-shell-'));

class FakeApp extends EventEmitter {
  exitCode: number | undefined;
  readonly commandLine = { appendSwitch: (_name: string, _value?: string) => undefined, appendArgument: (_arg: string) => undefined };
  requestSingleInstanceLock = () => true;
  whenReady = () => Promise.resolve();
  getPath = (name: string) => (name === 'userData' ? userData : join(userData, name));
  getAppPath = () => userData;
  quit = () => undefined;
  exit = (code = 0) => void (this.exitCode = code);
}
export const app = new FakeApp();

export class FakeWebContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  readonly sent: unknown[][] = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  send(channel: string, ...args: unknown[]) {
    this.sent.push([channel, ...args]);
  }
  startDrag() {}
}

/** Windows the shell built, each with the options it passed and the pages it loaded. */
export const windows: FakeBrowserWindow[] = [];

export class FakeBrowserWindow extends EventEmitter {
  static getAllWindows = () => windows.filter((w) => !w.destroyed);
  readonly webContents = new FakeWebContents();
  readonly loaded: { file?: string; url?: string }[] = [];
  destroyed = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    windows.push(this);
    calls.push('new BrowserWindow()');
    // As Electron: every web contents, a window's included, is announced when it is created.
    app.emit('web-contents-created', {}, this.webContents);
  }
  loadFile(file: string) {
    this.loaded.push({ file });
    return Promise.resolve();
  }
  loadURL(url: string) {
    this.loaded.push({ url });
    return Promise.resolve();
  }
  show() {}
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
}

type PermissionRequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void;
type PermissionCheckHandler = (contents: unknown, permission: string, origin: string, details: unknown) => boolean;

export const defaultSession = {
  permissionRequest: undefined as undefined | PermissionRequestHandler,
  permissionCheck: undefined as undefined | PermissionCheckHandler,
  setPermissionRequestHandler(handler: PermissionRequestHandler) {
    defaultSession.permissionRequest = handler;
  },
  setPermissionCheckHandler(handler: PermissionCheckHandler) {
    defaultSession.permissionCheck = handler;
  },
};

export const ipcMain = new FakeIpcMain();

/** Schemes the shell registered and handled (the desktop app's previews use one of its own). */
export const protocol = {
  privileged: [] as { scheme: string; privileges?: Record<string, boolean> }[],
  handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges?: Record<string, boolean> }[]) {
    protocol.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response) {
    protocol.handlers.set(scheme, handler);
  },
};

/** The module as `import { app, BrowserWindow, ... } from 'electron'` sees it. */
export const electron = {
  app: recorded('app', app),
  BrowserWindow: FakeBrowserWindow,
  ipcMain: recorded('ipcMain', ipcMain),
  protocol: recorded('protocol', protocol),
  session: recorded('session', { defaultSession }),
  Menu: recorded('Menu', { setApplicationMenu: (_menu: unknown) => undefined, buildFromTemplate: (template: unknown) => ({ template }) }),
  dialog: recorded('dialog', {}),
  nativeImage: recorded('nativeImage', {}),
  safeStorage: recorded('safeStorage', { isEncryptionAvailable: () => false, getSelectedStorageBackend: () => 'unknown' }),
};
