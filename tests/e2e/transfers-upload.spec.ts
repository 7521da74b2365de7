// Uploads in the browser build: files dropped on a folder row, on the folder on screen and on a
// container; a folder tree through "Upload folder"; each checked on the server (names, sizes,
// ETags = MD5 of the bytes) and in the listing, with the panel saying "Verified".
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { breadcrumbs, expect, grid, openContainer, row, rpc, test } from './support/fixtures.js';
import { dropFiles, folderActions, head, md5, objectNames, ownContainer, reloadApp, transferItem, transfersPanel } from './transfers-helpers.js';

/** Opens a folder row and waits until the breadcrumbs say the folder is on screen. */
async function openFolder(page: Page, name: string): Promise<void> {
  await expect(row(page, name)).toBeVisible();
  await row(page, name).dblclick();
  await expect(breadcrumbs(page).getByRole('button', { name, exact: true })).toHaveAttribute('aria-current', 'page');
}

test('files dropped on a folder row, on the folder view and on a container land there, verified', async ({ app: page }) => {
  const container = await ownContainer(page, 'drop');
  await rpc(page, 'browse.createFolder', { account: 'local', container, prefix: 'inbox/' });
  await reloadApp(page);

  // Onto a container in the containers list: its root.
  const containerRow = page.getByRole('table', { name: 'Containers' }).getByRole('row').filter({ has: page.getByRole('button', { name: container, exact: true }) });
  await dropFiles(page, containerRow, [{ name: 'root-note.txt', body: 'at the root\n' }]);
  await expect(transferItem(page, 'root-note.txt', container)).toContainText('Done');

  await openContainer(page, container);
  // Onto a folder row: that folder.
  const alpha = 'alpha\n';
  const beta = 'b'.repeat(1000);
  await dropFiles(page, row(page, 'inbox'), [
    { name: 'drop-a.txt', body: alpha },
    { name: 'drop-b.bin', body: beta },
  ]);
  for (const name of ['inbox/drop-a.txt', 'inbox/drop-b.bin']) {
    await expect(transferItem(page, name, container)).toContainText('Done');
    await expect(transferItem(page, name, container)).toContainText('Verified');
  }
  // Onto the folder view itself (the grid, away from any folder row): the folder on screen.
  await dropFiles(page, grid(page), [{ name: 'drop-c.txt', body: 'gamma' }]);
  await expect(transferItem(page, 'drop-c.txt', container)).toContainText('Verified');

  expect(await objectNames(page, container)).toEqual(['drop-c.txt', 'inbox/', 'inbox/drop-a.txt', 'inbox/drop-b.bin', 'root-note.txt']);
  expect(await head(page, container, 'inbox/drop-a.txt')).toMatchObject({ size: alpha.length, etag: md5(alpha) });
  expect(await head(page, container, 'inbox/drop-b.bin')).toMatchObject({ size: 1000, etag: md5(beta) });
  expect(await head(page, container, 'root-note.txt')).toMatchObject({ size: 12, etag: md5('at the root\n') });

  // The listing shows them without a reload.
  await expect(row(page, 'drop-c.txt')).toBeVisible();
  await openFolder(page, 'inbox');
  await expect(row(page, 'drop-a.txt')).toBeVisible();
  await expect(row(page, 'drop-b.bin')).toContainText('1 KB');

  // The panel folds away and comes back from the status bar's switch.
  await transfersPanel(page).getByRole('button', { name: 'Hide transfers' }).click();
  await expect(transfersPanel(page)).toHaveCount(0);
  const toggle = page.getByRole('contentinfo', { name: 'Status bar' }).getByRole('button', { name: /^Transfers/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(transfersPanel(page)).toBeVisible();
  await expect(transferItem(page, 'inbox/drop-a.txt', container)).toContainText('Verified');
});

test('a folder tree picked with "Upload folder" keeps its folders as name prefixes', async ({ app: page }, testInfo) => {
  const container = await ownContainer(page, 'tree');
  const root = testInfo.outputPath('photos-tree');
  const files: Record<string, string> = {
    'one.txt': 'one\n',
    'sub/two.txt': 'two two\n',
    'sub/deeper/three.bin': 'x'.repeat(70_000),
  };
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  await reloadApp(page);
  await openContainer(page, container);
  const chooser = page.waitForEvent('filechooser');
  await folderActions(page).getByRole('button', { name: 'Upload folder' }).click();
  await (await chooser).setFiles(root);

  const expected = Object.keys(files).map((rel) => `photos-tree/${rel}`);
  for (const name of expected) await expect(transferItem(page, name, container)).toContainText('Verified');
  await expect(transfersPanel(page).getByRole('progressbar', { name: `Progress of ${expected[2]}` })).toHaveAttribute('value', '1');

  expect((await objectNames(page, container)).sort()).toEqual([...expected].sort());
  for (const [rel, body] of Object.entries(files)) {
    expect(await head(page, container, `photos-tree/${rel}`)).toMatchObject({ size: body.length, etag: md5(body) });
  }
  await openFolder(page, 'photos-tree');
  await openFolder(page, 'sub');
  await expect(row(page, 'two.txt')).toBeVisible();
  await expect(row(page, 'deeper')).toBeVisible();
});

test("a browser upload the server refuses says why on its row, in the server's words", async ({ app: page }) => {
  const upload = (url: URL) => url.pathname === '/_coffer/upload';
  const container = await ownContainer(page, 'refused');
  const other = await ownContainer(page, 'unknown');
  await reloadApp(page);

  // Refused before main took the bytes (here: sent under an id main does not know), the item cannot
  // say why; the row shows the server's answer instead of waiting for ever.
  await openContainer(page, other);
  await page.route(upload, (route) => route.continue({ url: route.request().url().replace(/id=[^&]+/, 'id=not-an-item') }), { times: 1 });
  await dropFiles(page, grid(page), [{ name: 'lost.txt', body: 'lost\n' }]);
  await expect(transferItem(page, 'lost.txt', other)).toContainText('No transfer not-an-item');

  // The container is deleted between the plan and the bytes: main fails the item, and says why.
  await page.goto('/_coffer/');
  await openContainer(page, container);
  await page.route(
    upload,
    async (route) => {
      await rpc(page, 'browse.deleteContainer', { account: 'local', container });
      await route.continue();
    },
    { times: 1 },
  );
  await dropFiles(page, grid(page), [{ name: 'late.txt', body: 'too late\n' }]);
  await expect(transferItem(page, 'late.txt', container)).toContainText('Failed');
  await expect(transferItem(page, 'late.txt', container)).toContainText(`Container ${container} does not exist`);
});
