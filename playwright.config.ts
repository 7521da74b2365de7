// End-to-end tests: the browser build (dist/renderer, served by `vite preview`) in Chromium, plus an
// Electron smoke test that skips itself where the Electron binary is not installed.
// Build first: `vite build` (renderer); the Electron test also needs build:main and build:preload.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// A free loopback port chosen at run time; set in the environment so worker processes, which
// load this file again, agree on it.
process.env.COFFER_E2E_PORT ??= execFileSync(process.execPath, [
  '-e',
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
]).toString();
const port = Number(process.env.COFFER_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

// Debian's `chromium` package; elsewhere fall back to a Playwright-managed browser.
const DEBIAN_CHROMIUM = '/usr/lib/chromium/chromium';
const executablePath = process.env.COFFER_E2E_CHROMIUM ?? (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined);

export default defineConfig({
  testDir: 'tests/e2e',
  // The JSON report feeds the pass/fail/skip summary that .ci/run prints.
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath,
          args: [
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-gpu',
            '--no-sandbox',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
