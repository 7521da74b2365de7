/**
 * The desktop shell's security settings, checked by running it: the entry point
 * (src-main/electron/main.ts) starts under plain Node against a stand-in Electron
 * (fake-electron.ts) with a real store behind it, and the test looks at what it did: the options
 * every window was built with, the page it loaded, the navigation, new-window and permission
 * handlers it installed (called as Electron calls them), the IPC bridge's page, and every other
 * call it made into Electron. The Content-Security-Policy is read from the real UI server's answers
 * (header and page). CI also runs electronegativity over the built app (.ci/electron-security.mjs).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { app, calls, defaultSession, FakeWebContents, ipcMain, protocol, userData, windows } from './fake-electron.js';
import { OBJECT_SCHEME } from '../../src-main/electron/object-protocol.js';

vi.mock('electron', async () => (await import('./fake-electron.js')).electron);

const REPO = fileURLToPath(new URL('../..', import.meta.url));

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 500 && !check(); i++) await sleep(20);
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

/** What every window's renderer runs with; each is also Electron's default or stricter. */
const SECURE_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
};
/** The only webPreferences a window may set: another (enableBlinkFeatures, additionalArguments, ...) needs a review and a line here. */
const KNOWN_PREFERENCES = [...Object.keys(SECURE_PREFERENCES), 'preload', 'disableBlinkFeatures'].sort();

describe('the desktop shell, run against a stand-in Electron', () => {
  const rejectionGuards: NodeJS.UnhandledRejectionListener[] = [];

  beforeAll(async () => {
    const before = process.listeners('unhandledRejection');
    await import('../../src-main/electron/main.js');
    rejectionGuards.push(...process.listeners('unhandledRejection').filter((l) => !before.includes(l)));
    await until(() => windows.length === 1, 'the main window');
  });

  afterAll(async () => {
    // Quitting as the user does: the store closes first, then the app exits.
    const quit = { preventDefault: vi.fn() };
    app.emit('before-quit', quit);
    await until(() => app.exitCode === 0, 'the app to exit after closing the store');
    expect(quit.preventDefault).toHaveBeenCalled();
    for (const l of rejectionGuards) process.off('unhandledRejection', l);
    rmSync(userData, { recursive: true, force: true });
  });

  it('builds every window with the renderer isolated and sandboxed, without Node, with web security on', async () => {
    // A second window, as on macOS when the dock icon is clicked with none open.
    windows[0]!.destroyed = true;
    app.emit('activate');
    expect(windows).toHaveLength(2);
    for (const win of windows) {
      const prefs = win.options.webPreferences ?? {};
      expect(prefs).toMatchObject(SECURE_PREFERENCES);
      expect(Object.keys(prefs).sort()).toEqual(KNOWN_PREFERENCES);
      expect(basename(prefs.preload ?? '')).toBe('preload.cjs');
      expect(win.options.show).toBe(false);
    }
  });

  it('loads only the bundled page, from a file', () => {
    for (const win of windows) {
      expect(win.loaded).toHaveLength(1);
      expect(win.loaded[0]!.url).toBeUndefined();
      expect(win.loaded[0]!.file).toMatch(/[/\\]renderer[/\\]index\.html$/);
    }
  });

  it('refuses navigation and new windows in every web contents, the windows’ own included', () => {
    const other = new FakeWebContents();
    app.emit('web-contents-created', {}, other);
    for (const contents of [...windows.map((w) => w.webContents), other]) {
      for (const url of ['https://example.com/', 'file:///etc/passwd', 'http://127.0.0.1:1/_coffer/']) {
        const event = { preventDefault: vi.fn() };
        contents.emit('will-navigate', event, url);
        expect(event.preventDefault, `will-navigate ${url}`).toHaveBeenCalledOnce();
        expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' });
      }
    }
  });

  it('grants no browser permission, asked or checked', () => {
    const contents = windows[0]!.webContents;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'fullscreen', 'openExternal', 'pointerLock', 'midiSysex']) {
      const callback = vi.fn();
      defaultSession.permissionRequest?.(contents, permission, callback, { requestingUrl: 'file:///app/index.html' });
      expect(callback, permission).toHaveBeenCalledExactlyOnceWith(false);
      expect(defaultSession.permissionCheck?.(contents, permission, 'file://', {}), permission).toBe(false);
    }
    expect(defaultSession.permissionRequest).toBeTypeOf('function');
    expect(defaultSession.permissionCheck).toBeTypeOf('function');
  });

  it('answers IPC calls from the page its window loaded, and from nothing else', async () => {
    const win = windows.at(-1)!;
    const pageUrl = pathToFileURL(win.loaded[0]!.file!).href;
    const fromPage = { sender: win.webContents, senderFrame: { url: pageUrl } };
    expect(await ipcMain.invoke(fromPage, 'coffer:call', 'localStore.status', {})).toMatchObject({ ok: true });
    for (const event of [
      { ...fromPage, senderFrame: { url: 'https://example.com/' } },
      { ...fromPage, sender: windows[0]!.webContents },
      { sender: new FakeWebContents(), senderFrame: { url: pageUrl } },
    ]) {
      expect(await ipcMain.invoke(event, 'coffer:call', 'localStore.status', {})).toMatchObject({ ok: false, error: { code: 'AccessDenied' } });
    }
  });

  it('registers one scheme of its own, for previews, with no privilege that bypasses the CSP', () => {
    expect(protocol.privileged.map((s) => s.scheme)).toEqual([OBJECT_SCHEME]);
    expect(protocol.privileged[0]!.privileges?.bypassCSP ?? false).toBe(false);
    expect([...protocol.handlers.keys()]).toEqual([OBJECT_SCHEME]);
  });

  it('asks Electron for nothing else: no command-line switches, no certificate or request hooks, no scheme but its own', () => {
    expect(calls.filter((c) => c.startsWith('missing:'))).toEqual([]);
    expect([...new Set(calls)].sort()).toEqual([
      'Menu.buildFromTemplate()',
      'Menu.setApplicationMenu()',
      'app.getAppPath()',
      'app.getPath(userData)',
      'app.on(activate)',
      'app.on(before-quit)',
      'app.on(second-instance)',
      'app.on(web-contents-created)',
      'app.on(window-all-closed)',
      'app.requestSingleInstanceLock()',
      'app.whenReady()',
      'ipcMain.handle(coffer:call)',
      'new BrowserWindow()',
      `protocol.handle(${OBJECT_SCHEME})`,
      'protocol.registerSchemesAsPrivileged()',
      'safeStorage.isEncryptionAvailable()',
      'session.defaultSession.setPermissionCheckHandler()',
      'session.defaultSession.setPermissionRequestHandler()',
    ]);
  });
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

