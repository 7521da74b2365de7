// Texts a user reads every day, at the narrowest supported window in dark and a wide one in
// light: counts in English ("1 item"), Rename keeping the extension while typing, and the delete
// dialog saying how many objects go with a folder. Each test works in a container of its own.
import type { Page } from '@playwright/test';
import { expect, grid, openContainer, row, test } from './support/fixtures.js';
import { containerWith, flatNames } from './support/browse-helpers.js';
import { SCREENS } from './support/screens.js';

const status = (page: Page) => page.getByRole('contentinfo', { name: 'Status bar' });
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Folder actions' });

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('counts read as English: "1 item", never "1 items"', async ({ app: page }) => {
      const container = await containerWith(page, 'one-item', { names: ['readme.txt'] });
      await page.reload();
      await openContainer(page, container);
      await expect(row(page, 'readme.txt')).toBeVisible();
      await expect(status(page)).toContainText('1 item');
      await expect(status(page)).not.toContainText('1 items');
    });

    test('Rename selects the name without its extension: typing keeps ".txt"', async ({ app: page }) => {
      const container = await containerWith(page, 'rename', { names: ['readme.txt'] });
      await page.reload();
      await openContainer(page, container);
      await row(page, 'readme.txt').click();
      await grid(page).press('F2');
      const dialog = page.getByRole('dialog', { name: 'Rename “readme.txt”' });
      const field = dialog.getByRole('textbox', { name: 'New name' });
      await expect(field).toHaveValue('readme.txt');
      await page.keyboard.type('notes');
      await expect(field).toHaveValue('notes.txt');
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      expect(await flatNames(page, container)).toEqual(['notes.txt']);
    });

    test('deleting a folder says first how many objects go with it, and how much', async ({ app: page }) => {
      const container = await containerWith(page, 'del-count', { names: ['readme.txt'], prefixes: ['photos/'] });
      await page.reload();
      await openContainer(page, container);
      await row(page, 'photos').click();
      await toolbar(page).getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete' });
      // photos/ holds cat.jpg (2,048 B), dog.png (512 B) and bird.gif (100 B): 2,660 B.
      await expect(dialog).toContainText('The folders hold 3 objects (2.7 KB); they are deleted with them.');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect(dialog).toBeHidden();
      expect(await flatNames(page, container)).toEqual(['readme.txt']);
    });
  });
}
