// Unfinished multipart uploads: one started with the AWS SDK against the test server's own
// compatible endpoint and never completed shows in the dialog the folder toolbar's "More actions"
// menu opens, and Abort removes it on the server.
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import { expect, openContainer, rpc, test } from './support/fixtures.js';
import { folderActions, ownContainer, reloadApp } from './transfers-helpers.js';

test('an unfinished multipart upload is listed and aborted from the folder toolbar', async ({ app: page }) => {
  const container = await ownContainer(page, 'multipart');
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  const key = user!.keys[0]!;
  const s3 = new S3Client({ endpoint: status.s3Endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: key.accessKey, secretAccessKey: key.secretKey }, maxAttempts: 1 });
  try {
    const started = await s3.send(new CreateMultipartUploadCommand({ Bucket: container, Key: 'half-done.bin' }));
    await s3.send(new UploadPartCommand({ Bucket: container, Key: 'half-done.bin', UploadId: started.UploadId, PartNumber: 1, Body: Buffer.alloc(1024, 1) }));

    await reloadApp(page);
    await openContainer(page, container);
    await folderActions(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu', { name: 'More folder actions' }).getByRole('menuitem', { name: 'Unfinished uploads' }).click();
    const dialog = page.getByRole('dialog', { name: `Unfinished uploads in ${container}` });
    const table = dialog.getByRole('table', { name: 'Unfinished uploads' });
    await expect(table.getByRole('rowheader')).toHaveText(['half-done.bin']);
    await dialog.getByRole('button', { name: 'Abort the upload of half-done.bin' }).click();
    await expect(dialog).toContainText('There are no unfinished uploads.');
    const left = await s3.send(new ListMultipartUploadsCommand({ Bucket: container }));
    expect(left.Uploads ?? []).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(folderActions(page).getByRole('button', { name: 'More actions' })).toBeFocused();
  } finally {
    s3.destroy();
  }
});
