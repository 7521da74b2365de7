// Downloads in the browser build: "Download…" hands the object's address to the browser, a
// folder or a multi-selection comes as one zip the server streams, and a row dragged out carries
// Chromium's DownloadURL data pointing at the object's address.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, openContainer, row, test } from './support/fixtures.js';
import { SCREENS } from './support/screens.js';
import { ACCOUNT_ID, ARCHIVE, README } from './support/seed-data.js';
import { folderActions } from './transfers-helpers.js';

test('"Download…" downloads the selected object with its bytes', async ({ app: page }) => {
  await openContainer(page, ARCHIVE);
  const download = folderActions(page).getByRole('button', { name: 'Download…' });
  await expect(download).toBeDisabled();
  await row(page, README.name).click();
  const saved = page.waitForEvent('download');
  await download.click();
  const file = await saved;
  expect(file.suggestedFilename()).toBe(README.name);
  expect(readFileSync(await file.path()).toString()).toBe(README.body);
});

/** The zip's entries and their contents, read by Python's zipfile (a reader that is not ours). */
function unzip(path: string): Record<string, string> {
  const script = 'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps({n: z.read(n).decode() for n in z.namelist()}))';
  return JSON.parse(execFileSync('python3', ['-c', script, path]).toString()) as Record<string, string>;
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('"Download…" of a folder, or of several items, is one zip of everything in them, laid out as folders', async ({ app: page }) => {
      await openContainer(page, ARCHIVE);
      const download = folderActions(page).getByRole('button', { name: 'Download…' });
      await row(page, 'docs').click();
      let saved = page.waitForEvent('download');
      await download.click();
      let file = await saved;
      expect(file.suggestedFilename()).toBe('docs.zip');
      expect(unzip(await file.path())).toEqual({ 'docs/readme.md': '# Docs\n', 'docs/guide/intro.md': '# Intro\n', 'docs/guide/advanced/tips.md': '# Tips\n' });

      await row(page, 'photos').click({ modifiers: ['ControlOrMeta'] });
      await row(page, README.name).click({ modifiers: ['ControlOrMeta'] });
      saved = page.waitForEvent('download');
      await download.click();
      file = await saved;
      expect(file.suggestedFilename()).toBe(`${ARCHIVE}.zip`);
      const entries = unzip(await file.path());
      expect(Object.keys(entries).sort()).toEqual(['docs/guide/advanced/tips.md', 'docs/guide/intro.md', 'docs/readme.md', 'photos/bird.gif', 'photos/cat.jpg', 'photos/dog.png', README.name]);
      expect(entries['photos/cat.jpg']).toBe('c'.repeat(2048));
      expect(entries[README.name]).toBe(README.body);
    });
  });
}

test('dragging a row out sets the DownloadURL data Chromium turns into a file', async ({ app: page, baseURL }) => {
  await openContainer(page, ARCHIVE);
  const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
  await row(page, README.name).dispatchEvent('dragstart', { dataTransfer });
  const data = await dataTransfer.evaluate((dt) => dt.getData('DownloadURL'));
  // The local account's own connection id, as the app browses it.
  const url = `${baseURL}/_coffer/download?${new URLSearchParams({ account: `local:${ACCOUNT_ID}`, container: ARCHIVE, name: README.name })}`;
  expect(data).toBe(`application/octet-stream:${README.name}:${url}`);
  const res = await page.request.get(url);
  expect(res.ok()).toBe(true);
  expect(await res.text()).toBe(README.body);
  expect(res.headers()['content-disposition']).toContain('attachment');
});
