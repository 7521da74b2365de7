// Smoke test of the desktop app: launches Electron on the built app (`electron .` from the repo
// root) and checks the window and the renderer's isolation. Needs build:main and build:preload.
// Skipped, never passed, where the Electron binary is not installed.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const builtFiles = ['dist/src-main/electron/main.js', 'dist/preload/preload.cjs', 'dist/renderer/index.html'];

/** The Electron executable, or undefined when its binary was never downloaded. */
function electronBinary(): string | undefined {
  try {
    // The electron package's main export is the binary's path; it throws without path.txt.
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const executablePath = electronBinary();
test.skip(
  !executablePath,
  'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD / no network): node_modules/electron/path.txt is missing',
);

test('launches a sandboxed window exposing only window.coffer', async () => {
  const missing = builtFiles.filter((file) => !existsSync(join(repoRoot, file)));
  expect(missing, 'build first: npm run build (build:main, build:preload, build:renderer)').toEqual([]);

  // Electron refuses to run as root without --no-sandbox (CI containers).
  const args = process.getuid?.() === 0 ? ['.', '--no-sandbox'] : ['.'];
  const app = await electron.launch({ args, cwd: repoRoot, executablePath });
  try {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle('Coffer');
    await expect(page.getByTestId('store-local')).toBeVisible();

    const exposed = await page.evaluate(() => {
      const scope = globalThis as unknown as Record<string, unknown> & { coffer?: { platform?: unknown } };
      return {
        platform: typeof scope.coffer?.platform,
        require: typeof scope.require,
        process: typeof scope.process,
      };
    });
    expect(exposed).toEqual({ platform: 'string', require: 'undefined', process: 'undefined' });
    expect((await page.evaluate(() => Object.keys((window as unknown as { coffer: object }).coffer))).sort()).toEqual([
      'call',
      'pathForFile',
      'platform',
      'subscribe',
    ]);
    // The contract answers over IPC, and the preload refuses methods outside the manifest.
    const status = await page.evaluate(() => (window as unknown as { coffer: { call: (m: string, a: unknown) => Promise<{ ok: boolean }> } }).coffer.call('localStore.status', {}));
    expect(status.ok).toBe(true);
    const refused = await page.evaluate(() => (window as unknown as { coffer: { call: (m: string, a: unknown) => Promise<{ ok: boolean; error?: { code: string } }> } }).coffer.call('engine.deleteEverything', {}));
    expect(refused).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
  } finally {
    await app.close();
  }
});
