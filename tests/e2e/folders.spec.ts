// The folder view: breadcrumbs, virtual folders, opening and going up with mouse and keyboard,
// pages streaming in as the user scrolls, the server-side prefix filter, sorting.
import type { Page } from '@playwright/test';
import { breadcrumbs, expect, grid, openContainer, row, test } from './support/fixtures.js';
import { ARCHIVE, LONG, LONG_COUNT, longName } from './support/seed-data.js';

const fmt = (n: number) => n.toLocaleString('en-US');
const status = (page: Page) => page.getByRole('contentinfo', { name: 'Status bar' });
const current = (page: Page, name: string) => expect(breadcrumbs(page).getByRole('button', { name, exact: true })).toHaveAttribute('aria-current', 'page');

async function openBigFolder(page: Page) {
  await openContainer(page, ARCHIVE);
  await row(page, 'logs').dblclick();
  await row(page, '2024').dblclick();
  await current(page, '2024');
}

test('opens nested folders by double-click and Enter; breadcrumbs and Backspace go up', async ({ app: page }) => {
  await openContainer(page, ARCHIVE);
  await expect(row(page, 'readme.txt')).toBeVisible();
  await row(page, 'docs').dblclick();
  await current(page, 'docs');
  await expect(row(page, 'readme.md')).toBeVisible();

  await row(page, 'guide').click();
  await page.keyboard.press('Enter');
  await current(page, 'guide');
  await expect(row(page, 'intro.md')).toBeVisible();

  await page.keyboard.press('ArrowDown');
  await expect(row(page, 'advanced')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await current(page, 'advanced');
  await expect(row(page, 'tips.md')).toBeVisible();

  await page.keyboard.press('Backspace');
  await current(page, 'guide');
  await page.keyboard.press('Backspace');
  await current(page, 'docs');

  await breadcrumbs(page).getByRole('button', { name: ARCHIVE, exact: true }).click();
  await current(page, ARCHIVE);
  await expect(row(page, 'photos')).toBeVisible();
  await breadcrumbs(page).getByRole('button', { name: 'Containers' }).click();
  await expect(page.getByRole('table', { name: 'Containers' })).toBeVisible();
});

test('shows the first page at once and loads the rest as the user scrolls', async ({ app: page }) => {
  // 25,000 entries: more than the first page and the one loaded ahead of it.
  await openContainer(page, LONG);
  await expect(row(page, longName(0))).toBeVisible();
  await expect(status(page)).toContainText(/[\d,]+ items loaded, more as you scroll/);
  // Virtualized: only about a screenful of rows exists, not a thousand.
  expect(await grid(page).getByRole('row').count()).toBeLessThan(80);

  const body = grid(page).getByRole('rowgroup').last();
  await body.hover();
  await expect(async () => {
    await page.mouse.wheel(0, 20_000);
    await expect(row(page, longName(LONG_COUNT - 1))).toBeVisible({ timeout: 300 });
  }).toPass({ timeout: 45_000, intervals: [100] });
  await expect(status(page)).toContainText(`${fmt(LONG_COUNT)} items`);
  await expect(status(page)).not.toContainText('more as you scroll');
});

test('filters by name prefix with a server-side listing', async ({ app: page }) => {
  await openBigFolder(page);
  const filter = page.getByRole('searchbox', { name: 'Filter by name prefix' });
  await filter.fill('entry-29');
  // entry-29xx sit on the third page, never loaded here: only a prefix listing shows them at once.
  await expect(row(page, 'entry-2900.log')).toBeVisible();
  await expect(row(page, 'entry-0000.log')).toHaveCount(0);
  await expect(status(page)).toContainText('100 items');
  await grid(page).focus();
  await page.keyboard.press('End');
  await expect(row(page, 'entry-2999.log')).toHaveAttribute('aria-selected', 'true');
  await expect(row(page, 'entry-2999.log')).toBeInViewport();

  await filter.fill('nothing-');
  await expect(page.getByRole('heading', { name: 'Nothing here starts with “nothing-”' })).toBeVisible();
  await filter.clear();
  await expect(row(page, 'entry-0000.log')).toBeVisible();
});

test('sorts by column, and says when only the loaded part is sorted', async ({ app: page }) => {
  await openContainer(page, ARCHIVE);
  await row(page, 'sizes').dblclick();
  const rows = grid(page).getByRole('rowgroup').last().getByRole('row');
  await expect(rows).toHaveText([/^large\.bin/, /^medium\.csv/, /^small\.txt/]);
  const size = grid(page).getByRole('columnheader', { name: 'Size' });
  await size.getByRole('button').click();
  await expect(size).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows).toHaveText([/^small\.txt/, /^medium\.csv/, /^large\.bin/]);
  await size.getByRole('button').click();
  await expect(size).toHaveAttribute('aria-sort', 'descending');
  await expect(rows).toHaveText([/^large\.bin/, /^medium\.csv/, /^small\.txt/]);
  await expect(page.getByRole('note')).toHaveCount(0);

  await breadcrumbs(page).getByRole('button', { name: 'Containers' }).click();
  await openContainer(page, LONG);
  await expect(status(page)).toContainText('items loaded');
  await expect(page.getByRole('note')).toHaveText(/^Sorted within the [\d,]+ items loaded so far; scroll to load the rest\.$/);
  const name = grid(page).getByRole('columnheader', { name: 'Name' });
  await name.getByRole('button').click();
  await expect(name).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('note')).toHaveCount(0);
});
