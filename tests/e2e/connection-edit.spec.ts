// Editing a saved connection starts from its settings: every field but the secrets is filled in,
// and a secret left empty keeps the saved one, so renaming a connection or changing its region
// or user needs no retyping.
import type { Page } from '@playwright/test';
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import { expect, rpc, test } from './support/fixtures.js';
import { uniqueName } from './support/browse-helpers.js';
import { expectReadable, LOOKS } from './support/looks.js';
import { ARCHIVE } from './support/seed-data.js';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Connections' });
const item = (page: Page, name: string) => sidebar(page).getByRole('button', { name: new RegExp(`^${name}`) });

for (const look of LOOKS) {
  test.describe(look.name, () => {
    test.use(look.use);

    test('fills in all but the secret; an empty key keeps the saved one', async ({ app: page }) => {
      const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
      const users = await rpc<LocalUser[]>(page, 'localStore.users', {});
      const [admin] = users;
      const ann = users.find((u) => u.id === 'team$ann')!;
      const name = uniqueName('edit-swift');
      const { id } = await rpc<{ id: string }>(page, 'accounts.add', {
        name,
        config: { kind: 'swift', authUrl: status.nativeAuthUrl, auth: { type: 'v1', user: admin!.swiftKeys[0]!.user, key: admin!.swiftKeys[0]!.secretKey } },
      });
      try {
        await page.reload();
        await sidebar(page).getByRole('button', { name: `Edit connection ${name}` }).click();
        const edit = page.getByRole('dialog', { name: 'Edit connection' });
        await expect(edit.getByRole('radio', { name: 'Native (Swift)' })).toBeChecked();
        await expect(edit.getByRole('textbox', { name: 'Auth URL' })).toHaveValue(status.nativeAuthUrl);
        await expect(edit.getByRole('combobox', { name: 'Authentication' })).toHaveValue('v1');
        await expect(edit.getByRole('textbox', { name: 'User', exact: true })).toHaveValue(admin!.swiftKeys[0]!.user);
        const key = edit.getByLabel('Key', { exact: true });
        await expect(key).toHaveValue('');
        await expect(key).toHaveAttribute('placeholder', 'Saved (leave empty to keep)');
        await expectReadable(key, { pseudo: '::placeholder' });
        await expectReadable(edit.getByText(/Leave a secret empty to keep the saved one/));

        // With the key left empty, the test and the save use the saved one.
        await edit.getByRole('button', { name: 'Test connection' }).click();
        await expect(edit.getByRole('status')).toContainText(/^Connection works: account coffer\$admin/);
        await edit.getByRole('textbox', { name: 'Connection name' }).fill(`${name}-renamed`);
        await edit.getByRole('textbox', { name: 'Region (optional)' }).fill('RegionOne');
        await edit.getByRole('button', { name: 'Save' }).click();
        await expect(edit).toBeHidden();
        await expect(item(page, `${name}-renamed`)).toContainText('Connected');
        await item(page, `${name}-renamed`).click();
        await expect(page.getByRole('table', { name: 'Containers' }).getByRole('button', { name: ARCHIVE, exact: true })).toBeVisible();

        // Another user with the key left empty: the saved key is not that user's, and the server says so.
        await sidebar(page).getByRole('button', { name: `Edit connection ${name}-renamed` }).click();
        await expect(edit.getByRole('textbox', { name: 'Region (optional)' })).toHaveValue('RegionOne');
        await edit.getByRole('textbox', { name: 'User', exact: true }).fill(ann.swiftKeys[0]!.user);
        await edit.getByRole('button', { name: 'Test connection' }).click();
        await expect(edit.getByRole('alert')).toContainText(/^The server said: .*401/);
        await key.fill(ann.swiftKeys[0]!.secretKey);
        await edit.getByRole('button', { name: 'Test connection' }).click();
        await expect(edit.getByRole('status')).toContainText(/^Connection works: account team\$ann/);
        await edit.getByRole('button', { name: 'Cancel' }).click();
        await expect((await rpc<{ auth: { user: string } }>(page, 'accounts.settings', { id })).auth.user).toBe(admin!.swiftKeys[0]!.user);
      } finally {
        await rpc(page, 'accounts.remove', { id });
      }
    });
  });
}
