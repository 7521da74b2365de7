import { readFile } from 'node:fs/promises';
// Context menus in the folder view: on rows (right-click, the menu key, Shift+F10) and on the
// folder's empty area; menu roles, focus, arrow keys and Escape; each item doing its job.
import type { Page } from '@playwright/test';
import { details, expect, grid, openContainer, row, rpc, test } from './support/fixtures.js';
import { containerWith, flatNames } from './support/browse-helpers.js';

const rowsMenu = (page: Page) => page.getByRole('menu', { name: 'Actions' });
const folderMenu = (page: Page) => page.getByRole('menu', { name: 'Folder actions menu' });

test('right-click opens the row menu: focus on the first item, arrows move, Escape closes and gives the focus back', async ({ app: page }) => {
  const container = await containerWith(page, 'menu-keys', { names: ['readme.txt'], prefixes: ['docs/'] });
  await page.reload();
  await openContainer(page, container);
  await row(page, 'docs').click({ button: 'right' });
  const menu = rowsMenu(page);
  await expect(menu.getByRole('menuitem')).toHaveText(['Open', 'Download…', 'Copy', 'Cut', 'Rename', 'Delete', 'Properties']);
  await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Download…' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Properties' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(grid(page)).toBeFocused();
  // A right-click selected the row it was on.
  await expect(row(page, 'docs')).toHaveAttribute('aria-selected', 'true');

  // Enter on Open opens the folder.
  await grid(page).press('Shift+F10');
  await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Location' }).getByRole('button', { name: 'docs' })).toHaveAttribute('aria-current', 'page');
});

test('an object\'s menu: rename from the keyboard, make public, share link, versions and properties', async ({ app: page }) => {
  const container = await containerWith(page, 'menu-obj', { names: ['readme.txt'] });
  await page.reload();
  await openContainer(page, container);
  await row(page, 'readme.txt').click();
  await grid(page).press('ContextMenu');
  const menu = rowsMenu(page);
  await expect(menu.getByRole('menuitem')).toHaveText(['Download…', 'Copy', 'Cut', 'Rename', 'Delete', 'Make public', 'Copy share link', 'Versions', 'Properties']);

  const [download] = await Promise.all([page.waitForEvent('download'), menu.getByRole('menuitem', { name: 'Download…' }).click()]);
  expect(download.suggestedFilename()).toBe('readme.txt');
  expect((await readFile(await download.path())).length).toBe((await rpc<{ size: number }>(page, 'browse.head', { account: 'local', container, name: 'readme.txt' })).size);

  await row(page, 'readme.txt').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Make public' }).click();
  await expect(details(page).getByRole('row', { name: /^Public/ })).toContainText('Yes');
  await row(page, 'readme.txt').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Make private' }).click();
  await expect(details(page).getByRole('row', { name: /^Public/ })).toContainText('No');

  await row(page, 'readme.txt').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Copy share link' }).click();
  const share = page.getByRole('dialog', { name: 'Share link for “readme.txt”' });
  await expect(share).toBeVisible();
  await share.getByRole('button', { name: 'Close' }).click();
  await expect(share).toBeHidden();

  await row(page, 'readme.txt').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Versions' }).click();
  await expect(details(page).getByRole('region', { name: 'Versions' })).toBeFocused();
  await row(page, 'readme.txt').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Properties' }).click();
  await expect(details(page)).toBeFocused();

  // Type-ahead: R goes to Rename, Enter opens its dialog.
  await grid(page).press('Shift+F10');
  await page.keyboard.press('r');
  await expect(menu.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('Enter');
  const rename = page.getByRole('dialog', { name: 'Rename “readme.txt”' });
  await rename.getByRole('textbox', { name: 'New name' }).fill('notes.txt');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(row(page, 'notes.txt')).toBeVisible();
  expect(await flatNames(page, container)).toEqual(['notes.txt']);
});

test('copy and paste from the menus; the folder\'s own menu pastes and makes folders; delete asks first', async ({ app: page }) => {
  const container = await containerWith(page, 'menu-paste', { names: ['readme.txt'] });
  await page.reload();
  await openContainer(page, container);
  // Nothing on the clipboard yet: the folder menu has no Paste.
  await grid(page).getByRole('rowgroup').last().click({ button: 'right', position: { x: 200, y: 200 } });
  await expect(folderMenu(page).getByRole('menuitem')).toHaveText(['New folder']);
  await page.keyboard.press('Escape');

  await row(page, 'readme.txt').click({ button: 'right' });
  await rowsMenu(page).getByRole('menuitem', { name: 'Copy', exact: true }).click();
  await grid(page).getByRole('rowgroup').last().click({ button: 'right', position: { x: 200, y: 200 } });
  await expect(folderMenu(page).getByRole('menuitem')).toHaveText(['Paste', 'New folder']);
  await folderMenu(page).getByRole('menuitem', { name: 'Paste' }).click();
  await expect(row(page, 'readme (copy).txt')).toBeVisible();

  // With nothing selected, the menu key opens the folder's menu.
  await grid(page).press('Escape');
  await grid(page).press('Shift+F10');
  await folderMenu(page).getByRole('menuitem', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByRole('textbox', { name: 'Folder name' }).fill('made-from-menu');
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(row(page, 'made-from-menu')).toBeVisible();

  await row(page, 'readme (copy).txt').click({ button: 'right' });
  await rowsMenu(page).getByRole('menuitem', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete' });
  await expect(confirm.getByRole('listitem')).toHaveText('readme (copy).txt');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'readme (copy).txt')).toHaveCount(0);
  expect(await rpc<unknown>(page, 'browse.listFolder', { account: 'local', container, delimiter: '' })).toMatchObject({ entries: [{ name: 'made-from-menu/' }, { name: 'readme.txt' }] });
});
