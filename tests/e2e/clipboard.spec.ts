// Copy, cut and paste with the keyboard: objects and whole folders, into another container,
// into the same folder ("(copy)" names), onto names already taken (asked, never overwritten
// silently), cut + paste as a move, and a paste into another account (streamed).
import { expect, grid, openContainer, row, rpc, test } from './support/fixtures.js';
import { addS3Connection, backToContainers, containerWith, flatNames, pressInGrid, statusBar, uniqueName } from './support/browse-helpers.js';

test('copies objects and a folder into another container, then asks before overwriting', async ({ app: page }) => {
  const source = await containerWith(page, 'clip-src', { names: ['readme.txt'], prefixes: ['photos/'] });
  const target = await containerWith(page, 'clip-dst');
  await page.reload();
  await openContainer(page, source);
  await row(page, 'readme.txt').click();
  await row(page, 'photos').click({ modifiers: ['ControlOrMeta'] });
  await pressInGrid(page, 'ControlOrMeta+c');
  await expect(statusBar(page)).toContainText('2 items copied');

  await backToContainers(page);
  await openContainer(page, target);
  await expect(page.getByText('This container is empty')).toBeVisible();
  await pressInGrid(page, 'ControlOrMeta+v');
  await expect(page.getByRole('status').filter({ hasText: 'Pasted 4 objects.' })).toBeVisible();
  await expect(row(page, 'readme.txt')).toBeVisible();
  await expect(row(page, 'photos')).toBeVisible();
  expect(await flatNames(page, target)).toEqual(['photos/bird.gif', 'photos/cat.jpg', 'photos/dog.png', 'readme.txt']);
  // The copy is the source's bytes and metadata (server-side copy).
  const copied = await rpc<{ size: number; meta: Record<string, string> }>(page, 'browse.head', { account: 'local', container: target, name: 'readme.txt' });
  expect(copied).toMatchObject({ size: 19, meta: { owner: 'ann', project: 'coffer' } });

  // Again into the same place: both names are taken; Cancel changes nothing.
  await pressInGrid(page, 'ControlOrMeta+v');
  const dialog = page.getByRole('dialog', { name: 'Names already taken' });
  await expect(dialog.getByRole('list', { name: 'Names already taken' }).getByRole('listitem')).toHaveText(['readme.txt', 'photos/']);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await flatNames(page, target)).toHaveLength(4);

  await pressInGrid(page, 'ControlOrMeta+v');
  await dialog.getByRole('button', { name: 'Keep both' }).click();
  await expect(row(page, 'readme (copy).txt')).toBeVisible();
  await expect(row(page, 'photos (copy)')).toBeVisible();
  // The new entries are what is selected afterwards.
  await expect(row(page, 'readme (copy).txt')).toHaveAttribute('aria-selected', 'true');
  expect(await flatNames(page, target, 'photos (copy)/')).toEqual(['photos (copy)/bird.gif', 'photos (copy)/cat.jpg', 'photos (copy)/dog.png']);
});

test('pasting into the folder it came from makes "(copy)" names without asking', async ({ app: page }) => {
  const container = await containerWith(page, 'clip-same', { names: ['readme.txt'], prefixes: ['docs/'] });
  await page.reload();
  await openContainer(page, container);
  await row(page, 'docs').dblclick();
  await row(page, 'guide').click();
  await pressInGrid(page, 'ControlOrMeta+c');
  await pressInGrid(page, 'ControlOrMeta+v');
  await expect(row(page, 'guide (copy)')).toBeVisible();
  await pressInGrid(page, 'ControlOrMeta+v');
  await expect(row(page, 'guide (copy 2)')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await flatNames(page, container, 'docs/guide (copy)/')).toEqual(['docs/guide (copy)/advanced/tips.md', 'docs/guide (copy)/intro.md']);
});

test('cut then paste moves objects and folders, keyboard only', async ({ app: page }) => {
  const container = await containerWith(page, 'clip-cut', { names: ['readme.txt'], prefixes: ['sizes/', 'docs/'] });
  await page.reload();
  await openContainer(page, container);
  await row(page, 'readme.txt').click();
  await row(page, 'sizes').click({ modifiers: ['ControlOrMeta'] });
  await pressInGrid(page, 'ControlOrMeta+x');
  await expect(statusBar(page)).toContainText('2 items cut');
  await row(page, 'docs').dblclick();
  await pressInGrid(page, 'ControlOrMeta+v');
  await expect(page.getByRole('status').filter({ hasText: 'Moved 4 objects.' })).toBeVisible();
  await expect(row(page, 'readme.txt')).toBeVisible();
  await expect(row(page, 'sizes')).toBeVisible();
  // The clipboard is empty after a move: nothing to paste twice.
  await expect(statusBar(page)).not.toContainText('cut');
  expect(await flatNames(page, container)).toEqual([
    'docs/guide/advanced/tips.md',
    'docs/guide/intro.md',
    'docs/readme.md',
    'docs/readme.txt',
    'docs/sizes/large.bin',
    'docs/sizes/medium.csv',
    'docs/sizes/small.txt',
  ]);
  await grid(page).press('Backspace');
  await expect(row(page, 'readme.txt')).toHaveCount(0);
  await expect(row(page, 'sizes')).toHaveCount(0);
});

test('pastes into another account: copied from the local store into a remote S3 connection', async ({ app: page }) => {
  const source = await containerWith(page, 'clip-x-src', { names: ['readme.txt'], prefixes: ['photos/'] });
  const target = await containerWith(page, 'clip-x-dst');
  const remote = await addS3Connection(page, uniqueName('e2e-paste-s3'));
  try {
    await page.reload();
    await openContainer(page, source);
    await row(page, 'readme.txt').click();
    await row(page, 'photos').click({ modifiers: ['ControlOrMeta'] });
    await pressInGrid(page, 'ControlOrMeta+c');

    await page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: new RegExp(`^${remote.name}`) }).click();
    await openContainer(page, target);
    await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Paste' }).click();
    await expect(row(page, 'readme.txt')).toBeVisible();
    await expect(row(page, 'photos')).toBeVisible();
    expect(await flatNames(page, target, '', remote.id)).toEqual(['photos/bird.gif', 'photos/cat.jpg', 'photos/dog.png', 'readme.txt']);
    const copied = await rpc<{ size: number; contentType: string; meta: Record<string, string> }>(page, 'browse.head', { account: remote.id, container: target, name: 'readme.txt' });
    expect(copied).toMatchObject({ size: 19, contentType: 'text/plain', meta: { owner: 'ann', project: 'coffer' } });
  } finally {
    await rpc(page, 'accounts.remove', { id: remote.id });
  }
});
