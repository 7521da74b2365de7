// Containers of the selected connection: counters, create, delete, and refusals said plainly.
import { expect, rpc, test } from './support/fixtures.js';
import { ARCHIVE, ARCHIVE_OBJECTS, EMPTY } from './support/seed-data.js';

const fmt = (n: number) => n.toLocaleString('en-US');

test('lists the containers with object counts, sizes and created dates', async ({ app: page }) => {
  const table = page.getByRole('table', { name: 'Containers' });
  await expect(table.getByRole('columnheader', { name: 'Objects' })).toBeVisible();
  const archive = table.getByRole('row', { name: new RegExp(`^${ARCHIVE}\\b`) });
  await expect(archive.getByRole('cell').nth(0)).toHaveText(fmt(ARCHIVE_OBJECTS));
  await expect(archive.getByRole('cell').nth(1)).toHaveText(/^\d+(\.\d)? (KB|MB)$/);
  await expect(archive.getByRole('cell').nth(2)).toHaveText(/\d{4}/);
  const empty = table.getByRole('row', { name: new RegExp(`^${EMPTY}\\b`) });
  await expect(empty.getByRole('cell').nth(0)).toHaveText('0');
  await expect(empty.getByRole('cell').nth(1)).toHaveText('0 B');
});

test('creates a container in a dialog and deletes it after confirmation', async ({ app: page }) => {
  const name = `e2e-new-${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'New container' }).click();
  const dialog = page.getByRole('dialog', { name: 'New container' });
  await dialog.getByRole('textbox', { name: 'Container name' }).fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: 'Containers' });
  await expect(table.getByRole('button', { name, exact: true })).toBeVisible();
  expect((await rpc<{ name: string }[]>(page, 'browse.listContainers', { account: 'local' })).map((c) => c.name)).toContain(name);

  await table.getByRole('button', { name: `Delete container ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete container' });
  await expect(confirm).toContainText(`Delete the container “${name}”?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(table.getByRole('button', { name, exact: true })).toHaveCount(0);
});

test('says plainly that a non-empty container cannot be deleted', async ({ app: page }) => {
  await page.getByRole('button', { name: `Delete container ${ARCHIVE}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete container' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByRole('alert')).toHaveText(`The container “${ARCHIVE}” is not empty. Delete its objects first, then delete the container.`);
  await confirm.getByRole('button', { name: 'Close' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('table', { name: 'Containers' }).getByRole('button', { name: ARCHIVE, exact: true })).toBeVisible();
});

test('refuses a duplicate name inside the dialog', async ({ app: page }) => {
  await page.getByRole('button', { name: 'New container' }).click();
  const dialog = page.getByRole('dialog', { name: 'New container' });
  await dialog.getByRole('textbox', { name: 'Container name' }).fill(EMPTY);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toContainText('already exists');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('an empty container says so', async ({ app: page }) => {
  await page.getByRole('table', { name: 'Containers' }).getByRole('button', { name: EMPTY, exact: true }).click();
  await expect(page.getByRole('heading', { name: 'This container is empty' })).toBeVisible();
});
