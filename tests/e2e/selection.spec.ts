// Multi-select with mouse and keyboard, and the details panel for what is selected.
import { createHash } from 'node:crypto';
import { details, expect, grid, openContainer, row, test } from './support/fixtures.js';
import { ARCHIVE, README } from './support/seed-data.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const selected = (page: Parameters<typeof row>[0]) => grid(page).getByRole('row', { selected: true });

test('selects with click, Ctrl/Cmd-click and Shift-click, and sums the selection', async ({ app: page }) => {
  await openContainer(page, ARCHIVE);
  await row(page, 'photos').dblclick();
  await row(page, 'cat.jpg').click();
  await expect(selected(page)).toHaveCount(1);
  await expect(row(page, 'cat.jpg')).toHaveAttribute('aria-selected', 'true');
  await expect(details(page)).toContainText('2,048 bytes');
  await expect(details(page)).toContainText('image/jpeg');
  await expect(details(page)).toContainText(md5('c'.repeat(2048)));

  await row(page, 'dog.png').click({ modifiers: ['ControlOrMeta'] });
  await expect(selected(page)).toHaveCount(2);
  await expect(details(page)).toContainText('2 items selected');
  await expect(details(page)).toContainText('2.6 KB');

  await row(page, 'bird.gif').click({ modifiers: ['Shift'] });
  await expect(selected(page)).toHaveCount(3);
  await row(page, 'cat.jpg').click({ modifiers: ['ControlOrMeta'] });
  await expect(selected(page)).toHaveCount(2);
  await expect(row(page, 'cat.jpg')).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByRole('contentinfo', { name: 'Status bar' })).toContainText('2 selected');
});

test('selects with the keyboard: arrows, Shift+arrows, Ctrl/Cmd+A, Escape', async ({ app: page }) => {
  await openContainer(page, ARCHIVE);
  await row(page, 'photos').dblclick();
  await expect(row(page, 'bird.gif')).toBeVisible();
  await grid(page).focus();
  await page.keyboard.press('ArrowDown');
  await expect(row(page, 'bird.gif')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(row(page, 'cat.jpg')).toHaveAttribute('aria-selected', 'true');
  await expect(selected(page)).toHaveCount(1);
  await page.keyboard.press('Shift+ArrowDown');
  await expect(selected(page)).toHaveCount(2);
  await expect(row(page, 'dog.png')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(selected(page)).toHaveCount(1);
  await page.keyboard.press('ControlOrMeta+a');
  await expect(selected(page)).toHaveCount(3);
  await expect(details(page)).toContainText('3 items selected');
  await page.keyboard.press('Escape');
  await expect(selected(page)).toHaveCount(0);
  await expect(details(page)).toContainText('Select an item to see its details.');
});

test('the details panel shows system properties and user metadata', async ({ app: page }, testInfo) => {
  await openContainer(page, ARCHIVE);
  await row(page, README.name).click();
  const panel = details(page);
  const prop = (label: string) => panel.getByRole('table', { name: 'Properties' }).getByRole('row', { name: new RegExp(`^${label} `) }).getByRole('cell');
  await expect(prop('Content type')).toHaveText(README.contentType!);
  await expect(prop('ETag')).toHaveText(md5(README.body));
  await expect(prop('Size')).toContainText(`${README.body.length} bytes`);
  await expect(prop('Last modified')).toHaveText(/\d{4}/);
  await expect(prop('Version ID')).toHaveText('none');
  await expect(prop('Storage class')).toHaveText('STANDARD');
  await expect(prop('Cache-Control')).toHaveText('no-cache');
  const meta = panel.getByRole('table', { name: 'Metadata' });
  await expect(meta.getByRole('row', { name: 'owner ann' })).toBeVisible();
  await expect(meta.getByRole('row', { name: 'project coffer' })).toBeVisible();

  await row(page, 'docs').click();
  await expect(panel).toContainText('Folder');
  await expect(panel).toContainText('docs/');

  // The main window, as a test artifact (and for a human look).
  await row(page, README.name).click();
  await expect(prop('ETag')).toHaveText(md5(README.body));
  const shot = testInfo.outputPath('main-window.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('main window', { path: shot, contentType: 'image/png' });
});
