/**
 * The desktop window's security settings, checked without launching Electron: the options the
 * main window is built with, the renderer's Content-Security-Policy (the <meta> in index.html and
 * the header the browser build is served with), and a scan of src-main/electron for settings and
 * calls that would weaken them (what an Electron security linter flags).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OBJECT_SCHEME } from '../../src-main/electron/object-protocol.js';
import { mainWindowOptions } from '../../src-main/electron/window-options.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const read = (p: string) => readFileSync(join(REPO, p), 'utf8');

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

/** What both CSPs must say: scripts only from the app itself, nothing inline or eval'd, no plugins, no remote hosts, bytes only from the app. */
function expectStrictCsp(csp: string, where: string): void {
  const d = directives(csp);
  expect([["'self'"], ["'none'"]], `${where}: default-src`).toContainEqual(d.get('default-src'));
  expect(d.get('script-src'), `${where}: script-src`).toEqual(["'self'"]);
  for (const [name, values] of d) {
    expect(values.filter((v) => ["'unsafe-eval'", "'unsafe-hashes'", '*', 'http:', 'https:', 'data:', 'blob:'].includes(v) && name !== 'img-src'), `${where}: ${name}`).toEqual([]);
    // Only loopback may be named as a host (the embedded store's port is chosen at start).
    expect(values.filter((v) => /^[a-z]+:\/\//.test(v) && !/^http:\/\/127\.0\.0\.1(:\*|:\d+)?$/.test(v)), `${where}: ${name} hosts`).toEqual([]);
  }
  if (d.has('object-src')) expect(d.get('object-src')).toEqual(["'none'"]);
  // Previews load objects' bytes from the app itself, or in the desktop app from its own scheme
  // (main answers it: src-main/electron/object-protocol.ts); nothing else.
  expect(d.get('img-src')?.filter((v) => v !== "'self'" && v !== 'data:' && v !== PREVIEW_SCHEME) ?? []).toEqual([]);
  for (const name of ['media-src', 'frame-src', 'connect-src']) expect(d.get(name)?.filter((v) => v !== "'self'" && v !== PREVIEW_SCHEME) ?? [], `${where}: ${name}`).toEqual([]);
}

const PREVIEW_SCHEME = `${OBJECT_SCHEME}:`;

describe('Electron main window', () => {
  it('runs the renderer isolated and sandboxed, without Node, with web security on', () => {
    const options = mainWindowOptions('/app/preload.cjs');
    expect(options.webPreferences).toEqual(
      expect.objectContaining({
        preload: '/app/preload.cjs',
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
      }),
    );
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.webPreferences).not.toHaveProperty('additionalArguments');
  });

  it('the renderer page and the browser build carry a strict Content-Security-Policy', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(read('src-renderer/index.html'))?.[1];
    expect(meta).toBeDefined();
    expectStrictCsp(meta!, 'index.html');
    const served = /const CSP = "([^"]+)"/.exec(read('src-main/http/ui/index.ts'))?.[1];
    expect(served).toBeDefined();
    expectStrictCsp(served!, 'browser build');
    expect(directives(served!).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('navigation, new windows and permission requests are refused for every web contents', () => {
    const main = read('src-main/electron/main.ts');
    expect(main).toMatch(/on\('web-contents-created'[\s\S]*?on\('will-navigate', \(event\) => event\.preventDefault\(\)\)/);
    expect(main).toMatch(/setWindowOpenHandler\(\(\) => \(\{ action: 'deny' \}\)\)/);
    expect(main).toMatch(/setPermissionRequestHandler\([^)]*\) => callback\(false\)\)/);
  });

  it('no code under src-main/electron weakens those settings', () => {
    const risky = [
      /nodeIntegration\w*:\s*true/,
      /contextIsolation:\s*false/,
      /sandbox:\s*false/,
      /webSecurity:\s*false/,
      /allowRunningInsecureContent:\s*true/,
      /webviewTag:\s*true/,
      /enableRemoteModule/,
      /experimentalFeatures:\s*true/,
      /enableBlinkFeatures/,
      /insecure-content|ignore-certificate-errors|disable-web-security/,
    ];
    const dir = join(REPO, 'src-main/electron');
    const found: string[] = [];
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const r of risky) if (r.test(text)) found.push(`${f}: ${r}`);
    }
    expect(found).toEqual([]);
    // The window is built from the tested options.
    expect(readFileSync(join(dir, 'windows.ts'), 'utf8')).toMatch(/mainWindowOptions\(/);
  });
});
