import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { EVENT_NAMES } from '../../src-shared/contract/events.js';
import type { RpcHost } from '../rpc-host.js';

/**
 * The one place raw IPC appears in main: `coffer:call` answers contract calls (the host refuses
 * unknown methods and validates arguments), and events go out on `coffer:event`. Only the app's
 * own window, showing the app's own page, is answered.
 */
export function installIpcBridge(host: RpcHost, window: () => BrowserWindow | undefined, appPageUrl: string): () => void {
  const fromOurWindow = (e: IpcMainInvokeEvent) => {
    const win = window();
    return !!win && e.sender === win.webContents && e.senderFrame?.url.split('#')[0] === appPageUrl;
  };
  ipcMain.handle('coffer:call', (e, method: unknown, arg: unknown) => {
    if (!fromOurWindow(e)) return { ok: false, error: { code: 'AccessDenied', message: 'Calls are accepted from the app window only' } };
    return host.call(String(method), arg);
  });
  const forwarders = EVENT_NAMES.map((name) => {
    const forward = (payload: unknown) => window()?.webContents.send('coffer:event', name, payload);
    host.events.on(name, forward);
    return [name, forward] as const;
  });
  return () => {
    ipcMain.removeHandler('coffer:call');
    for (const [name, forward] of forwarders) host.events.off(name, forward);
  };
}
