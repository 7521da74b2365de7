// Public / private for one object and time-limited share links (presigned URLs, at most 7 days).
import { details, expect, openContainer, row, rpc, test } from './support/fixtures.js';
import { EDITS } from './support/seed-data.js';

test('makes an object public and private again', async ({ app: page }) => {
  await openContainer(page, EDITS);
  await row(page, 'shared.txt').click();
  const panel = details(page);
  const isPublic = panel.getByRole('table', { name: 'Properties' }).getByRole('row', { name: /^Public / }).getByRole('cell');
  await expect(isPublic).toHaveText('No');
  const sharing = panel.getByRole('region', { name: 'Sharing' });
  await sharing.getByRole('button', { name: 'Make public' }).click();
  await expect(isPublic).toHaveText('Yes');
  const head = () => rpc<{ publicRead: boolean }>(page, 'browse.head', { account: 'local', container: EDITS, name: 'shared.txt' });
  expect((await head()).publicRead).toBe(true);
  await sharing.getByRole('button', { name: 'Make private' }).click();
  await expect(isPublic).toHaveText('No');
  expect((await head()).publicRead).toBe(false);
});

test('creates a share link with a chosen lifetime of at most 7 days', async ({ app: page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await openContainer(page, EDITS);
  await row(page, 'shared.txt').click();
  await details(page).getByRole('region', { name: 'Sharing' }).getByRole('button', { name: 'Copy share link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share link for “shared.txt”' });
  const lifetime = dialog.getByRole('combobox', { name: 'Link lifetime' });
  await expect(lifetime.getByRole('option')).toHaveText(['1 hour', '1 day', '3 days', '7 days (the longest allowed)']);
  await expect(dialog).toContainText('S3 presigned URLs can last at most 7 days');
  await lifetime.selectOption({ label: '7 days (the longest allowed)' });
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = dialog.getByRole('textbox', { name: 'Share link' });
  await expect(url).toHaveValue(/^https?:\/\//);
  await expect(dialog).toContainText(/Expires /);
  const link = await url.inputValue();
  expect(link).toMatch(/604800|temp_url_expires/i);

  // Anyone with the link can read the object, without the app's session.
  const res = await fetch(link);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('shared with the world\n');

  await dialog.getByRole('button', { name: 'Copy link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});
