// The preload: the only bridge between the sandboxed renderer and the main process.
// Built separately (vite.preload.config.ts) into dist/preload/preload.cjs, because sandboxed
// preloads must be a single CommonJS file. It exposes a deliberately small API on window.coffer.
import { contextBridge } from 'electron';

const api = {
  platform: process.platform,
} as const;

contextBridge.exposeInMainWorld('coffer', api);
