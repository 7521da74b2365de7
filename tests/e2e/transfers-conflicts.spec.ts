// Before a batch starts: names that exist are asked about once for the whole batch (skip,
// replace, keep both), and each answer is checked on the server.
import type { Page } from '@playwright/test';
import { expect, grid, openContainer, test } from './support/fixtures.js';
import { dropFiles, head, md5, objectNames, ownContainer, reloadApp, transferItem } from './transfers-helpers.js';

const prompt = (page: Page) => page.getByRole('dialog', { name: 'Some names are taken' });

async function answer(page: Page, choice: 'Replace' | 'Skip' | 'Keep both'): Promise<void> {
  const dialog = prompt(page);
  await expect(dialog).toContainText('2 of the 2 files already exist in');
  await expect(dialog.getByRole('list', { name: 'Names that already exist' }).getByRole('listitem')).toHaveText(['same-x.txt', 'same-y.txt']);
  await dialog.getByRole('radio', { name: new RegExp(`^${choice}`) }).check();
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();
}

test('existing names: asked once per batch, and skip, replace and keep both do what they say', async ({ app: page }) => {
  const container = await ownContainer(page, 'conflict');
  await reloadApp(page);
  await openContainer(page, container);
  const first = [
    { name: 'same-x.txt', body: 'first x\n' },
    { name: 'same-y.txt', body: 'first y\n' },
  ];
  await dropFiles(page, grid(page), first);
  // No conflict: no question.
  await expect(transferItem(page, 'same-y.txt', container)).toContainText('Verified');
  await expect(prompt(page)).toHaveCount(0);

  // Skip: nothing changes.
  await dropFiles(page, grid(page), [
    { name: 'same-x.txt', body: 'second x, skipped\n' },
    { name: 'same-y.txt', body: 'second y, skipped\n' },
  ]);
  await answer(page, 'Skip');
  await expect.poll(() => objectNames(page, container)).toEqual(['same-x.txt', 'same-y.txt']);
  expect((await head(page, container, 'same-x.txt')).etag).toBe(md5(first[0]!.body));

  // Replace: the new bytes take the names.
  const replaced = { name: 'same-x.txt', body: 'third x, replacing\n' };
  await dropFiles(page, grid(page), [replaced, { name: 'same-y.txt', body: 'third y, replacing\n' }]);
  await answer(page, 'Replace');
  await expect.poll(async () => (await head(page, container, 'same-x.txt')).etag).toBe(md5(replaced.body));

  // Keep both: the old objects stay, the new files get new names next to them.
  const kept = [
    { name: 'same-x.txt', body: 'fourth x, kept beside\n' },
    { name: 'same-y.txt', body: 'fourth y, kept beside\n' },
  ];
  await dropFiles(page, grid(page), kept);
  await answer(page, 'Keep both');
  await expect.poll(async () => (await objectNames(page, container)).length).toBe(4);
  const names = await objectNames(page, container);
  expect(names).toEqual(expect.arrayContaining(['same-x.txt', 'same-y.txt']));
  expect((await head(page, container, 'same-x.txt')).etag).toBe(md5(replaced.body));
  const added = names.filter((n) => n !== 'same-x.txt' && n !== 'same-y.txt');
  const addedTags = await Promise.all(added.map(async (n) => (await head(page, container, n)).etag));
  expect(addedTags.sort()).toEqual(kept.map((k) => md5(k.body)).sort());
  for (const n of added) expect(n).toMatch(/^same-[xy].*\.txt$/);
});

test('Cancel on the question starts nothing', async ({ app: page }) => {
  const container = await ownContainer(page, 'noconflict');
  await reloadApp(page);
  await openContainer(page, container);
  const body = 'original\n';
  await dropFiles(page, grid(page), [
    { name: 'cancel-x.txt', body },
    { name: 'cancel-y.txt', body },
  ]);
  await expect(transferItem(page, 'cancel-x.txt', container)).toContainText('Verified');
  await dropFiles(page, grid(page), [
    { name: 'cancel-x.txt', body: 'never sent\n' },
    { name: 'cancel-y.txt', body: 'never sent\n' },
  ]);
  await prompt(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt(page)).toBeHidden();
  expect((await head(page, container, 'cancel-x.txt')).etag).toBe(md5(body));
  expect(await objectNames(page, container)).toEqual(['cancel-x.txt', 'cancel-y.txt']);
});
