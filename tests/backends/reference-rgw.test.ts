// The backend contract against real Ceph RGW (Debian's 16.2): its S3 API and its Swift API.
import { expect, it } from 'vitest';
import { describeWith, reference } from '../reference/reference.js';
import { describeBackendContract } from './contract.js';
import { s3Fixture, swiftFixture } from './reference-fixtures.js';

describeBackendContract('real RGW (S3)', async () => {
  const rgw = await reference('rgw');
  return {
    ...(await s3Fixture(rgw.url, rgw.users.tester.accessKey, rgw.users.tester.secretKey)),
    honoursObjectLock: true,
    noPartLayout: 'RGW 16.2 ignores partNumber: a HEAD (or GET) of part N answers the whole object, with no x-amz-mp-parts-count',
  };
}, { needs: 'rgw' });

describeBackendContract('real RGW (Swift API, v1 auth)', async () => {
  const rgw = await reference('rgw');
  return {
    ...(await swiftFixture(rgw.authUrl, rgw.users.tester.swiftUser, rgw.users.tester.swiftKey)),
    noPartLayout: 'RGW 16.2 answers ?multipart-manifest=get with an empty body and no X-Static-Large-Object: no manifest to read',
  };
}, { needs: 'rgw' });

describeWith('rgw', 'RGW Swift API specifics', () => {
  it('names the account after the signed-in user, not the `v1` its storage URL ends with', async () => {
    const rgw = await reference('rgw');
    const f = await swiftFixture(rgw.authUrl, rgw.users.other.swiftUser, rgw.users.other.swiftKey);
    try {
      expect((await f.backend.accountInfo()).id).toBe(rgw.users.other.uid);
    } finally {
      await f.close();
    }
  });
});
