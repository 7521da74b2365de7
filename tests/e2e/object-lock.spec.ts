// An object's S3 Object Lock in the details panel, at 1024 px dark and 1400 px light: a version
// locked through the store's own S3 API (as aws-cli or an SDK would lock it) shows its retention
// mode and date and its legal hold; an object without a lock shows neither. A remote S3
// connection to the same server reads the same lock from its HEAD.
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import { addS3Connection, uniqueName } from './support/browse-helpers.js';
import { details, expect, openContainer, row, rpc, test } from './support/fixtures.js';
import { SCREENS } from './support/screens.js';

interface Head {
  retention?: { mode: string; until: string };
  legalHold?: boolean;
}

const UNTIL = new Date('2099-03-04T05:06:07.000Z');

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('the details panel shows a locked version\'s retention and legal hold', async ({ app: page }) => {
      const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
      const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
      const key = user!.keys[0]!;
      const s3 = new S3Client({ endpoint: status.s3Endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: key.accessKey, secretAccessKey: key.secretKey } });
      const bucket = uniqueName('locked');
      try {
        await s3.send(new CreateBucketCommand({ Bucket: bucket, ObjectLockEnabledForBucket: true }));
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'contract.txt', Body: 'signed', ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: UNTIL, ObjectLockLegalHoldStatus: 'ON' }));
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'notes.txt', Body: 'free' }));
      } finally {
        s3.destroy();
      }
      await page.reload();
      await openContainer(page, bucket);
      await row(page, 'contract.txt').click();
      const props = details(page).getByRole('table', { name: 'Properties' });
      const prop = (label: string) => props.getByRole('row', { name: new RegExp(`^${label} `) }).getByRole('cell');
      await expect(prop('Retention')).toHaveText(/^Compliance mode until .*2099/);
      await expect(prop('Legal hold')).toHaveText('On');

      await row(page, 'notes.txt').click();
      await expect(prop('Name')).toHaveText('notes.txt');
      await expect(props.getByRole('row', { name: /^Retention / })).toHaveCount(0);
      await expect(props.getByRole('row', { name: /^Legal hold / })).toHaveCount(0);

      // The same lock read by a remote S3 connection's HEAD (the remote backend's mapping).
      const remote = await addS3Connection(page, uniqueName('e2e-lock-s3'));
      try {
        const head = await rpc<Head>(page, 'browse.head', { account: remote.id, container: bucket, name: 'contract.txt' });
        expect(head.retention).toEqual({ mode: 'COMPLIANCE', until: UNTIL.toISOString() });
        expect(head.legalHold).toBe(true);
      } finally {
        await rpc(page, 'accounts.remove', { id: remote.id });
      }
    });
  });
}
