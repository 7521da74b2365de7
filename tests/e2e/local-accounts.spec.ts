// The local store's several accounts in the app, on a store of this spec's own (choosing an
// account is remembered by the store, which every other spec shares otherwise; and nothing else
// writes there, so only the app's own refresh can show a change): the picker lists them all, the
// containers and the endpoints panel follow the choice, which survives a server restart;
// accounts, keys and quotas are made from the app; quota changes made with the coffer CLI show
// when the window comes back, and those of another client at the next periodic refresh.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { LocalUser } from '../../src-shared/contract/local-store.js';
import { expect, test } from './support/fixtures.js';
import { expectReadable, LOOKS } from './support/looks.js';
import { openApp, rpcAt, startOwnServer, type OwnServer } from './support/own-server.js';
import { ACCOUNT_ID, ARCHIVE, OTHER_ACCOUNTS } from './support/seed-data.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let server: OwnServer;
let counter = 0;

test.beforeAll(async () => {
  server = await startOwnServer();
});
test.afterAll(async () => {
  await server?.dispose();
});

const picker = (page: Page) => page.getByRole('combobox', { name: 'Account' });
const containers = (page: Page) => page.getByRole('table', { name: 'Containers' });
const usage = (page: Page) => page.getByRole('region', { name: 'Usage of Local store' });
const endpoints = async (page: Page) => {
  await page.getByRole('tab', { name: 'Endpoints and keys' }).click();
  return page.getByRole('tabpanel', { name: 'Endpoints and keys' });
};
const users = (page: Page) => rpcAt<LocalUser[]>(page.request, server, 'localStore.users', {});
/** The user goes to another window and comes back: headless Chromium sends neither event by itself. */
const windowRegainsFocus = (page: Page) =>
  page.evaluate(() => {
    window.dispatchEvent(new Event('blur'));
    window.dispatchEvent(new Event('focus'));
  });

