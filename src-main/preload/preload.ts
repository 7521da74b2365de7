// The preload: the only bridge between the sandboxed renderer and the main process.
// Built separately (vite.preload.config.ts) into dist/preload/preload.cjs, because sandboxed
// preloads must be a single CommonJS file. What it exposes is built in bridge-api.ts.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridgeApi } from './bridge-api.js';

contextBridge.exposeInMainWorld('coffer', createBridgeApi({ ipcRenderer, webUtils, platform: process.platform }));
