// The local store panel: endpoints and keys for other tools, with copy buttons and command lines.
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import { expect, rpc, test } from './support/fixtures.js';

test('shows the endpoints, the access key and ready-to-paste command lines', async ({ app: page }) => {
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  const key = user!.keys[0]!;
  const swift = user!.swiftKeys[0]!;
  await page.getByRole('tab', { name: 'Endpoints and keys' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Endpoints and keys' });
  await expect(panel.getByText(status.s3Endpoint, { exact: true })).toBeVisible();
  await expect(panel.getByText(status.nativeAuthUrl, { exact: true })).toBeVisible();
  await expect(panel.getByText(key.accessKey, { exact: true })).toBeVisible();
  await expect(panel.getByText(key.secretKey)).toHaveCount(0);

  const aws = panel.getByRole('group', { name: 'aws command line' });
  await expect(aws).toContainText(`AWS_ACCESS_KEY_ID=${key.accessKey}`);
  await expect(aws).toContainText(`aws --endpoint-url ${status.s3Endpoint} s3 ls`);
  await expect(panel.getByRole('group', { name: 'rclone command line' })).toContainText(`rclone lsd ':s3,provider=Other,access_key_id=${key.accessKey},`);
  await expect(panel.getByRole('group', { name: 'swift command line' })).toContainText(`swift -A ${status.nativeAuthUrl} -U '${swift.user}' -K`);

  await panel.getByRole('checkbox', { name: 'Show secrets' }).check();
  await expect(aws).toContainText(`AWS_SECRET_ACCESS_KEY=${key.secretKey} aws`);
  await expect(panel.getByText(swift.secretKey, { exact: true })).toBeVisible();
});

test('copy buttons put the value on the clipboard', async ({ app: page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  await page.getByRole('tab', { name: 'Endpoints and keys' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Endpoints and keys' });
  await panel.getByRole('button', { name: 'Copy Access key' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Access key copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(user!.keys[0]!.accessKey);
  await panel.getByRole('button', { name: 'Copy aws command line' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`AWS_SECRET_ACCESS_KEY=${user!.keys[0]!.secretKey}`);
  expect(copied).toContain(`--endpoint-url ${status.s3Endpoint}`);
});
