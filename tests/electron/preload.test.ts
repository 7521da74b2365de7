// The preload, against a fake ipcRenderer and contextBridge (no Electron binary here): it exposes
// exactly window.coffer, sends only the contract's methods to main, delivers only the contract's
// events, and (wired to the main-side bridge through fake IPC) carries calls, errors and events.
import { describe, expect, it, vi } from 'vitest';
import { CofferError } from '../../src-shared/errors.js';
import { installIpcBridge } from '../../src-main/electron/ipc-bridge.js';
import { createBridgeApi } from '../../src-main/preload/bridge-api.js';
import { FakeIpcMain, FakeIpcRenderer, fakeWindow, hostWith } from './fake-ipc.js';

const electron = vi.hoisted(() => ({ exposed: new Map<string, unknown>(), invoked: [] as unknown[][] }));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
  ipcRenderer: {
    invoke: async (...args: unknown[]) => (electron.invoked.push(args), { ok: true, value: null }),
    on: () => undefined,
    off: () => undefined,
  },
  webUtils: { getPathForFile: (file: { name: string }) => `/home/me/${file.name}` },
}));

const webUtils = { getPathForFile: (file: File) => `/dropped/${file.name}` };

describe('the preload bridge', () => {
  it('exposes window.coffer only: platform, call, subscribe, pathForFile, over the real ipcRenderer', async () => {
    await import('../../src-main/preload/preload.js');
    expect([...electron.exposed.keys()]).toEqual(['coffer']);
    const api = electron.exposed.get('coffer') as ReturnType<typeof createBridgeApi>;
    expect(Object.keys(api).sort()).toEqual(['call', 'pathForFile', 'platform', 'subscribe']);
    expect(api.platform).toBe(process.platform);
    await api.call('browse.listContainers', { account: 'local' });
    expect(electron.invoked).toEqual([['coffer:call', 'browse.listContainers', { account: 'local' }]]);
    expect(api.pathForFile({ name: 'a.txt' } as File)).toBe('/home/me/a.txt');
  });

  it('answers a method outside the manifest itself, as InvalidArgument, without invoking main', async () => {
    const ipc = new FakeIpcRenderer();
    const api = createBridgeApi({ ipcRenderer: ipc, webUtils, platform: 'linux' });
    for (const method of ['browse.nope', 'constructor', '__proto__', 'coffer:call', 'accounts.list.extra']) {
      expect(await api.call(method, {})).toEqual({ ok: false, error: { code: 'InvalidArgument', message: `Unknown method ${method}` } });
    }
    expect(ipc.invoked).toEqual([]);
    await api.call('accounts.list', {});
    expect(ipc.invoked).toEqual([['coffer:call', 'accounts.list', {}]]);
  });

  it("delivers only the contract's events, to their own listeners, until unsubscribed", () => {
    const ipc = new FakeIpcRenderer();
    const api = createBridgeApi({ ipcRenderer: ipc, webUtils, platform: 'linux' });
    const got: unknown[] = [];
    expect(api.subscribe('secrets.dump', (p) => got.push(p))()).toBeUndefined();
    expect(ipc.listenerCount('coffer:event')).toBe(0);
    const off = api.subscribe('objects.changed', (p) => got.push(p));
    ipc.emit('coffer:event', {}, 'transfer.progress', { items: [] });
    ipc.emit('coffer:event', {}, 'objects.changed', { account: 'local', container: 'c', names: ['a'] });
    expect(got).toEqual([{ account: 'local', container: 'c', names: ['a'] }]);
    off();
    expect(ipc.listenerCount('coffer:event')).toBe(0);
    ipc.emit('coffer:event', {}, 'objects.changed', { account: 'local', container: 'c', names: ['b'] });
    expect(got).toHaveLength(1);
  });

  it('carries a call, its error envelope and the events through fake IPC to the main-side bridge and back', async () => {
    const page = 'file:///app/dist/renderer/index.html';
    const main = new FakeIpcMain();
    const at: { win?: ReturnType<typeof fakeWindow> } = {};
    // Electron names the calling window's webContents and frame in every invoke event.
    const renderer = new FakeIpcRenderer((channel, ...args) => main.invoke({ sender: at.win!.webContents, senderFrame: { url: page } }, channel, ...args));
    const win = (at.win = fakeWindow(renderer));
    const host = hostWith({
      localStore: { status: async () => ({ running: true }) },
      browse: { listContainers: async () => Promise.reject(new CofferError('AuthFailed', 'The server refused the key')) },
    });
    installIpcBridge(main, host, () => win, page);
    const api = createBridgeApi({ ipcRenderer: renderer, webUtils, platform: 'linux' });
    expect(await api.call('localStore.status', {})).toEqual({ ok: true, value: { running: true } });
    expect(await api.call('browse.listContainers', { account: 'remote-1' })).toEqual({ ok: false, error: { code: 'AuthFailed', message: 'The server refused the key' } });
    const events: unknown[] = [];
    api.subscribe('connection.state', (p) => events.push(p));
    host.emit('connection.state', { id: 'remote-1', state: 'error', error: 'The server refused the key' });
    expect(events).toEqual([{ id: 'remote-1', state: 'error', error: 'The server refused the key' }]);
  });
});