for (const look of LOOKS) {
  test.describe(look.name, () => {
    test.use(look.use);
    test.beforeEach(async ({ page }) => {
      await page.request.get(server.uiUrl);
      await rpcAt(page.request, server, 'localStore.chooseAccount', { account: ACCOUNT_ID });
    });

    test('lists every local account; the containers and the endpoints follow the choice, which survives a restart', async ({ page }) => {
      await openApp(page, server);
      await expect(picker(page)).toHaveValue(ACCOUNT_ID);
      // Every account, by id (accounts the other look's run created among them).
      const options = await picker(page).getByRole('option').allTextContents();
      expect(options.filter((o) => !o.includes('e2e-'))).toEqual(['Coffer admin (coffer$admin)', 'Ann (team$ann)', 'Bob (team$bob)', 'Zoe (zoe)']);
      await expect(containers(page).getByRole('button', { name: ARCHIVE, exact: true })).toBeVisible();
      await expectReadable(picker(page));

      const ann = (await users(page)).find((u) => u.id === 'team$ann')!;
      await picker(page).selectOption('team$ann');
      await expect(containers(page).getByRole('rowheader')).toHaveText(Object.keys(OTHER_ACCOUNTS[0].containers).sort());
      await expect(page.getByTestId('store-local')).toHaveAttribute('aria-current', 'page');
      const panel = await endpoints(page);
      await expect(panel.getByRole('heading', { name: 'User Ann' })).toBeVisible();
      await expect(panel.getByText(ann.keys[0]!.accessKey, { exact: true })).toBeVisible();
      await expect(panel.getByText(ann.storageUrl, { exact: true })).toBeVisible();
      await expect(panel.getByRole('heading', { name: 'User Coffer admin' })).toHaveCount(0);
      // The endpoints tab stays while another account is picked.
      await picker(page).selectOption('team$bob');
      await expect(panel.getByRole('heading', { name: 'User Bob' })).toBeVisible();
      await picker(page).selectOption('team$ann');
      await expect(panel.getByRole('heading', { name: 'User Ann' })).toBeVisible();

      await server.restart();
      await openApp(page, server);
      await expect(picker(page)).toHaveValue('team$ann');
      await expect(containers(page).getByRole('button', { name: 'ann-photos', exact: true })).toBeVisible();
      await containers(page).getByRole('button', { name: 'ann-photos', exact: true }).click();
      await expect(page.getByRole('grid', { name: /^Contents of / }).getByRole('gridcell', { name: 'beach.jpg', exact: true })).toBeVisible();
    });

    test('creates an account, switches to it, adds an S3 key and a Swift user, and sets its quota', async ({ page }) => {
      const id = `team$e2e-${Date.now().toString(36)}-${counter++}`;
      await openApp(page, server);
      const panel = await endpoints(page);
      await panel.getByRole('button', { name: 'New account' }).click();
      const dialog = page.getByRole('dialog', { name: 'New account' });
      await expectReadable(dialog.getByText(/^tenant\$name or just name/));
      await dialog.getByRole('textbox', { name: 'Account ID' }).fill('bad tenant$x');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog.getByRole('alert')).toContainText('Invalid tenant name');
      await dialog.getByRole('textbox', { name: 'Account ID' }).fill(id);
      await dialog.getByRole('textbox', { name: 'Display name (optional)' }).fill('Eve');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      await expect(picker(page)).toHaveValue(id);
      await expect(panel.getByRole('heading', { name: 'User Eve' })).toBeVisible();
      await expect(panel.getByRole('button', { name: 'Copy Access key 2' })).toHaveCount(0);
      await panel.getByRole('button', { name: 'Add S3 key' }).click();
      await expect(panel.getByRole('button', { name: 'Copy Access key 2' })).toBeVisible();
      await panel.getByRole('button', { name: 'Add Swift user' }).click();
      const swift = page.getByRole('dialog', { name: 'Add Swift user' });
      await swift.getByRole('textbox', { name: 'Sub-user name' }).fill('backup');
      await swift.getByRole('button', { name: 'Add' }).click();
      await expect(swift).toBeHidden();
      await expect(panel.getByText(`${id}:backup`, { exact: true })).toBeVisible();
      const made = (await users(page)).find((u) => u.id === id)!;
      expect(made.keys).toHaveLength(2);
      expect(made.swiftKeys.map((k) => k.user)).toEqual([`${id}:swift`, `${id}:backup`]);
      await panel.getByRole('button', { name: 'Add Swift user' }).click();
      await swift.getByRole('textbox', { name: 'Sub-user name' }).fill('backup');
      await swift.getByRole('button', { name: 'Add' }).click();
      await expect(swift.getByRole('alert')).toContainText('already exists');
      await swift.getByRole('button', { name: 'Cancel' }).click();

      await panel.getByRole('button', { name: 'Set quota' }).click();
      const quota = page.getByRole('dialog', { name: 'Set quota' });
      await quota.getByRole('textbox', { name: 'Maximum objects' }).fill('5');
      await quota.getByRole('button', { name: 'Save' }).click();
      await expect(quota).toBeHidden();
      await expect(usage(page).getByRole('meter', { name: 'Objects used' })).toHaveAttribute('aria-valuetext', '0 of 5 (0%)');
      expect((await users(page)).find((u) => u.id === id)!.quota.maxObjects).toBe(5);
      await page.getByRole('tab', { name: 'Containers' }).click();
      await expect(page.getByRole('region', { name: 'No containers yet' })).toBeVisible();
    });

    test('sets a container quota from its menu; a quota set with the coffer CLI shows when the window comes back', async ({ page }) => {
      await rpcAt(page.request, server, 'localStore.chooseAccount', { account: 'team$ann' });
      await openApp(page, server);
      const row = containers(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'ann-photos', exact: true }) });
      await row.click({ button: 'right' });
      await page.getByRole('menu', { name: 'Container ann-photos' }).getByRole('menuitem', { name: 'Set quota…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Set quota of ann-photos' });
      await dialog.getByRole('textbox', { name: 'Maximum objects' }).fill('3');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(row.getByRole('meter', { name: 'Objects used of ann-photos' })).toHaveAttribute('aria-valuetext', '2 of 3 (67%)');

      const objects = usage(page).getByRole('meter', { name: 'Objects used' });
      const limit = 40 + counter++;
      await expect(objects).toHaveCount(0);
      execFileSync(process.execPath, ['src-main/bin/coffer.mjs', 'quota', 'set', '--data', server.data, '--uid', 'team$ann', '--max-objects', String(limit)], { cwd: root, stdio: 'pipe', timeout: 30_000 });
      execFileSync(process.execPath, ['src-main/bin/coffer.mjs', 'quota', 'set', '--data', server.data, '--uid', 'team$ann', '--bucket', 'ann-photos', '--max-objects', '-1'], { cwd: root, stdio: 'pipe', timeout: 30_000 });
      await windowRegainsFocus(page);
      // Ann's two objects (ann-photos holds both) against the limit the CLI set.
      await expect(objects).toHaveAttribute('aria-valuetext', `2 of ${limit} (${Math.round((2 / limit) * 100)}%)`);
      await expect(row.getByRole('meter')).toHaveCount(0);
      execFileSync(process.execPath, ['src-main/bin/coffer.mjs', 'quota', 'set', '--data', server.data, '--uid', 'team$ann', '--max-objects', '-1'], { cwd: root, stdio: 'pipe', timeout: 30_000 });
    });

    test('a quota set by another client shows at the next periodic refresh, with the window left alone', async ({ page }) => {
      test.setTimeout(90_000);
      await rpcAt(page.request, server, 'localStore.chooseAccount', { account: 'team$bob' });
      await openApp(page, server);
      const row = containers(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'bob-docs', exact: true }) });
      await expect(row).toBeVisible();
      const limit = 20 + counter++;
      await rpcAt(page.request, server, 'localStore.setQuota', { account: 'team$bob', container: 'bob-docs', maxObjects: limit });
      await rpcAt(page.request, server, 'localStore.setQuota', { account: 'team$bob', maxObjects: limit + 1 });
      // Nothing else happens on this store meanwhile: only the refresh every 30 s can show them.
      await expect(row.getByRole('meter', { name: 'Objects used of bob-docs' })).toHaveAttribute('aria-valuetext', `1 of ${limit} (${Math.round(100 / limit)}%)`, { timeout: 45_000 });
      await expect(usage(page).getByRole('meter', { name: 'Objects used' })).toHaveAttribute('aria-valuetext', `1 of ${limit + 1} (${Math.round(100 / (limit + 1))}%)`);
      await rpcAt(page.request, server, 'localStore.setQuota', { account: 'team$bob', maxObjects: -1 });
    });
  });
}
