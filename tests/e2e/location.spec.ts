// The address bar carries the place (connection, container, folder): Back, Forward, Reload and a
// pasted link work as on any web page, and an open tab and its link survive a server restart.
import type { Page } from '@playwright/test';
import { breadcrumbs, expect, openContainer, row, test, token } from './support/fixtures.js';
import { startOwnServer } from './support/own-server.js';
import { ACCOUNT_ID, ARCHIVE } from './support/seed-data.js';

/** The shown local account's connection id as the address bar writes it (local:coffer$admin). */
const HOME = encodeURIComponent(`local:${ACCOUNT_ID}`);
const current = (page: Page, name: string) => expect(breadcrumbs(page).getByRole('button', { name, exact: true })).toHaveAttribute('aria-current', 'page');
const containers = (page: Page) => page.getByRole('table', { name: 'Containers' });

test('Back, Forward and Reload move through the folders the user opened', async ({ app: page }) => {
  await expect(page).toHaveURL(new RegExp(`/_coffer/#/${HOME}$`));
  await openContainer(page, ARCHIVE);
  await expect(page).toHaveURL(new RegExp(`#/${HOME}/archive/$`));
  await row(page, 'docs').dblclick();
  await current(page, 'docs');
  await row(page, 'guide').dblclick();
  await current(page, 'guide');
  await expect(page).toHaveURL(new RegExp(`#/${HOME}/archive/docs/guide/$`));

  await page.goBack();
  await current(page, 'docs');
  await expect(row(page, 'readme.md')).toBeVisible();
  await page.goBack();
  await current(page, ARCHIVE);
  await page.goBack();
  await expect(containers(page)).toBeVisible();
  await page.goForward();
  await current(page, ARCHIVE);
  await expect(row(page, 'photos')).toBeVisible();

  await row(page, 'photos').dblclick();
  await current(page, 'photos');
  await page.reload();
  await current(page, 'photos');
  await expect(row(page, 'cat.jpg')).toBeVisible();
});

test('a pasted link opens its folder, in the same browser and, with the token, in a new one', async ({ app: page, browser, baseURL }) => {
  const pasted = await page.context().newPage();
  await pasted.goto('/_coffer/#/local/archive/docs/guide/');
  await current(pasted, 'guide');
  await expect(row(pasted, 'intro.md')).toBeVisible();

  // Names that need escaping: a space, '#', '%' and non-ASCII characters.
  const container = `link test #${Date.now().toString(36)}`;
  const folder = 'été 100%/';
  for (const [method, arg] of [
    ['browse.createContainer', { account: 'local', container }],
    ['browse.createFolder', { account: 'local', container, prefix: folder }],
  ] as const) {
    const res = await page.request.post('/_coffer/rpc', { data: { method, arg } });
    expect(await res.json()).toMatchObject({ ok: true });
  }
  await openContainer(page, container);
  await row(page, 'été 100%').dblclick();
  await current(page, 'été 100%');
  const link = page.url();

  // Another browser: no cookie yet, so the printed link with the place after it.
  const fresh = await browser.newContext({ baseURL: baseURL! });
  try {
    const other = await fresh.newPage();
    await other.goto(`/_coffer/?token=${token()}${new URL(link).hash}`);
    await current(other, 'été 100%');
    await expect(other).toHaveURL(link);
  } finally {
    await fresh.close();
  }
});

test('an open tab and the printed link outlive a restart of the server', async ({ browser }) => {
  const server = await startOwnServer();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(server.uiUrl);
    for (const [method, arg] of [
      ['browse.createContainer', { account: 'local', container: 'kept' }],
      ['browse.createFolder', { account: 'local', container: 'kept', prefix: 'inside/' }],
    ] as const) {
      expect(await (await page.request.post(`${server.base}/_coffer/rpc`, { data: { method, arg } })).json()).toMatchObject({ ok: true });
    }
    await openContainer(page, 'kept');
    await row(page, 'inside').dblclick();
    await current(page, 'inside');

    const link = server.uiUrl;
    await server.restart();
    expect(server.uiUrl).toBe(link);
    await page.reload();
    await current(page, 'inside');
    await expect(page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: /Local store/ })).toContainText('Connected');
  } finally {
    await context.close();
    await server.dispose();
  }
});
