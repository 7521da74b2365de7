// Versions as a view of their own, at 1024 px dark and 1400 px light, each test in a container of
// its own: versioning turned on and suspended from the container's menu, deleted objects and
// earlier versions shown in the folder and a deleted object brought back (the delete dialog
// saying first whether that will be possible), and a folder restored to a moment after saying
// what will change.
import type { Page } from '@playwright/test';
import { details, expect, openContainer, row, rpc, test } from './support/fixtures.js';
import { containerWith, flatNames, uniqueName } from './support/browse-helpers.js';
import { expectReadable } from './support/looks.js';
import { SCREENS } from './support/screens.js';

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Folder actions' });
const containerRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Containers' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const status = async (page: Page, container: string) => (await rpc<{ status: string }>(page, 'versions.status', { account: 'local', container })).status;
/** One column of the rows of one name, in order: the type column reads "Deleted", "Earlier version", or the object's type. */
const column = (page: Page, label: string, index: number) => row(page, label).evaluateAll((rows, i) => rows.map((r) => r.querySelectorAll('[role="gridcell"]')[i]?.textContent ?? ''), index);
const TYPE = 2;
const SIZE = 1;

/** A versioned container holding these archive objects. */
async function versionedWith(page: Page, label: string, from: { names?: string[]; prefixes?: string[] }): Promise<string> {
  const container = uniqueName(label);
  await rpc(page, 'browse.createContainer', { account: 'local', container, options: { versioning: true } });
  await rpc(page, 'browse.paste', { from: { account: 'local', container: 'archive', ...from }, to: { account: 'local', container, prefix: '' } });
  return container;
}

