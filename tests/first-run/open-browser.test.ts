// `coffer serve --ui --open` (and so `npm start`'s browser fallback) hands the link to the desktop's
// opener, and never fails when there is none. The opener here is a stand-in `xdg-open` on PATH that
// records what it was given (a real one would start Chromium on this shared machine).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openInBrowser } from '../../src-main/cli/open-browser.js';

const saved = { ...process.env };
let dir: string;
const opened = () => join(dir, 'opened');
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coffer-open-'));
  writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened()}'\n`);
  chmodSync(join(dir, 'xdg-open'), 0o755);
  process.env.PATH = `${dir}:${saved.PATH}`;
  process.env.DISPLAY = ':99';
  delete process.env.WAYLAND_DISPLAY;
  delete process.env.BROWSER;
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

const link = 'http://127.0.0.1:7480/_coffer/?token=abc';

describe.runIf(process.platform === 'linux')('opening the browser', () => {
  it('hands the link to xdg-open where there is a display', async () => {
    expect(openInBrowser(link)).toBeUndefined();
    await expect.poll(() => existsSync(opened()) && readFileSync(opened(), 'utf8'), { timeout: 5_000 }).toBe(link);
  });

  it('does not try without a display, nor with BROWSER=none, and says why', async () => {
    process.env.BROWSER = 'none';
    expect(openInBrowser(link)).toMatch(/BROWSER=none/);
    delete process.env.BROWSER;
    delete process.env.DISPLAY;
    expect(openInBrowser(link)).toMatch(/no display/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(opened())).toBe(false);
  });

  it('goes on when there is no opener at all', async () => {
    process.env.PATH = dir.replace(/coffer-open-.*/, 'nowhere');
    expect(() => openInBrowser(link)).not.toThrow();
    // The failed spawn surfaces as an 'error' event, which must not end the process.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
});
