// A new container with its options in one dialog, at 1024 px dark and 1400 px light: versioning,
// public read and a quota set at once on the local store; what a connection cannot do shown
// disabled with the reason (the local store has no object lock, S3 no bucket quota); and an S3
// server that ignores object lock said so rather than hidden.
import type { Page } from '@playwright/test';
import { expect, rpc, test } from './support/fixtures.js';
import { addS3Connection, uniqueName } from './support/browse-helpers.js';
import { expectReadable } from './support/looks.js';
import { SCREENS } from './support/screens.js';

interface Listed {
  name: string;
  public: boolean | null;
  quota: { maxBytes: number | null; maxObjects: number | null } | null;
}

const containerRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Containers' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

async function openDialog(page: Page) {
  await page.getByRole('button', { name: 'New container' }).click();
  const dialog = page.getByRole('dialog', { name: 'New container' });
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('creates a container with versioning, public read and a quota in one go; object lock is shown disabled with the reason', async ({ app: page }) => {
      const dialog = await openDialog(page);
      const name = uniqueName('options');
      await dialog.getByRole('textbox', { name: 'Container name' }).fill(name);
      const lock = dialog.getByRole('checkbox', { name: 'Object lock (S3)' });
      await expect(lock).toBeDisabled();
      await expect(lock).toHaveAccessibleDescription(/^Not available here: The local store cannot lock objects yet/);
      await expectReadable(dialog.getByText(/^Not available here: The local store/));
      const versioning = dialog.getByRole('checkbox', { name: 'Keep every version (versioning)' });
      await expect(versioning).toHaveAccessibleDescription('Replaced and deleted objects can be brought back; earlier versions count toward quotas.');
      await versioning.check();
      await dialog.getByRole('checkbox', { name: 'Public: anyone can list and read its objects' }).check();
      const quota = dialog.getByRole('group', { name: 'Quota' });
      await quota.getByRole('textbox', { name: 'Size limit' }).fill('5');
      await quota.getByRole('combobox', { name: 'Unit' }).selectOption('MB');
      await quota.getByRole('textbox', { name: 'Object limit' }).fill('100');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();

      await expect(containerRow(page, name).getByRole('cell', { name: /^Public/ })).toBeVisible();
      const listed = (await rpc<Listed[]>(page, 'browse.listContainers', { account: 'local' })).find((c) => c.name === name);
      expect(listed).toMatchObject({ public: true, quota: { maxBytes: 5_000_000, maxObjects: 100 } });
      expect((await rpc<{ status: string }>(page, 'versions.status', { account: 'local', container: name })).status).toBe('enabled');
    });

    test('on an S3 connection the quota is disabled with the reason, and a server that ignores object lock is reported', async ({ app: page }) => {
      const remote = await addS3Connection(page, uniqueName('e2e-create-s3'));
      const name = uniqueName('locked');
      try {
        await page.reload();
        await page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: new RegExp(`^${remote.name}`) }).click();
        const dialog = await openDialog(page);
        const quota = dialog.getByRole('group', { name: 'Quota' });
        await expect(quota.getByRole('textbox', { name: 'Size limit' })).toBeDisabled();
        await expect(quota).toHaveAccessibleDescription(/^Not available here: S3 has no request that sets a bucket quota/);
        await expectReadable(dialog.getByText(/^Not available here: S3 has no request/));
        const lock = dialog.getByRole('checkbox', { name: 'Object lock (S3)' });
        await expect(lock).toBeEnabled();
        await dialog.getByRole('textbox', { name: 'Container name' }).fill(name);
        await lock.check();
        await expect(dialog.getByRole('checkbox', { name: 'Keep every version (versioning)' })).toBeChecked();
        await dialog.getByRole('button', { name: 'Create' }).click();
        // This server (Coffer's own S3 API) makes the bucket without the lock: the dialog says so.
        await expect(dialog.getByRole('alert')).toHaveText(`${name} was created, but without object lock: this server ignored the request`);
        await expectReadable(dialog.getByRole('alert'));
        await page.keyboard.press('Escape');
        await expect(containerRow(page, name)).toBeVisible();
      } finally {
        await rpc(page, 'browse.deleteContainer', { account: remote.id, container: name }).catch(() => undefined);
        await rpc(page, 'accounts.remove', { id: remote.id });
      }
    });
  });
}
