// Files dropped anywhere in the content area while a folder is shown land in that folder: on the
// title and tabs above it, on the details panel, on the transfers panel, not only on the folder's
// own section; a folder row still takes a drop for itself. Where nothing takes files (the
// sidebar), the drag is refused, so the browser does not open the file in place of the app.
import type { Locator, Page } from '@playwright/test';
import { breadcrumbs, details, expect, openContainer, row, rpc, test } from './support/fixtures.js';
import { SCREENS } from './support/screens.js';
import { dropFiles, md5, objectNames, ownContainer, reloadApp, transferItem, transfersPanel } from './transfers-helpers.js';

const main = (page: Page) => page.getByRole('main', { name: 'Main area' });

/** Starts a drag of one file over an element and leaves it there (no drop). */
async function dragOver(page: Page, target: Locator) {
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'hovering.txt'));
    return dt;
  });
  await target.dispatchEvent('dragover', { dataTransfer });
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('files dropped anywhere in the content area go to the folder shown', async ({ app: page }) => {
      const container = await ownContainer(page, 'anywhere');
      await rpc(page, 'browse.createFolder', { account: 'local', container, prefix: 'inbox/' });
      await rpc(page, 'browse.createFolder', { account: 'local', container, prefix: 'inbox/nested/' });
      await reloadApp(page);
      await openContainer(page, container);
      await row(page, 'inbox').dblclick();
      await expect(breadcrumbs(page).getByRole('button', { name: 'inbox' })).toHaveAttribute('aria-current', 'page');

      // Over the title above the folder: the whole area says it takes the drop, and where to.
      const title = main(page).getByRole('heading', { level: 1 });
      await dragOver(page, title);
      await expect(main(page)).toHaveAttribute('data-drop-over', 'true');
      await expect(main(page).getByRole('status').filter({ hasText: 'Drop files or folders' })).toHaveText(`Drop files or folders to upload them to ${container}/inbox/`);

      const bodies = { 'on-title.txt': 'dropped on the title\n', 'on-tabs.txt': 'on the tabs\n', 'on-details.txt': 'on the details\n', 'on-transfers.txt': 'on the transfers panel\n' };
      await dropFiles(page, title, [{ name: 'on-title.txt', body: bodies['on-title.txt'] }]);
      await expect(main(page)).not.toHaveAttribute('data-drop-over', 'true');
      await expect(transferItem(page, 'inbox/on-title.txt', container)).toContainText('Verified');
      await dropFiles(page, page.getByRole('tab', { name: 'Endpoints and keys' }), [{ name: 'on-tabs.txt', body: bodies['on-tabs.txt'] }]);
      await expect(transferItem(page, 'inbox/on-tabs.txt', container)).toContainText('Verified');
      await dropFiles(page, details(page), [{ name: 'on-details.txt', body: bodies['on-details.txt'] }]);
      await expect(transferItem(page, 'inbox/on-details.txt', container)).toContainText('Verified');
      await dropFiles(page, transfersPanel(page), [{ name: 'on-transfers.txt', body: bodies['on-transfers.txt'] }]);
      await expect(transferItem(page, 'inbox/on-transfers.txt', container)).toContainText('Verified');
      // A folder row still takes the drop for itself.
      await dropFiles(page, row(page, 'nested'), [{ name: 'on-row.txt', body: 'on the row\n' }]);
      await expect(transferItem(page, 'inbox/nested/on-row.txt', container)).toContainText('Verified');

      expect(await objectNames(page, container, 'inbox/')).toEqual(['inbox/', 'inbox/nested/', 'inbox/nested/on-row.txt', 'inbox/on-details.txt', 'inbox/on-tabs.txt', 'inbox/on-title.txt', 'inbox/on-transfers.txt']);
      for (const [name, body] of Object.entries(bodies)) expect((await rpc<{ etag: string }>(page, 'browse.head', { account: 'local', container, name: `inbox/${name}` })).etag).toBe(md5(body));
      await expect(row(page, 'on-title.txt')).toBeVisible();
    });

    test('a drag of files over the sidebar is refused, not left for the browser to open', async ({ app: page }) => {
      const refused = await page.getByRole('navigation', { name: 'Connections' }).evaluate((sidebar) => {
        const dt = new DataTransfer();
        dt.items.add(new File(['x'], 'stray.txt'));
        const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
        sidebar.dispatchEvent(over);
        return { handled: over.defaultPrevented, effect: dt.dropEffect };
      });
      expect(refused).toEqual({ handled: true, effect: 'none' });
    });
  });
}
