// Cancel mid-way: a 64 MiB file, its upload slowed by the browser's own network throttling so
// that it is surely still running, is cancelled from the panel; nothing of it may appear.
import { writeFileSync } from 'node:fs';
import { expect, openContainer, test } from './support/fixtures.js';
import { objectNames, ownContainer, reloadApp, transferItem, transfersPanel, startThrottledUpload } from './transfers-helpers.js';

const SIZE = 64 * 1024 * 1024;

test('a running upload cancelled from the panel leaves no object behind', async ({ app: page }, testInfo) => {
  const container = await ownContainer(page, 'cancel');
  const path = testInfo.outputPath('big-cancel.bin');
  writeFileSync(path, Buffer.alloc(SIZE, 7));
  await reloadApp(page);
  await openContainer(page, container);

  const upload = await startThrottledUpload(page, path, 4 * 1024 * 1024);

  const item = transferItem(page, 'big-cancel.bin', container);
  const progress = transfersPanel(page).getByRole('progressbar', { name: 'Progress of big-cancel.bin' });
  await expect(item).toContainText('Running');
  await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
  await expect(transfersPanel(page).getByRole('progressbar', { name: 'Total progress' })).toBeVisible();
  await item.getByRole('button', { name: 'Cancel big-cancel.bin' }).click();
  await expect(item).toContainText('Cancelled');
  await upload.unthrottle();

  expect(await objectNames(page, container)).toEqual([]);
  await expect(page.getByText('This container is empty')).toBeVisible();
});
