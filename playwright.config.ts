// End-to-end tests: the browser build served by the real `coffer serve --ui` (started and seeded
// by tests/e2e/support/global-setup.ts) in Chromium, plus an Electron smoke test that skips itself
// where the Electron binary is not installed. Build first: `npm run test:e2e` runs `npm run build`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// A free loopback port chosen at run time; set in the environment so worker processes, which
// load this file again, agree on it (and the global setup starts the server there).
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
  globalSetup: './tests/e2e/support/global-setup.ts',
  // The JSON report feeds the pass/fail/skip summary that .ci/run prints.
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  // Two cores here: two workers share one server; each spec stays quick.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  // A bound for a run that hangs, not a speed goal: the 159 specs took 13-17 min on two cores
  // (one CI run on 2026-11-29 had 140 done when a 15-minute bound stopped it).
  globalTimeout: 30 * 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    locale: 'en-US',
    timezoneId: 'UTC',
    colorScheme: 'light',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
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
});
