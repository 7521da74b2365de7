// Public and private containers from the containers view: the state as a badge, the toggle,
// and the server agreeing (an anonymous read works once public, and stops once private).
import type { Page } from '@playwright/test';
import type { LocalStoreStatus } from '../../src-shared/contract/local-store.js';
import { expect, rpc, test } from './support/fixtures.js';
import { containerWith } from './support/browse-helpers.js';
import { ACCOUNT_ID } from './support/seed-data.js';

const containerRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Containers' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

test('makes a container public and private again, its badge following', async ({ app: page }) => {
  const container = await containerWith(page, 'pub', { names: ['readme.txt'] });
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const anonymous = () => page.request.get(`${status.url}/swift/v1/AUTH_${encodeURIComponent(ACCOUNT_ID)}/${container}/readme.txt`, { failOnStatusCode: false });
  await page.reload();
  const line = containerRow(page, container);
  await expect(line.getByRole('cell', { name: 'Private' })).toBeVisible();
  expect((await anonymous()).status()).toBe(401);

  await line.getByRole('button', { name: `Make ${container} public` }).click();
  const confirm = page.getByRole('dialog', { name: `Make ${container} public?` });
  await confirm.getByRole('button', { name: 'Make public' }).click();
  await page.getByRole('dialog', { name: `${container} is public` }).getByRole('button', { name: 'Close' }).click();
  await expect(line.getByRole('cell', { name: /^Public/ })).toBeVisible();
  await expect(line.getByRole('button', { name: `Make ${container} public` })).toHaveCount(0);
  const listed = await rpc<{ name: string; public: boolean | null }[]>(page, 'browse.listContainers', { account: 'local' });
  expect(listed.find((c) => c.name === container)?.public).toBe(true);
  const open = await anonymous();
  expect(open.status()).toBe(200);
  expect(await open.text()).toBe('Hello from Coffer.\n');

  await line.getByRole('button', { name: `Make ${container} private` }).click();
  await expect(line.getByRole('cell', { name: /^Private/ })).toBeVisible();
  expect((await anonymous()).status()).toBe(401);
});

test('a container made public behind the app\'s back shows as public after a refresh', async ({ app: page }) => {
  const container = await containerWith(page, 'pub-ext');
  await rpc(page, 'browse.setPublic', { account: 'local', container, on: true });
  await page.reload();
  await expect(containerRow(page, container).getByRole('cell', { name: /^Public/ })).toBeVisible();
});

test('the container\'s context menu makes it public, private and deletes it; the menu key opens it too', async ({ app: page }) => {
  const container = await containerWith(page, 'pub-menu');
  await page.reload();
  const line = containerRow(page, container);
  const menu = page.getByRole('menu', { name: `Container ${container}` });
  await line.click({ button: 'right' });
  await expect(menu.getByRole('menuitem')).toHaveText(['Open', 'Make public', 'Set quota…', 'Versioning…', 'Lifecycle and tags…', 'Delete']);
  await menu.getByRole('menuitem', { name: 'Make public' }).click();
  await page.getByRole('dialog', { name: `Make ${container} public?` }).getByRole('button', { name: 'Make public' }).click();
  await page.getByRole('dialog', { name: `${container} is public` }).getByRole('button', { name: 'Close' }).click();
  await expect(line.getByRole('cell', { name: /^Public/ })).toBeVisible();

  await line.getByRole('button', { name: container, exact: true }).focus();
  await page.keyboard.press('Shift+F10');
  await expect(menu.getByRole('menuitem')).toHaveText(['Open', 'Make private', 'Set quota…', 'Versioning…', 'Lifecycle and tags…', 'Delete']);
  await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(line.getByRole('cell', { name: /^Private/ })).toBeVisible();

  await line.click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete container' });
  await expect(confirm).toContainText(container);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(line).toHaveCount(0);
});
