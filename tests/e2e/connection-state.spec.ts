// Whether a remote connection works, as the sidebar says it: a wrong key is never "Connected" (it
// showed so while its first listing was under way), and a server that stops is said to be
// unreachable when the window comes back, without a click, and "Connected" again once it is back.
import type { Page } from '@playwright/test';
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import { expect, rpc, test } from './support/fixtures.js';
import { uniqueName } from './support/browse-helpers.js';
import { LOOKS } from './support/looks.js';
import { rpcAt, startOwnServer } from './support/own-server.js';
import { startSlowProxy } from './support/slow-proxy.js';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Connections' });
const item = (page: Page, name: string) => sidebar(page).getByRole('button', { name: new RegExp(`^${name}`) });
/** The user goes to another window and comes back: headless Chromium sends neither event by itself. */
const windowRegainsFocus = (page: Page) =>
  page.evaluate(() => {
    window.dispatchEvent(new Event('blur'));
    window.dispatchEvent(new Event('focus'));
  });

/** Every state the connection's sidebar entry shows from now on, in order (read back with `seen`). */
async function recordStates(page: Page, name: string): Promise<() => Promise<string[]>> {
  await page.evaluate((label) => {
    const seen: string[] = [];
    (window as unknown as { seenStates: string[] }).seenStates = seen;
    const read = () => {
      for (const b of Array.from(document.querySelectorAll('nav[aria-label="Connections"] button'))) {
        if (!b.textContent?.startsWith(label)) continue;
        const state = b.querySelector('.connection-state')?.textContent ?? '';
        if (seen.at(-1) !== state) seen.push(state);
      }
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
    read();
  }, name);
  return () => page.evaluate(() => (window as unknown as { seenStates: string[] }).seenStates);
}

for (const look of LOOKS) {
  test.describe(look.name, () => {
    test.use(look.use);

    test('a wrong key is never shown as "Connected", even while a slow server answers', async ({ app: page }) => {
      const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
      const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
      const target = new URL(status.url);
      // Every request takes a while, as with a cluster far away.
      const proxy = await startSlowProxy({ host: target.hostname, port: Number(target.port) }, 1200);
      const name = uniqueName('wrong-key');
      try {
        await sidebar(page).getByRole('button', { name: 'Add connection' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add connection' });
        await dialog.getByRole('textbox', { name: 'Connection name' }).fill(name);
        await dialog.getByRole('radio', { name: 'Compatible (S3)' }).check();
        await dialog.getByRole('textbox', { name: 'Endpoint' }).fill(proxy.url);
        await dialog.getByRole('textbox', { name: 'Access key' }).fill(user!.keys[0]!.accessKey);
        await dialog.getByLabel('Secret key').fill('not-the-secret');
        const seen = await recordStates(page, name);
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect(dialog).toBeHidden();
        await expect(item(page, name)).toContainText('Connection error');
        await item(page, name).click();
        await expect(page.getByRole('main')).toContainText('The server refused the credentials');
        await expect(page.getByRole('contentinfo', { name: 'Status bar' })).toContainText(`${name}: Connection error`);
        await windowRegainsFocus(page);
        await expect(page.getByRole('region', { name: `Usage of ${name}` })).toContainText('Usage unknown');
        expect(await seen()).not.toContain('Connected');
        expect((await seen()).at(-1)).toBe('Connection error');
      } finally {
        const added = (await rpc<{ id: string; name: string }[]>(page, 'accounts.list', {})).find((c) => c.name === name);
        if (added) await rpc(page, 'accounts.remove', { id: added.id });
        await proxy.close();
      }
    });

    test('a server that stops is "Connection error" when the window comes back, and "Connected" once it is back', async ({ app: page, playwright }) => {
      const remote = await startOwnServer();
      const name = uniqueName('far-store');
      const remoteApi = await playwright.request.newContext();
      try {
        await remoteApi.get(remote.uiUrl);
        const [user] = await rpcAt<LocalUser[]>(remoteApi, remote, 'localStore.users', {});
        const key = user!.keys[0]!;
        const { id } = await rpc<{ id: string }>(page, 'accounts.add', { name, config: { kind: 's3', endpoint: remote.base, accessKeyId: key.accessKey, secretAccessKey: key.secretKey } });
        await page.reload();
        await item(page, name).click();
        await expect(page.getByRole('table', { name: 'Containers' })).toBeVisible();
        await expect(item(page, name)).toContainText('Connected');
        // Back on the local store: nothing of the remote one is on screen to fail.
        await page.getByTestId('store-local').click();

        await remote.stop();
        await windowRegainsFocus(page);
        await expect(item(page, name)).toContainText('Connection error', { timeout: 30_000 });
        await expect(item(page, name)).toHaveAttribute('title', /reach|ECONNREFUSED/i);

        await remote.restart();
        await windowRegainsFocus(page);
        await expect(item(page, name)).toContainText('Connected', { timeout: 30_000 });
        // And at start: checked before anything is clicked.
        await page.reload();
        await expect(item(page, name)).toContainText('Connected');
        await rpc(page, 'accounts.remove', { id });
      } finally {
        await remoteApi.dispose();
        await remote.dispose();
      }
    });
  });
}
