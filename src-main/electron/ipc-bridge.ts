import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { EVENT_NAMES } from '../../src-shared/contract/events.js';
import type { RpcResult } from '../../src-shared/rpc/envelope.js';
import type { RpcHost } from '../rpc-host.js';

/** The parts of an invoke event the sender check reads. */
export type CallEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;
/** What the bridge needs of `ipcMain` (Electron's own in the app, a fake in tests). */
export interface IpcMainPort {
  handle(channel: string, listener: (event: CallEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}
/** What the bridge needs of the app window. */
export interface AppWindow {
  webContents: Pick<WebContents, 'send'>;
}

const NOT_OUR_WINDOW: RpcResult = { ok: false, error: { code: 'AccessDenied', message: 'Calls are accepted from the app window only' } };

/**
 * The one place raw IPC appears in main: `coffer:call` answers contract calls (the host refuses
 * unknown methods and validates arguments), and events go out on `coffer:event`. Only the app's
 * own window, showing the app's own page, is answered. `ipc` is passed in so this runs (and is
 * tested) without Electron; the app installs it on Electron's with installElectronIpcBridge.
 */
export function installIpcBridge(ipc: IpcMainPort, host: Pick<RpcHost, 'call' | 'events'>, window: () => AppWindow | undefined, appPageUrl: string): () => void {
  const fromOurWindow = (e: CallEvent) => {
    const win = window();
    return !!win && e.sender === win.webContents && e.senderFrame?.url.split('#')[0] === appPageUrl;
  };
  ipc.handle('coffer:call', async (e: CallEvent, method: unknown, arg: unknown): Promise<RpcResult> => {
    if (!fromOurWindow(e)) return NOT_OUR_WINDOW;
    // Only a name: String(['localStore.status']) would be one too.
    if (typeof method !== 'string') return { ok: false, error: { code: 'InvalidArgument', message: 'The method must be named by a string' } };
    try {
      return await host.call(method, arg);
    } catch (err) {
      // The host answers every outcome as data; this only keeps a bug from reaching the renderer as a bare rejection.
      return { ok: false, error: { code: 'InternalError', message: err instanceof Error ? err.message : String(err) } };
    }
  });
  const forwarders = EVENT_NAMES.map((name) => {
    const forward = (payload: unknown) => window()?.webContents.send('coffer:event', name, payload);
    host.events.on(name, forward);
    return [name, forward] as const;
  });
  return () => {
    ipc.removeHandler('coffer:call');
    for (const [name, forward] of forwarders) host.events.off(name, forward);
  };
}

/** The bridge on Electron's ipcMain (main.ts): the one file in main that touches it, by the lint rule. */
export function installElectronIpcBridge(host: Pick<RpcHost, 'call' | 'events'>, window: () => AppWindow | undefined, appPageUrl: string): () => void {
  return installIpcBridge(ipcMain, host, window, appPageUrl);
}