/** A new version of `name` with another archive object's bytes (sizes tell the versions apart). */
async function overwrite(page: Page, container: string, name: string, from: string): Promise<void> {
  await rpc(page, 'browse.copy', { from: { account: 'local', container: 'archive', name: from }, to: { account: 'local', container, name } });
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('turns versioning on, then suspends it, from the container menu, saying what each means', async ({ app: page }) => {
      const container = await containerWith(page, 'vswitch', { names: ['readme.txt'] });
      await page.reload();
      const dialog = page.getByRole('dialog', { name: `Versioning of ${container}` });
      const open = async () => {
        await containerRow(page, container).click({ button: 'right' });
        await page.getByRole('menu', { name: `Container ${container}` }).getByRole('menuitem', { name: 'Versioning…' }).click();
        await expect(dialog).toBeVisible();
      };

      await open();
      await expect(dialog.getByRole('status')).toHaveText('Versioning is off: this container has never kept versions.');
      const on = dialog.getByRole('radio', { name: 'On: keep every version' });
      await expect(on).toHaveAccessibleDescription(/deleting an object only hides it behind a delete marker: both can be undone/);
      await expect(dialog.getByRole('radio', { name: 'Off: keep no versions' })).toBeChecked();
      await expect(dialog).toContainText('Once on, versioning can be suspended but never removed');
      await expectReadable(dialog.getByText(/^Replacing an object keeps/));
      await on.check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      expect(await status(page, container)).toBe('enabled');

      await open();
      await expect(dialog.getByRole('status')).toHaveText('Versioning is on.');
      const off = dialog.getByRole('radio', { name: 'Off (suspended): keep no new versions' });
      await expect(off).toHaveAccessibleDescription(/From now on, replacing or deleting an object is final. The versions already kept stay/);
      await off.check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      expect(await status(page, container)).toBe('suspended');
    });

    test('shows deleted objects and earlier versions, and undeletes; the delete dialog says first whether that will be possible', async ({ app: page }) => {
      // Where nothing is kept, the dialog says so.
      const plain = await containerWith(page, 'vplain', { names: ['readme.txt'] });
      const container = await versionedWith(page, 'vdeleted', { names: ['readme.txt', 'sizes/small.txt'] });
      await overwrite(page, container, 'readme.txt', 'photos/dog.png');
      await page.reload();
      await openContainer(page, plain);
      await row(page, 'readme.txt').click();
      await toolbar(page).getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Delete' }).getByRole('paragraph').first()).toHaveText('Delete this item? This cannot be undone.');
      await page.keyboard.press('Escape');
      // A container that keeps no versions has no switch for them.
      await expect(toolbar(page).getByRole('button', { name: 'Show deleted objects' })).toHaveCount(0);

      await page.getByRole('navigation', { name: 'Location' }).getByRole('button', { name: 'Containers' }).click();
      await openContainer(page, container);
      await row(page, 'readme.txt').click();
      await toolbar(page).getByRole('button', { name: 'Delete', exact: true }).click();
      const ask = page.getByRole('dialog', { name: 'Delete' });
      await expect(ask.getByRole('paragraph').first()).toHaveText('Delete this item? It can be brought back: this container keeps versions (show deleted objects, then Undelete).');
      await ask.getByRole('button', { name: 'Delete' }).click();
      await expect(ask).toBeHidden();
      await expect(row(page, 'readme.txt')).toHaveCount(0);

      const showDeleted = toolbar(page).getByRole('button', { name: 'Show deleted objects' });
      await expect(showDeleted).toHaveAttribute('aria-pressed', 'false');
      await showDeleted.click();
      await expect(showDeleted).toHaveAttribute('aria-pressed', 'true');
      // The deleted object (its marker), then its two earlier versions, newest first.
      await expect.poll(() => column(page, 'readme.txt', TYPE)).toEqual(['Deleted', 'Earlier version', 'Earlier version']);
      expect(await column(page, 'readme.txt', SIZE)).toEqual(['', '512 B', '19 B']);
      await expectReadable(row(page, 'readme.txt').first().getByRole('gridcell', { name: 'Deleted' }));
      await expectReadable(row(page, 'readme.txt').nth(1).getByRole('gridcell', { name: 'readme.txt' }));

      await row(page, 'readme.txt').first().click();
      await expect(details(page)).toContainText('Undelete brings back its newest version.');
      await expect(details(page).getByRole('table', { name: 'Versions' }).getByRole('row')).toHaveCount(1 + 3);
      await toolbar(page).getByRole('button', { name: 'Undelete' }).click();
      await expect.poll(() => column(page, 'readme.txt', TYPE)).toEqual(['image/png', 'Earlier version']);
      const head = await rpc<{ size: number }>(page, 'browse.head', { account: 'local', container, name: 'readme.txt' });
      expect(head.size).toBe(512);

      // The earlier version, from its own menu: restored, it becomes the current one again.
      await row(page, 'readme.txt').nth(1).click({ button: 'right' });
      await page.getByRole('menu', { name: 'Actions' }).getByRole('menuitem', { name: 'Restore this version' }).click();
      await expect.poll(() => column(page, 'readme.txt', SIZE)).toEqual(['19 B', '512 B', '19 B']);
      await showDeleted.click();
      await expect(row(page, 'readme.txt')).toHaveCount(1);
      await expect(row(page, 'small.txt')).toBeVisible();
    });

    test('restores a folder to a moment: says first what will change, with counts, then does it', async ({ app: page }) => {
      const container = await versionedWith(page, 'vtime', { names: ['readme.txt'], prefixes: ['docs/'] });
      // The moment: the last write so far, to the next whole second (the field has seconds).
      const listed = await rpc<{ entries: { lastModified?: string }[] }>(page, 'browse.listFolder', { account: 'local', container, delimiter: '', versions: true });
      const last = Math.max(...listed.entries.map((e) => Date.parse(e.lastModified ?? '')));
      const moment = Math.ceil((last + 1) / 1000) * 1000;
      await page.waitForTimeout(Math.max(0, moment + 1100 - Date.now()));
      await overwrite(page, container, 'docs/readme.md', 'photos/cat.jpg');
      await rpc(page, 'browse.delete', { account: 'local', container, names: ['docs/guide/intro.md'] });
      await overwrite(page, container, 'docs/new.gif', 'photos/bird.gif');
      await overwrite(page, container, 'readme.txt', 'photos/dog.png');

      await page.reload();
      await openContainer(page, container);
      await row(page, 'docs').dblclick();
      await toolbar(page).getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menu', { name: 'More folder actions' }).getByRole('menuitem', { name: 'Restore to a moment…' }).click();
      const dialog = page.getByRole('dialog', { name: `Restore ${container}/docs/ to a moment` });
      // The browser runs in UTC (playwright.config.ts): the field's local time is UTC.
      await dialog.getByLabel('Moment (your time zone)').fill(new Date(moment).toISOString().slice(0, 19));
      const plan = dialog.getByRole('list', { name: 'This will:' });
      await expect(plan.getByRole('listitem')).toHaveText([
        'give 1 changed object back the version of then',
        'bring back 1 object deleted since',
        'delete 1 object made since',
        'leave 1 object as it is',
      ]);
      await expect(dialog).toContainText('What it deletes can be brought back: this container keeps versions.');
      await expectReadable(plan.getByRole('listitem').first());
      // Nothing has changed yet.
      expect(await flatNames(page, container, 'docs/')).toEqual(['docs/guide/advanced/tips.md', 'docs/new.gif', 'docs/readme.md']);

      await dialog.getByRole('button', { name: 'Restore' }).click();
      await expect(dialog.getByRole('status')).toHaveText('Done: 1 restored, 1 brought back, 1 deleted.');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      expect(await flatNames(page, container, 'docs/')).toEqual(['docs/guide/advanced/tips.md', 'docs/guide/intro.md', 'docs/readme.md']);
      expect((await rpc<{ size: number }>(page, 'browse.head', { account: 'local', container, name: 'docs/readme.md' })).size).toBe(7);
      // Outside the folder nothing moved.
      expect((await rpc<{ size: number }>(page, 'browse.head', { account: 'local', container, name: 'readme.txt' })).size).toBe(512);
      await expect(row(page, 'new.gif')).toHaveCount(0);
      await expect(row(page, 'guide')).toBeVisible();
    });
  });
}
