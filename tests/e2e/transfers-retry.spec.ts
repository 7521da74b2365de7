// A server failing an upload, then Retry: a remote compatible (S3) connection to the test
// server's own endpoint has its secret broken after the batch is planned (while the conflict
// question is open), so the upload itself is refused; with the secret fixed, Retry sends the
// file again from the page and it arrives, verified.
import type { Page } from '@playwright/test';
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import { expect, grid, openContainer, rpc, test } from './support/fixtures.js';
import { dropFiles, head, md5, ownContainer, reloadApp, transferItem } from './transfers-helpers.js';

async function s3Config(page: Page, secret?: string) {
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  const key = user!.keys[0]!;
  return { kind: 's3', endpoint: status.s3Endpoint, accessKeyId: key.accessKey, secretAccessKey: secret ?? key.secretKey, forcePathStyle: true };
}

test('an upload refused by the server fails with its reason, and Retry completes it', async ({ app: page }) => {
  const name = `e2e-xfer-s3-${Date.now().toString(36)}`;
  const connection = await rpc<{ id: string }>(page, 'accounts.add', { name, config: await s3Config(page) });
  try {
    const container = await ownContainer(page, 'retry', connection.id);
    await reloadApp(page);
    await page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await openContainer(page, container);

    await dropFiles(page, grid(page), [{ name: 'flaky.txt', body: 'first\n' }]);
    const items = transferItem(page, 'flaky.txt', container);
    await expect(items.first()).toContainText('Verified');
    // Each row names its connection, not only the container.
    await expect(items.first()).toContainText(`Upload · ${name} · ${container}`);

    const second = 'second, after a failure\n';
    await dropFiles(page, grid(page), [{ name: 'flaky.txt', body: second }]);
    const question = page.getByRole('dialog', { name: 'Some names are taken' });
    await expect(question).toBeVisible();
    await rpc(page, 'accounts.update', { id: connection.id, config: await s3Config(page, 'not-the-secret') });
    await question.getByRole('radio', { name: /^Replace/ }).check();
    await question.getByRole('button', { name: 'Upload' }).click();

    // Newest batch first: the second upload is the first item.
    const item = items.first();
    await expect(item).toContainText('Failed');
    await expect(item).toContainText(/signature|credential|denied|auth/i);
    // A failed upload stored nothing: no full bar, no "6 B of 6 B".
    await expect(item).toContainText(/of 24 B sent, not stored/);
    await expect(item.getByRole('progressbar')).toHaveJSProperty('value', 0);

    await rpc(page, 'accounts.update', { id: connection.id, config: await s3Config(page) });
    await item.getByRole('button', { name: 'Retry flaky.txt' }).click();
    await expect(item).toContainText('Verified');
    expect(await head(page, container, 'flaky.txt', connection.id)).toMatchObject({ size: second.length, etag: md5(second) });
  } finally {
    await rpc(page, 'accounts.remove', { id: connection.id });
  }
});
