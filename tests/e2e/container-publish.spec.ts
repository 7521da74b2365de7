// Making a container public asks first (a cancel changes nothing), then shows the address anyone
// reads it at, with a copy button; the address works without credentials, and a public container
// offers it again. Names the S3 API cannot serve are created with a warning that says so.
import type { Page } from '@playwright/test';
import type { LocalStoreStatus } from '../../src-shared/contract/local-store.js';
import { expect, rpc, test } from './support/fixtures.js';
import { containerWith, uniqueName } from './support/browse-helpers.js';
import { expectReadable, LOOKS } from './support/looks.js';
import { ACCOUNT_ID } from './support/seed-data.js';

const containerRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Containers' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

for (const look of LOOKS) {
  test.describe(look.name, () => {
    test.use(look.use);

    test('asks before making a container public, then shows its public URL to copy', async ({ app: page, context, baseURL }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
      const container = await containerWith(page, 'publish', { names: ['readme.txt'] });
      const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
      const expected = `${status.url}/v1/AUTH_${ACCOUNT_ID}/${container}/`;
      const anonymous = () => page.request.get(`${expected}readme.txt`, { failOnStatusCode: false });
      await page.reload();
      const line = containerRow(page, container);

      await line.getByRole('button', { name: `Make ${container} public` }).click();
      const ask = page.getByRole('dialog', { name: `Make ${container} public?` });
      await expect(ask).toContainText(`Anyone who has the address will be able to list and read every object in “${container}”`);
      await expectReadable(ask.getByText(/^Anyone who has the address/));
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await expect(ask).toBeHidden();
      await expect(line.getByRole('cell', { name: /^Private/ })).toBeVisible();
      expect((await anonymous()).status()).toBe(401);

      await line.getByRole('button', { name: `Make ${container} public` }).click();
      await ask.getByRole('button', { name: 'Make public' }).click();
      const done = page.getByRole('dialog', { name: `${container} is public` });
      await expect(done.getByRole('textbox', { name: 'Public URL' })).toHaveValue(expected);
      await done.getByRole('button', { name: 'Copy Public URL' }).click();
      await expect(done.getByRole('status').filter({ hasText: 'Public URL copied' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
      const read = await anonymous();
      expect(read.status()).toBe(200);
      expect(await read.text()).toBe('Hello from Coffer.\n');
      await done.getByRole('button', { name: 'Close' }).click();
      await expect(line.getByRole('cell', { name: /^Public/ })).toBeVisible();

      // Shown again from the row, without another question.
      await line.getByRole('button', { name: `Public URL of ${container}` }).click();
      await expect(page.getByRole('dialog', { name: `${container} is public` }).getByRole('textbox', { name: 'Public URL' })).toHaveValue(expected);
      await page.keyboard.press('Escape');
      await rpc(page, 'browse.setPublic', { account: 'local', container, on: false });
    });

    test('the context menu asks too', async ({ app: page }) => {
      const container = await containerWith(page, 'publish-menu');
      await page.reload();
      await containerRow(page, container).click({ button: 'right' });
      await page.getByRole('menu', { name: `Container ${container}` }).getByRole('menuitem', { name: 'Make public' }).click();
      const ask = page.getByRole('dialog', { name: `Make ${container} public?` });
      await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(ask).toBeHidden();
      const listed = await rpc<{ name: string; public: boolean | null }[]>(page, 'browse.listContainers', { account: 'local' });
      expect(listed.find((c) => c.name === container)?.public).toBe(false);
    });

    test('warns that S3 tools will not reach a container named against the bucket rules, and creates it when asked', async ({ app: page }) => {
      await page.getByRole('button', { name: 'New container' }).click();
      const dialog = page.getByRole('dialog', { name: 'New container' });
      const name = dialog.getByRole('textbox', { name: 'Container name' });
      const warning = dialog.getByRole('status');
      for (const [typed, rule] of [
        ['Bad Name', 'Bucket name may contain lower-case letters'],
        ['UPPER', 'Bucket name may contain lower-case letters'],
        ['a', 'Bucket name must be 3 to 63 characters long'],
        ['my..bucket', 'Bucket name cannot contain ".."'],
        ['192.168.5.4', 'Bucket name cannot look like an IP address'],
      ]) {
        await name.fill(typed!);
        await expect(warning).toContainText(`S3 tools will not reach a container with this name (${rule}`);
        await expect(name).toHaveAccessibleDescription(/S3 tools will not reach/);
      }
      await expectReadable(warning);
      await name.fill('good-name.2024');
      await expect(warning).toBeHidden();
      await expect(name).not.toHaveAccessibleDescription(/S3 tools/);

      // The native API takes the name: it is created, with the warning read first.
      const upper = `UPPER-${uniqueName('s3').toUpperCase()}`;
      await name.fill(upper);
      await expect(warning).toContainText('S3 tools will not reach');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      await expect(containerRow(page, upper)).toBeVisible();
      await rpc(page, 'browse.deleteContainer', { account: 'local', container: upper });
    });
  });
}
