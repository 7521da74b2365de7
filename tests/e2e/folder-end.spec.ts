// End, Shift+End and Ctrl+End go to the last object of the folder, not of the rows loaded so far:
// the seeded 25,000-object container is more than the view loads by itself (a page of 1,000 and
// one of 10,000 ahead), so each key press has to load the rest, saying so meanwhile.
import type { Page } from '@playwright/test';
import { expect, grid, openContainer, row, test } from './support/fixtures.js';
import { LONG, LONG_COUNT, longName } from './support/seed-data.js';
import { SCREENS } from './support/screens.js';

const LAST = longName(LONG_COUNT - 1);
const status = (page: Page) => page.getByRole('contentinfo', { name: 'Status bar' });

/** The row the grid's keyboard focus is on (its aria-activedescendant). */
async function focusedLabel(page: Page): Promise<string | null> {
  return grid(page).evaluate((g) => {
    const id = g.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.querySelector('[role="gridcell"]')?.textContent ?? null) : null;
  });
}

async function expectAtLast(page: Page) {
  await expect(row(page, LAST)).toBeInViewport();
  await expect.poll(() => focusedLabel(page)).toBe(LAST);
  await expect(grid(page)).toHaveAttribute('aria-rowcount', String(LONG_COUNT + 1));
  await expect(grid(page)).toHaveAttribute('aria-busy', 'false');
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('End loads the rest of a long folder and selects its last object; another key stops it', async ({ app: page }) => {
      // Pages after the first answer slowly here, so the going can be seen (and interrupted); while
      // `held` is set they wait for its release instead, so the test decides how much is loaded
      // (a loaded machine could otherwise load the whole folder before a key stops the going).
      let held: Promise<void> | undefined;
      let release = () => {};
      const hold = () => {
        const previous = release;
        held = new Promise<void>((r) => (release = r));
        return previous;
      };
      await page.route('**/_coffer/rpc', async (route) => {
        const call = route.request().postDataJSON() as { method: string; arg: { marker?: string } };
        if (call.method === 'browse.listFolder' && call.arg.marker) await (held ?? new Promise((r) => setTimeout(r, 400)));
        await route.continue().catch(() => undefined);
      });
      await openContainer(page, LONG);
      await expect(row(page, longName(0))).toBeVisible();
      await expect(grid(page)).toBeFocused();
      hold();
      await page.keyboard.press('End');
      await expect(grid(page)).toHaveAttribute('aria-busy', 'true');
      await expect(grid(page).getByRole('row').filter({ hasText: /Going to the last entry: [\d,]+ loaded…/ })).toBeInViewport();
      // Up, meanwhile: the user is elsewhere now, and stays there, even when the page the going
      // asked for arrives (released now; pages asked for later wait for the next release).
      await page.keyboard.press('ArrowUp');
      await expect(grid(page)).toHaveAttribute('aria-busy', 'false');
      const there = await focusedLabel(page);
      expect(there).not.toBe(LAST);
      hold()();
      await page.waitForTimeout(1500);
      expect(await focusedLabel(page)).toBe(there);

      // At most one page has arrived since, so the folder's end still has to be loaded.
      await page.keyboard.press('End');
      // A modifier pressed on its own is not a move: the going goes on.
      await page.keyboard.press('Shift');
      await expect(grid(page)).toHaveAttribute('aria-busy', 'true');
      held = undefined;
      release();
      await expectAtLast(page);
      await expect(row(page, LAST)).toHaveAttribute('aria-selected', 'true');
      await expect(status(page)).toContainText(`${LONG_COUNT.toLocaleString('en-US')} items`);
      await expect(status(page)).toContainText('1 selected');
    });

    test('Shift+End selects from the row clicked to the last object of the folder', async ({ app: page }) => {
      await openContainer(page, LONG);
      await row(page, longName(0)).click();
      await page.keyboard.press('Shift+End');
      await expectAtLast(page);
      await expect(status(page)).toContainText(`${LONG_COUNT.toLocaleString('en-US')} selected`);
    });

    test('Ctrl+End moves the focus to the last object and leaves the selection as it was', async ({ app: page }) => {
      await openContainer(page, LONG);
      await row(page, longName(1)).click();
      await page.keyboard.press('ControlOrMeta+End');
      await expectAtLast(page);
      await expect(row(page, LAST)).toHaveAttribute('aria-selected', 'false');
      await expect(status(page)).toContainText('1 selected');
      // The keyboard really is there: Space selects the focused row.
      await page.keyboard.press('Space');
      await expect(row(page, LAST)).toHaveAttribute('aria-selected', 'true');
    });
  });
}
