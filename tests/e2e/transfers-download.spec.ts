// Downloads in the browser build: "Download…" hands the object's address to the browser, and a
// row dragged out carries Chromium's DownloadURL data pointing at the same address.
import { readFileSync } from 'node:fs';
import { expect, openContainer, row, test } from './support/fixtures.js';
import { ACCOUNT_ID, ARCHIVE, README } from './support/seed-data.js';
import { folderActions } from './transfers-helpers.js';

test('"Download…" downloads the selected object with its bytes', async ({ app: page }) => {
  await openContainer(page, ARCHIVE);
  const download = folderActions(page).getByRole('button', { name: 'Download…' });
  await expect(download).toBeDisabled();
  // Folders are not offered in the browser build.
  await row(page, 'docs').click();
  await expect(download).toBeDisabled();
  await row(page, README.name).click();
  const saved = page.waitForEvent('download');
  await download.click();
  const file = await saved;
  expect(file.suggestedFilename()).toBe(README.name);
  expect(readFileSync(await file.path()).toString()).toBe(README.body);
});

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
