// The folder view from a 1024 px window up, light and dark: the page never scrolls sideways, the
// tools stay on one line inside the window (icon buttons with tooltips, by mouse and keyboard),
// the filter and every column show whole, a deep path is cut short with the full path at hand,
// and what does not fit (here: a 1024 px window zoomed to 150 %) is in the "More actions" menu.
import type { Locator, Page } from '@playwright/test';
import { containerWith } from './support/browse-helpers.js';
import { breadcrumbs, expect, grid, openContainer, row, rpc, test } from './support/fixtures.js';
import { ARCHIVE } from './support/seed-data.js';
import { SCREENS, type Screen } from './support/screens.js';

const ACTIONS = ['Upload files', 'Upload folder', 'New folder', 'Download…', 'Rename', 'Paste', 'Delete'];
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Folder actions' });
const moreMenu = (page: Page) => page.getByRole('menu', { name: 'More folder actions' });
const tooltip = (page: Page) => page.getByRole('tooltip');

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`${locator.toString()} has no box`);
  return { left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height, width: b.width, height: b.height };
}

/** Wholly inside the window, left to right. */
async function expectInWindow(page: Page, locator: Locator) {
  const b = await box(locator);
  const width = page.viewportSize()!.width;
  expect(b.left, `${locator.toString()} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(b.right, `${locator.toString()} ends inside the window`).toBeLessThanOrEqual(width);
}

async function expectNoSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth, 'the page is no wider than the window').toBeLessThanOrEqual(clientWidth);
}

/** Text shown whole: not cut off by its box (no ellipsis, no clipping). */
async function expectWhole(locator: Locator) {
  const [scroll, client] = await locator.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scroll, `${await locator.textContent()} shows whole`).toBeLessThanOrEqual(client);
}

/** WCAG contrast of an element's text against the first opaque background behind it. */
function contrast(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const rgba = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    let bg = [255, 255, 255];
    for (let e: Element | null = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c[3] ?? 0) > 0) {
        bg = c.slice(0, 3);
        break;
      }
    }
    const lum = (c: number[]) => {
      const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [a, b] = [lum(rgba(getComputedStyle(el).color).slice(0, 3)), lum(bg)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}

async function openBigFolder(page: Page) {
  await openContainer(page, ARCHIVE);
  await row(page, 'logs').dblclick();
  await row(page, '2024').dblclick();
  await expect(breadcrumbs(page).getByRole('button', { name: '2024' })).toHaveAttribute('aria-current', 'page');
  // A selection and something copied, so that every action is enabled.
  await row(page, 'entry-0001.log').click();
  await grid(page).press('ControlOrMeta+c');
}

const AT_1280: Screen = { name: '1280 px, light', viewport: { width: 1280, height: 800 }, colorScheme: 'light' };

for (const screen of [...SCREENS, AT_1280]) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('the folder view fits: tools on one line, the filter and every column whole, no sideways scroll', async ({ app: page }) => {
      await openBigFolder(page);
      await expectNoSidewaysScroll(page);
      const tops = new Set<number>();
      for (const name of ACTIONS) {
        const button = toolbar(page).getByRole('button', { name, exact: true });
        await expect(button).toBeVisible();
        await expect(button).toBeEnabled();
        await expectInWindow(page, button);
        const b = await box(button);
        tops.add(Math.round(b.top));
        expect(b.height, `${name} is one line high`).toBeLessThanOrEqual(36);
      }
      expect([...tops], 'the buttons share one line').toHaveLength(1);
      await expectInWindow(page, toolbar(page).getByRole('button', { name: 'More actions' }));
      // Nothing overflowed at this width: the menu holds only what never has a button.
      await toolbar(page).getByRole('button', { name: 'More actions' }).click();
      await expect(moreMenu(page).getByRole('menuitem')).toHaveText(['Unfinished uploads', 'Versioning…']);
      await page.keyboard.press('Escape');

      const filter = page.getByRole('searchbox', { name: 'Filter by name prefix' });
      await expectInWindow(page, filter);
      expect((await box(filter)).width, 'room to type in the filter').toBeGreaterThanOrEqual(120);
      expect((await box(breadcrumbs(page))).right, 'the breadcrumb ends before the filter').toBeLessThanOrEqual((await box(filter)).left);
      expect((await box(filter)).right, 'the filter ends before the first button').toBeLessThanOrEqual((await box(toolbar(page).getByRole('button', { name: 'Upload files' }))).left);

      // Columns side by side, inside the grid, every cell of a row whole.
      const headers = grid(page).getByRole('columnheader');
      await expect(headers).toHaveText(['Name▲', 'Size', 'Type', 'Last modified']);
      const boxes = await Promise.all((await headers.all()).map(box));
      for (let i = 1; i < boxes.length; i++) expect(boxes[i - 1]!.right, `column ${i} ends before column ${i + 1}`).toBeLessThanOrEqual(boxes[i]!.left);
      expect(boxes.at(-1)!.right).toBeLessThanOrEqual((await box(grid(page))).right);
      expect((await box(grid(page))).right, 'the grid ends where the details begin').toBeLessThanOrEqual((await box(page.getByRole('complementary', { name: 'Details' }))).left + 1);
      for (const cell of await row(page, 'entry-0001.log').getByRole('gridcell').all()) await expectWhole(cell);
      for (const header of await headers.all()) await expectWhole(header.getByRole('button'));
    });

    test('icon buttons have tooltips for the mouse and the keyboard, readable, and the grid is the next Tab stop', async ({ app: page }) => {
      await openBigFolder(page);
      await toolbar(page).getByRole('button', { name: 'Delete' }).hover();
      await expect(tooltip(page)).toHaveText('Delete (Delete)');
      await expectInWindow(page, tooltip(page));
      expect(await contrast(tooltip(page)), 'tooltip contrast').toBeGreaterThanOrEqual(4.5);
      await toolbar(page).getByRole('button', { name: 'More actions' }).hover();
      await expect(tooltip(page)).toHaveText('More actions');
      await expectInWindow(page, tooltip(page));

      // The toolbar is one Tab stop after the filter; arrows move within it; Tab goes on to the grid.
      await page.getByRole('searchbox', { name: 'Filter by name prefix' }).focus();
      await page.keyboard.press('Tab');
      await expect(toolbar(page).getByRole('button', { name: 'Upload files' })).toBeFocused();
      await expect(tooltip(page)).toHaveText('Upload files');
      await page.keyboard.press('ArrowRight');
      await expect(toolbar(page).getByRole('button', { name: 'Upload folder' })).toBeFocused();
      await page.keyboard.press('End');
      await expect(toolbar(page).getByRole('button', { name: 'More actions' })).toBeFocused();
      await page.keyboard.press('ArrowLeft');
      await expect(toolbar(page).getByRole('button', { name: 'Delete' })).toBeFocused();
      await expect(tooltip(page)).toHaveText('Delete (Delete)');
      await page.keyboard.press('Escape');
      await expect(tooltip(page)).toHaveCount(0);
      await page.keyboard.press('Tab');
      await expect(grid(page)).toBeFocused();
      // Back into the toolbar: on the button used last.
      await page.keyboard.press('Shift+Tab');
      await expect(toolbar(page).getByRole('button', { name: 'Delete' })).toBeFocused();
    });

    test('a deep path is cut short above the current folder, which shows whole, with the full path in tooltips', async ({ app: page }) => {
      const levels = ['quarterly-financial-reports', '2024-fourth-quarter', 'drafts-under-review', 'final'];
      const container = await containerWith(page, 'layout-deep-container-with-a-long-name');
      await rpc(page, 'browse.createFolder', { account: 'local', container, prefix: `${levels.join('/')}/` });
      await page.reload();
      await openContainer(page, container);
      for (const level of levels) {
        await row(page, level).dblclick();
        await expect(breadcrumbs(page).getByRole('button', { name: level })).toHaveAttribute('aria-current', 'page');
      }
      await expectNoSidewaysScroll(page);
      const current = breadcrumbs(page).getByRole('button', { name: 'final' });
      await expectWhole(current.locator('span'));
      const trail = await box(breadcrumbs(page));
      for (const crumb of await breadcrumbs(page).getByRole('button').all()) {
        const b = await box(crumb);
        expect(b.right, 'every level inside the breadcrumb').toBeLessThanOrEqual(trail.right + 1);
      }
      const ancestor = breadcrumbs(page).getByRole('button', { name: 'drafts-under-review' });
      await ancestor.hover();
      await expect(tooltip(page)).toHaveText(`${container}/${levels.slice(0, 3).join('/')}/`);
      await expectInWindow(page, tooltip(page));
      await current.hover();
      await expect(tooltip(page)).toHaveText(`${container}/${levels.join('/')}/`);
      await ancestor.click();
      await expect(ancestor).toHaveAttribute('aria-current', 'page');
    });
  });
}

test.describe('1024 px at 150 % zoom, dark', () => {
  // What zooming does to the page: fewer CSS pixels across, more device pixels each.
  test.use({ viewport: { width: 683, height: 512 }, deviceScaleFactor: 1.5, colorScheme: 'dark' });

  test('the buttons that do not fit are in the "More actions" menu, and work from there', async ({ app: page }) => {
    await openBigFolder(page);
    await expectNoSidewaysScroll(page);
    const shown: string[] = [];
    for (const name of ACTIONS) {
      const button = toolbar(page).getByRole('button', { name, exact: true });
      if (await button.isVisible()) {
        shown.push(name);
        await expectInWindow(page, button);
      }
    }
    await expectInWindow(page, page.getByRole('searchbox', { name: 'Filter by name prefix' }));
    // The current folder stays in view, and the columns shown stay apart inside the grid.
    await expectInWindow(page, breadcrumbs(page).getByRole('button', { name: '2024' }));
    const headers = await Promise.all((await grid(page).getByRole('columnheader').all()).map(box));
    for (let i = 1; i < headers.length; i++) expect(headers[i - 1]!.right).toBeLessThanOrEqual(headers[i]!.left);
    expect(headers.at(-1)!.right).toBeLessThanOrEqual((await box(grid(page))).right);
    const more = toolbar(page).getByRole('button', { name: 'More actions' });
    await expectInWindow(page, more);
    await more.click();
    const items = moreMenu(page).getByRole('menuitem');
    const hidden = ACTIONS.filter((a) => !shown.includes(a));
    expect(hidden.length, 'some buttons moved into the menu').toBeGreaterThan(0);
    await expect(items).toHaveText([...hidden, 'Unfinished uploads', 'Versioning…']);
    for (const item of await items.all()) await expectInWindow(page, item);
    expect(await contrast(items.filter({ hasText: 'Unfinished uploads' })), 'menu item contrast').toBeGreaterThanOrEqual(4.5);
    // The last button is the first to go: Delete, from the menu, asks about the selection.
    await items.filter({ hasText: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await expect(dialog.getByRole('listitem')).toHaveText(['entry-0001.log']);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(more).toBeFocused();
  });
});
