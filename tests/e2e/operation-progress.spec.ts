// Progress of long operations: pasting a folder of 3,000 objects and deleting it again each
// show a progress bar fed by the server's 'operation.progress' events. The call's answer is held
// back until the bar has shown the final count, so what is checked does not depend on speed.
import type { Page } from '@playwright/test';
import { expect, grid, openContainer, row, test } from './support/fixtures.js';
import { backToContainers, containerWith, flatNames, pressInGrid } from './support/browse-helpers.js';
import { ARCHIVE, BIG_COUNT } from './support/seed-data.js';

/** Holds the answer of the next call of `method` (the server still does all the work) until released. */
async function holdAnswer(page: Page, method: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_coffer/rpc', async (route) => {
    if ((route.request().postDataJSON() as { method?: string } | null)?.method !== method) return route.continue();
    const response = await route.fetch({ timeout: 150_000 });
    await held;
    await route.fulfill({ response });
  });
  return release;
}

test('pasting and deleting a folder of 3,000 objects show their progress to the last object', async ({ app: page }) => {
  test.setTimeout(240_000);
  const target = await containerWith(page, 'progress');
  await page.reload();
  await openContainer(page, ARCHIVE);
  await row(page, 'logs').dblclick();
  await row(page, '2024').click();
  await pressInGrid(page, 'ControlOrMeta+c');
  await backToContainers(page);
  await openContainer(page, target);

  const releasePaste = await holdAnswer(page, 'browse.paste');
  await pressInGrid(page, 'ControlOrMeta+v');
  const pasting = page.getByRole('progressbar', { name: 'Pasting' });
  await expect(pasting).toHaveAttribute('aria-valuetext', '3,000 of 3,000', { timeout: 150_000 });
  await expect(pasting).toHaveAttribute('aria-valuenow', String(BIG_COUNT));
  releasePaste();
  await expect(pasting).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Pasted 3,000 objects.' })).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });

  const releaseDelete = await holdAnswer(page, 'browse.delete');
  await row(page, '2024').click();
  await grid(page).press('Delete');
  const dialog = page.getByRole('dialog', { name: 'Delete' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  const deleting = dialog.getByRole('progressbar', { name: 'Deleting' });
  await expect(deleting).toHaveAttribute('aria-valuetext', '3,000 of 3,000', { timeout: 150_000 });
  releaseDelete();
  await expect(dialog).toBeHidden();
  await expect(row(page, '2024')).toHaveCount(0);
  expect(await flatNames(page, target)).toEqual([]);
});