/** Scripts only from the app itself, nothing inline or eval'd, no plugins, no remote hosts. */
function expectStrictCsp(csp: string, where: string): void {
  const d = directives(csp);
  expect([["'self'"], ["'none'"]], `${where}: default-src`).toContainEqual(d.get('default-src'));
  expect(d.get('script-src'), `${where}: script-src`).toEqual(["'self'"]);
  for (const [name, values] of d) {
    expect(values.filter((v) => ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", '*', 'http:', 'https:', 'data:', 'blob:'].includes(v) && name !== 'img-src'), `${where}: ${name}`).toEqual([]);
    // Only loopback may be named as a host (the embedded store's port is chosen at start).
    expect(values.filter((v) => /^[a-z]+:\/\//.test(v) && !/^http:\/\/127\.0\.0\.1(:\*|:\d+)?$/.test(v)), `${where}: ${name} hosts`).toEqual([]);
  }
  expect(d.get('object-src'), `${where}: object-src`).toEqual(["'none'"]);
  // Previews load objects' bytes from the app itself, or in the desktop app from its own scheme
  // (main answers it: src-main/electron/object-protocol.ts); nothing else.
  expect(d.get('img-src')?.filter((v) => v !== "'self'" && v !== 'data:' && v !== PREVIEW_SCHEME) ?? [], `${where}: img-src`).toEqual([]);
  for (const name of ['media-src', 'frame-src', 'connect-src']) expect(d.get(name)?.filter((v) => v !== "'self'" && v !== PREVIEW_SCHEME) ?? [], `${where}: ${name}`).toEqual([]);
}

const PREVIEW_SCHEME = `${OBJECT_SCHEME}:`;

describe('the Content-Security-Policy the app runs under', () => {
  let dir: string;
  let ctx: AppContext;
  let cookie: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'coffer-csp-'));
    // The renderer's page, as the build copies it: the desktop window loads it from a file, the browser build gets it from the UI server.
    copyFileSync(join(REPO, 'src-renderer/index.html'), join(dir, 'index.html'));
    ctx = await createAppContext({ dataDir: join(dir, 'store'), port: 0, ui: { staticDir: dir } });
    const link = await fetch(ctx.uiUrl!, { redirect: 'manual' });
    cookie = (link.headers.get('set-cookie') ?? '').split(';')[0]!;
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the page says it in a <meta>, which holds in the desktop window and the browser alike', async () => {
    const res = await fetch(`${ctx.server.url}/_coffer/`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html)?.[1];
    expect(meta, 'the page has a CSP <meta>').toBeDefined();
    expectStrictCsp(meta!, 'the page');
  });

  it('the UI server sends it as a header on every answer, with no framing by other pages', async () => {
    const answers = [
      await fetch(`${ctx.server.url}/_coffer/`, { headers: { cookie } }),
      await fetch(`${ctx.server.url}/_coffer/rpc`, { method: 'POST', headers: { cookie, origin: ctx.server.url, 'content-type': 'application/json' }, body: JSON.stringify({ method: 'localStore.status', arg: {} }) }),
      await fetch(`${ctx.server.url}/_coffer/no-such-file.js`, { headers: { cookie } }),
    ];
    for (const res of answers) {
      const csp = res.headers.get('content-security-policy');
      expect(csp, `${res.url} ${res.status}`).toBeTruthy();
      expectStrictCsp(csp!, `${res.url} ${res.status}`);
      expect(directives(csp!).get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      await res.body?.cancel();
    }
  });
});
