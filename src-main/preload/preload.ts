// The preload: the only bridge between the sandboxed renderer and the main process.
// Built separately (vite.preload.config.ts) into dist/preload/preload.cjs, because sandboxed
// preloads must be a single CommonJS file. It exposes exactly call, subscribe, pathForFile and
// the platform name; a method outside the contract's manifest never reaches main.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { EVENT_NAMES } from '../../src-shared/contract/events.js';
import { METHOD_NAMES } from '../../src-shared/contract/method-names.js';
import type { RpcResult } from '../../src-shared/rpc/envelope.js';

const api = {
  platform: process.platform,
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
    return () => ipcRenderer.off('coffer:event', handler);
  },
  /** The local path of a dropped file: only paths cross the contract, main reads the bytes. */
  pathForFile(file: File): string {
    return webUtils.getPathForFile(file);
  },
} as const;

contextBridge.exposeInMainWorld('coffer', api);
