// A new container with its options in one dialog, at 1024 px dark and 1400 px light: versioning,
// public read and a quota set at once on the local store, and object lock (which keeps versioning
// on for good); what a connection cannot do shown disabled with the reason (S3 no bucket quota);
// and an S3 server that keeps object lock (Coffer's own S3 API) making the bucket with it.
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

    test('creates a container with versioning, public read and a quota in one go', async ({ app: page }) => {
      const dialog = await openDialog(page);
      const name = uniqueName('options');
      await dialog.getByRole('textbox', { name: 'Container name' }).fill(name);
      await expect(dialog.getByRole('checkbox', { name: 'Object lock (S3)' })).toBeEnabled();
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

    test('creates a local container with object lock: versioning comes with it and cannot be suspended', async ({ app: page }) => {
      const dialog = await openDialog(page);
      const name = uniqueName('locked');
      await dialog.getByRole('textbox', { name: 'Container name' }).fill(name);
      await dialog.getByRole('checkbox', { name: 'Object lock (S3)' }).check();
      await expect(dialog.getByRole('checkbox', { name: 'Keep every version (versioning)' })).toBeChecked();
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      await expect(containerRow(page, name)).toBeVisible();
      expect((await rpc<{ status: string }>(page, 'versions.status', { account: 'local', container: name })).status).toBe('enabled');
      const suspend = await rpc(page, 'versions.set', { account: 'local', container: name, on: false }).then(() => 'suspended', (err: Error) => err.message);
      expect(suspend).toMatch(/InvalidBucketState .*Object Lock/);
    });

    test('on an S3 connection the quota is disabled with the reason, and a bucket is made with object lock', async ({ app: page }) => {
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
        // This server (Coffer's own S3 API) keeps object lock: the bucket is made with it, versioned for good.
        await expect(dialog).toBeHidden();
        await expect(containerRow(page, name)).toBeVisible();
        expect((await rpc<{ status: string }>(page, 'versions.status', { account: remote.id, container: name })).status).toBe('enabled');
      } finally {
        await rpc(page, 'browse.deleteContainer', { account: remote.id, container: name }).catch(() => undefined);
        await rpc(page, 'accounts.remove', { id: remote.id });
      }
    });
  });
}
