// Before a batch starts: a batch that would go over its container's quota says so with the
// numbers; Cancel starts nothing, "Upload anyway" lets the server decide (and it refuses).
import type { Page } from '@playwright/test';
import { expect, grid, openContainer, rpc, test } from './support/fixtures.js';
import { ACCOUNT_ID } from './support/seed-data.js';
import { dropFiles, objectNames, ownContainer, reloadApp, transferItem } from './transfers-helpers.js';

const warning = (page: Page) => page.getByRole('dialog', { name: 'This upload goes over the quota' });
const tooBig = [{ name: 'quota-big.bin', body: 'q'.repeat(1500) }];

test('a batch over the container quota is announced with its numbers; Cancel starts nothing, the server refuses the rest', async ({ app: page }) => {
  const container = await ownContainer(page, 'quota');
  await rpc(page, 'localStore.setQuota', { account: ACCOUNT_ID, container, maxBytes: 1000, maxObjects: -1 });
  await reloadApp(page);
  await openContainer(page, container);

  await dropFiles(page, grid(page), tooBig);
  const dialog = warning(page);
  await expect(dialog).toContainText(`The size quota of the container “${container}” would be exceeded`);
  // In use, this upload adds, quota, over by: the 1,500-byte file as the 4,096 bytes the store counts.
  await expect(dialog.getByRole('definition')).toHaveText(['0 B', '4.1 KB', '1 KB', '3.1 KB']);
  await expect(dialog).toContainText('each file rounded up to a multiple of 4,096 bytes');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await objectNames(page, container)).toEqual([]);

  await dropFiles(page, grid(page), tooBig);
  await warning(page).getByRole('button', { name: 'Upload anyway' }).click();
  await expect(warning(page)).toBeHidden();
  const item = transferItem(page, 'quota-big.bin', container);
  await expect(item).toContainText('Failed');
  await expect(item).toContainText(/quota/i);
  expect(await objectNames(page, container)).toEqual([]);
});
