// The backend contract against real OpenStack Swift (Debian's 2.30, tempauth, v1 auth).
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWith, reference } from '../reference/reference.js';
import { describeBackendContract, type BackendFixture } from './contract.js';
import { partCases } from './contract-parts.js';
import { containerName, expectCode, sloMaker } from './helpers.js';
import { s3Fixture, swiftFixture, swiftReportContainer, swiftUsageDiagnosis, v1StorageUrl } from './reference-fixtures.js';

const MiB = 1024 * 1024;

describeBackendContract('real Swift (v1 auth)', async () => {
  const swift = await reference('swift');
  const u = swift.users.tester;
  // Account counts come through the container updater, which sweeps every container of the run
  // (minutes under CI's load): the fixture has it report the test's container at once.
  return {
    ...(await swiftFixture(swift.authUrl, `${u.account}:${u.user}`, u.key)),
    usageLagMs: 30_000,
    settleUsage: (c) => swiftReportContainer(`AUTH_${u.account}`, c),
    diagnoseUsage: (c) => swiftUsageDiagnosis(swift.authUrl, u, c),
  };
}, { needs: 'swift' });

describeWith('swift', 'real Swift: large uploads that fail', () => {
  it('a streamed SLO upload that fails part-way leaves no segments behind', async () => {
    const swift = await reference('swift');
    const u = swift.users.tester;
    const f = await swiftFixture(swift.authUrl, `${u.account}:${u.user}`, u.key, { segmentThreshold: MiB, segmentSize: MiB, attempts: 1 });
    try {
      const c = containerName('slo-fail');
      await f.backend.createContainer(c);
      // 6 MiB promised, 3 MiB given, then the source breaks (a browser tab closed mid-upload).
      const source = Readable.from(
        (async function* () {
          for (let i = 0; i < 3; i++) yield randomBytes(MiB);
          throw new Error('the source broke');
        })(),
      );
      await expect(f.backend.upload(c, 'big.bin', { stream: source, size: 6 * MiB })).rejects.toThrow();
      expect(await f.pendingUploads!(c)).toBe(0);
      await expectCode(f.backend.head(c, 'big.bin'), 'NoSuchKey');
    } finally {
      await f.close();
    }
  });
});

describeWith('swift', 'real Swift: small files sent from memory', () => {
  it('stores bytes with their MD5 under a new name in one PUT, and refuses bytes that are not what the MD5 says (nothing stored)', async () => {
    const swift = await reference('swift');
    const u = swift.users.tester;
    const f = await swiftFixture(swift.authUrl, `${u.account}:${u.user}`, u.key);
    try {
      const c = containerName('in-memory');
      await f.backend.createContainer(c);
      const bytes = randomBytes(5000);
      const md5 = createHash('md5').update(bytes).digest('hex');
      const unread = new Readable({ read: () => unread.destroy(new Error('the stream was read')) });
      // New names, as an upload batch's plan knows them: one PUT each, no HEAD first.
      expect(await f.backend.upload(c, 'kept.bin', { stream: unread, size: bytes.length, bytes }, { md5, absent: true })).toMatchObject({ size: bytes.length, etag: md5 });
      expect((await f.backend.head(c, 'kept.bin')).etag).toBe(md5);
      const other = createHash('md5').update(randomBytes(5000)).digest('hex');
      await expectCode(f.backend.upload(c, 'damaged.bin', { stream: Readable.from([]), size: bytes.length, bytes }, { md5: other, absent: true }), 'BadDigest');
      await expectCode(f.backend.head(c, 'damaged.bin'), 'NoSuchKey');
    } finally {
      await f.close();
    }
  });
});

// Swift's S3 API (s3api) as the S3 backend sees it: a multipart upload's parts and an SLO made
// over the Swift API (s3api shows an SLO as a multipart object: its ETag ends in -N).
describeWith('swift', "real Swift's s3api: parts of large objects", () => {
  let fixture: BackendFixture | undefined;
  beforeAll(async () => {
    const swift = await reference('swift');
    const u = swift.users.tester;
    const { storageUrl, token } = await v1StorageUrl(swift.authUrl, `${u.account}:${u.user}`, u.key);
    fixture = {
      ...(await s3Fixture(swift.url, `${u.account}:${u.user}`, u.key)),
      putSlo: sloMaker(storageUrl, token),
      noPartLayout: "Swift 2.30's s3api answers ?partNumber with 405 MethodNotAllowed (HEAD and GET)",
    };
  });
  afterAll(() => fixture?.close());
  partCases(() => fixture!);
});
