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
