// Operations in the folder view: new folder, delete (objects and whole folders, with the Delete
// key too) and rename (F2 too, folders included), each confirmed against the server.
import type { Page } from '@playwright/test';
import { expect, grid, openContainer, row, rpc, test } from './support/fixtures.js';
import { OPS } from './support/seed-data.js';

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Folder actions' });
const names = async (page: Page, prefix: string) =>
  (await rpc<{ entries: ({ kind: 'object'; name: string } | { kind: 'folder'; prefix: string })[] }>(page, 'browse.listFolder', { account: 'local', container: OPS, prefix, delimiter: '' })).entries.map((e) =>
    e.kind === 'object' ? e.name : e.prefix,
  );

test('creates a folder in the folder on screen', async ({ app: page }) => {
  await openContainer(page, OPS);
  await toolbar(page).getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter a name.');
  await dialog.getByRole('textbox', { name: 'Folder name' }).fill('keep.txt/');
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(dialog.getByRole('alert')).toContainText('cannot start or end');
  await dialog.getByRole('textbox', { name: 'Folder name' }).fill('fresh');
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'fresh')).toBeVisible();
  expect(await names(page, 'fresh')).toEqual(['fresh/']);

  await row(page, 'fresh').dblclick();
  await expect(page.getByText('This folder is empty')).toBeVisible();
  // The folder's own marker object is the folder, not an item in it.
  await expect(page.getByRole('contentinfo', { name: 'Status bar' })).toContainText('0 items');
});

test('deletes objects and whole folders after naming them', async ({ app: page }) => {
  await openContainer(page, OPS);
  await expect(toolbar(page).getByRole('button', { name: 'Delete' })).toBeDisabled();
  await row(page, 'trash-me.txt').click();
  await row(page, 'old-stuff').click({ modifiers: ['ControlOrMeta'] });
  await toolbar(page).getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete' });
  await expect(dialog).toContainText('Delete these 2 items? This cannot be undone.');
  const list = dialog.getByRole('list', { name: 'Items to delete' });
  await expect(list.getByRole('listitem')).toHaveText(['old-stuff/ (the folder and everything in it)', 'trash-me.txt']);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'trash-me.txt')).toHaveCount(0);
  await expect(row(page, 'old-stuff')).toHaveCount(0);
  await expect(row(page, 'keep.txt')).toBeVisible();
  expect(await names(page, 'old-stuff/')).toEqual([]);
  expect(await names(page, 'trash-me')).toEqual([]);
});

test('the Delete key asks first, and Cancel keeps everything', async ({ app: page }) => {
  await openContainer(page, OPS);
  await row(page, 'also-trash.txt').click();
  await grid(page).press('Delete');
  const dialog = page.getByRole('dialog', { name: 'Delete' });
  await expect(dialog).toContainText('Delete this item?');
  await expect(dialog.getByRole('listitem')).toHaveText('also-trash.txt');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'also-trash.txt')).toBeVisible();

  await grid(page).press('Delete');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'also-trash.txt')).toHaveCount(0);
  expect(await names(page, 'also-trash')).toEqual([]);
});

test('renames an object with F2 and a whole folder with the button', async ({ app: page }) => {
  await openContainer(page, OPS);
  await row(page, 'draft.txt').click();
  await grid(page).press('F2');
  const dialog = page.getByRole('dialog', { name: 'Rename “draft.txt”' });
  const field = dialog.getByRole('textbox', { name: 'New name' });
  await expect(field).toHaveValue('draft.txt');
  await field.fill('keep.txt');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('“keep.txt” already exists here.');
  await field.fill('final.txt');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'final.txt')).toBeVisible();
  await expect(row(page, 'draft.txt')).toHaveCount(0);

  await row(page, 'drafts').click();
  await toolbar(page).getByRole('button', { name: 'Rename' }).click();
  const folderDialog = page.getByRole('dialog', { name: 'Rename “drafts”' });
  await folderDialog.getByRole('textbox', { name: 'New name' }).fill('published');
  await folderDialog.getByRole('button', { name: 'Rename' }).click();
  await expect(folderDialog).toBeHidden();
  await expect(row(page, 'published')).toBeVisible();
  await expect(row(page, 'drafts')).toHaveCount(0);
  expect(await names(page, 'published/')).toEqual(['published/one.txt', 'published/sub/two.txt']);
  expect(await names(page, 'drafts/')).toEqual([]);
});
