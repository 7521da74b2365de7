// What the preload exposes as window.coffer, built over the Electron objects it is given (the
// preload passes the real ones; tests pass fakes, so this runs without Electron). Only `import
// type` from 'electron' here.
import type { WebUtils } from 'electron';
import { EVENT_NAMES } from '../../src-shared/contract/events.js';
import { METHOD_NAMES } from '../../src-shared/contract/method-names.js';
import type { RpcResult } from '../../src-shared/rpc/envelope.js';

/** What the bridge needs of `ipcRenderer`. */
export interface IpcRendererPort {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, name: string, payload: unknown) => void): unknown;
  off(channel: string, listener: (event: unknown, name: string, payload: unknown) => void): unknown;
}

export interface BridgeDeps {
  ipcRenderer: IpcRendererPort;
  webUtils: Pick<WebUtils, 'getPathForFile'>;
  platform: string;
}

/**
 * Exactly call, subscribe, pathForFile and the platform name: a method outside the contract's
 * manifest never reaches main, and only the contract's events reach the page.
 */
export function createBridgeApi({ ipcRenderer, webUtils, platform }: BridgeDeps) {
  return {
    platform,
    call(method: string, arg: unknown): Promise<RpcResult> {
      if (!METHOD_NAMES.includes(method)) {
        return Promise.resolve({ ok: false, error: { code: 'InvalidArgument', message: `Unknown method ${String(method)}` } });
      }
      return ipcRenderer.invoke('coffer:call', method, arg) as Promise<RpcResult>;
    },
    subscribe(event: string, listener: (payload: unknown) => void): () => void {
      if (!(EVENT_NAMES as readonly string[]).includes(event)) return () => undefined;
      const handler = (_e: unknown, name: string, payload: unknown) => {
        if (name === event) listener(payload);
      };
      ipcRenderer.on('coffer:event', handler);
      return () => void ipcRenderer.off('coffer:event', handler);
    },
    /** The local path of a dropped file: only paths cross the contract, main reads the bytes. */
    pathForFile(file: File): string {
      return webUtils.getPathForFile(file);
    },
  } as const;
}
