// Cancel mid-way: a 64 MiB file, its upload slowed by the browser's own network throttling so
// that it is surely still running, is cancelled from the panel; nothing of it may appear.
import { writeFileSync } from 'node:fs';
import { expect, openContainer, test } from './support/fixtures.js';
import { folderActions, objectNames, ownContainer, reloadApp, transferItem, transfersPanel } from './transfers-helpers.js';

const SIZE = 64 * 1024 * 1024;

test('a running upload cancelled from the panel leaves no object behind', async ({ app: page }, testInfo) => {
  const container = await ownContainer(page, 'cancel');
  const path = testInfo.outputPath('big-cancel.bin');
  writeFileSync(path, Buffer.alloc(SIZE, 7));
  await reloadApp(page);
  await openContainer(page, container);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * 1024 * 1024 });

  const chooser = page.waitForEvent('filechooser');
  await folderActions(page).getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles(path);

  const item = transferItem(page, 'big-cancel.bin', container);
  const progress = transfersPanel(page).getByRole('progressbar', { name: 'Progress of big-cancel.bin' });
  await expect(item).toContainText('Running');
  await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
  await expect(transfersPanel(page).getByRole('progressbar', { name: 'Total progress' })).toBeVisible();
  await item.getByRole('button', { name: 'Cancel big-cancel.bin' }).click();
  await expect(item).toContainText('Cancelled');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  expect(await objectNames(page, container)).toEqual([]);
  await expect(page.getByText('This container is empty')).toBeVisible();
});
