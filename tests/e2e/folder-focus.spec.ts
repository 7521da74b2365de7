// Keyboard focus in the folder view: it never falls to <body> (where Delete, F2, Backspace and
// paste reach nothing) after opening a container, closing a dialog, a paste's "Keep both" or going
// back to the container list; it lands on the grid, a dialog's opener, or the container just left.
import type { Page } from '@playwright/test';
import { containerWith } from './support/browse-helpers.js';
import { breadcrumbs, expect, grid, openContainer, row, rpc, test } from './support/fixtures.js';
import { ARCHIVE } from './support/seed-data.js';
import { SCREENS } from './support/screens.js';

const containersTable = (page: Page) => page.getByRole('table', { name: 'Containers' });
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Folder actions' });

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('opening a container puts the keyboard in its grid, and Backspace comes back to that container', async ({ app: page }) => {
      const container = await containerWith(page, 'focus-open', { names: ['readme.txt'], prefixes: ['photos/'] });
      await page.reload();
      await containersTable(page).getByRole('button', { name: container, exact: true }).click();
      await expect(row(page, 'readme.txt')).toBeVisible();
      await expect(grid(page)).toBeFocused();
      // The keys work at once: arrows select, Delete asks.
      await page.keyboard.press('ArrowDown');
      await expect(row(page, 'photos')).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Delete');
      const dialog = page.getByRole('dialog', { name: 'Delete' });
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(grid(page)).toBeFocused();

      // Backspace at the container's root: the list, with the keyboard on the container just left.
      await page.keyboard.press('Backspace');
      const button = containersTable(page).getByRole('button', { name: container, exact: true });
      await expect(button).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(breadcrumbs(page).getByRole('button', { name: container, exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(grid(page)).toBeFocused();
    });

    test('Escape in Rename gives the keyboard back to the grid or to the button that opened it', async ({ app: page }) => {
      await openContainer(page, ARCHIVE);
      await row(page, 'readme.txt').click();
      await grid(page).press('F2');
      const dialog = page.getByRole('dialog', { name: 'Rename “readme.txt”' });
      await expect(dialog.getByRole('textbox', { name: 'New name' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(grid(page)).toBeFocused();
      // F2 works again straight away.
      await page.keyboard.press('F2');
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(grid(page)).toBeFocused();

      // Opened from the toolbar: back on that button, and the grid is the next Tab stop.
      const rename = toolbar(page).getByRole('button', { name: 'Rename' });
      await rename.click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(rename).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(grid(page)).toBeFocused();
    });

    test('"Keep both" in a paste that finds names taken leaves the keyboard in the grid', async ({ app: page }) => {
      const container = await containerWith(page, 'focus-paste', { names: ['readme.txt'] });
      await rpc(page, 'browse.paste', { from: { account: 'local', container: ARCHIVE, names: ['readme.txt'] }, to: { account: 'local', container, prefix: 'inbox/' } });
      await page.reload();
      await openContainer(page, container);
      await row(page, 'readme.txt').click();
      await grid(page).press('ControlOrMeta+c');
      await row(page, 'inbox').dblclick();
      await expect(breadcrumbs(page).getByRole('button', { name: 'inbox', exact: true })).toHaveAttribute('aria-current', 'page');
      await grid(page).press('ControlOrMeta+v');
      const dialog = page.getByRole('dialog', { name: 'Names already taken' });
      await expect(dialog.getByRole('button', { name: 'Keep both' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(row(page, 'readme (copy).txt')).toBeVisible();
      await expect(grid(page)).toBeFocused();
      // The pasted copy is selected, and Delete acts on it.
      await page.keyboard.press('Delete');
      await expect(page.getByRole('dialog', { name: 'Delete' }).getByRole('listitem')).toHaveText(['readme (copy).txt']);
      await page.keyboard.press('Escape');
      await expect(grid(page)).toBeFocused();
    });
  });
}
