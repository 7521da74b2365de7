// The desktop app's IPC bridge in main, against a fake ipcMain and window (no Electron binary
// here): only the app window's own page is answered, every answer is the {ok, value} / {ok:
// false, error:{code, message}} envelope, only the contract's events go out, and uninstalling
// leaves nothing behind.
import { ipcMain } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { CofferError } from '../../src-shared/errors.js';
import { installElectronIpcBridge, installIpcBridge } from '../../src-main/electron/ipc-bridge.js';
import { FakeIpcMain, fakeWindow, hostWith } from './fake-ipc.js';

// Electron's ipcMain, as the app's bridge finds it (the bridge file is the one that imports it).
vi.mock('electron', async () => ({ ipcMain: new (await import('./fake-ipc.js')).FakeIpcMain() }));

const PAGE = 'file:///opt/Coffer/resources/app/dist/renderer/index.html';

function setUp() {
  const status = vi.fn(async () => ({ running: true }));
  const host = hostWith({
    localStore: { status },
    browse: { listContainers: async () => Promise.reject(new CofferError('NoSuchAccount', 'No connection x')) },
    accounts: { list: async () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'id')")) },
  });
  const ipc = new FakeIpcMain();
  const win = fakeWindow();
  let open: typeof win | undefined = win;
  const uninstall = installIpcBridge(ipc, host, () => open, PAGE);
  const fromApp = { sender: win.webContents, senderFrame: { url: PAGE } };
  const call = (event: unknown, method: unknown, arg: unknown = {}) => ipc.invoke(event, 'coffer:call', method, arg);
  return { host, ipc, win, status, uninstall, fromApp, call, close: () => (open = undefined) };
}

describe('the IPC bridge in main', () => {
  it('answers the app window with the service value, in the envelope', async () => {
    const { call, fromApp, status } = setUp();
    expect(await call(fromApp, 'localStore.status')).toEqual({ ok: true, value: { running: true } });
    // A fragment in the page URL (in-page navigation) is still the app's page.
    expect(await call({ ...fromApp, senderFrame: { url: `${PAGE}#/local` } }, 'localStore.status')).toMatchObject({ ok: true });
    expect(status).toHaveBeenCalledTimes(2);
  });

  it('refuses any other sender, frame or page, and calls nothing', async () => {
    const { call, fromApp, status, close } = setUp();
    const denied = { ok: false, error: { code: 'AccessDenied', message: 'Calls are accepted from the app window only' } };
    expect(await call({ ...fromApp, sender: { send: () => undefined } }, 'localStore.status')).toEqual(denied);
    expect(await call({ ...fromApp, senderFrame: { url: 'https://evil.example/index.html' } }, 'localStore.status')).toEqual(denied);
    expect(await call({ ...fromApp, senderFrame: { url: `${PAGE}.evil.html` } }, 'localStore.status')).toEqual(denied);
    expect(await call({ ...fromApp, senderFrame: null }, 'localStore.status')).toEqual(denied);
    close();
    expect(await call(fromApp, 'localStore.status')).toEqual(denied);
    expect(status).not.toHaveBeenCalled();
  });

  it('refuses methods outside the manifest and arguments its schema rejects, as data', async () => {
    const { call, fromApp, status } = setUp();
    expect(await call(fromApp, 'localStore.constructor')).toEqual({ ok: false, error: { code: 'InvalidArgument', message: 'Unknown method localStore.constructor' } });
    expect(await call(fromApp, '__proto__')).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    expect(await call(fromApp, ['localStore.status'])).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    expect(await call(fromApp, 'browse.listContainers', { account: '' })).toMatchObject({ ok: false, error: { code: 'InvalidArgument', message: expect.stringContaining('account') } });
    expect(status).not.toHaveBeenCalled();
  });

  it('carries a service failure as {code, message}: its own code, or InternalError', async () => {
    const { call, fromApp } = setUp();
    expect(await call(fromApp, 'browse.listContainers', { account: 'x' })).toEqual({ ok: false, error: { code: 'NoSuchAccount', message: 'No connection x' } });
    expect(await call(fromApp, 'accounts.list')).toEqual({ ok: false, error: { code: 'InternalError', message: "Cannot read properties of undefined (reading 'id')" } });
  });

  it("sends the contract's events to the window, and nothing else", () => {
    const { host, win } = setUp();
    host.emit('objects.changed', { account: 'local', container: 'c', names: ['a'] });
    host.events.emit('secrets.dump', { key: 'x' });
    expect(win.sent).toEqual([['coffer:event', 'objects.changed', { account: 'local', container: 'c', names: ['a'] }]]);
  });

  it('uninstalls its handler and its event listeners', async () => {
    const { host, ipc, win, uninstall, call, fromApp } = setUp();
    uninstall();
    expect(ipc.handlers.size).toBe(0);
    await expect(call(fromApp, 'localStore.status')).rejects.toThrow(/No handler/);
    host.emit('objects.changed', { account: 'local', container: 'c', names: [] });
    expect(win.sent).toEqual([]);
    // Installing again works: nothing of the first bridge is left registered.
    expect(() => installIpcBridge(ipc, host, () => win, PAGE)).not.toThrow();
  });

  it("is installed on Electron's own ipcMain by the app", async () => {
    const { host, fromApp, win, status } = setUp();
    const fake = ipcMain as unknown as FakeIpcMain;
    const uninstall = installElectronIpcBridge(host, () => win, PAGE);
    expect([...fake.handlers.keys()]).toEqual(['coffer:call']);
    expect(await fake.invoke(fromApp, 'coffer:call', 'localStore.status', {})).toEqual({ ok: true, value: { running: true } });
    expect(status).toHaveBeenCalledTimes(1);
    uninstall();
    expect(fake.handlers.size).toBe(0);
  });
});
