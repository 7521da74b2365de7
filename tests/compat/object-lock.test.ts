// S3 Object Lock through @aws-sdk/client-s3 v3 (its own XML, checksums and header parsing) and
// raw signed requests for what the SDK will not send (no Content-MD5, half a header pair): the
// bucket's configuration, a version's retention and legal hold, the deletes they refuse, the
// governance bypass (the owner's, and a policy's), copies and multipart uploads, and the
// lifecycle sweep leaving locked versions alone.
import { createHash } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectLockConfigurationCommand,
  GetObjectRetentionCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectLockConfigurationCommand,
  PutObjectRetentionCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, bucketName, errorOf, raw, sdkError, startS3Server, type S3TestServer } from './server.js';

const DAY = 1000;
let s: S3TestServer;
let c: S3Client;
beforeAll(async () => {
  s = await startS3Server({ engine: { lifecycleDayMs: DAY } });
  c = s.client();
});
afterAll(() => s?.close());

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000);
const md5 = (body: string) => ({ 'content-md5': createHash('md5').update(body).digest('base64') });

async function lockedBucket(label: string): Promise<string> {
  const b = bucketName(label);
  await c.send(new CreateBucketCommand({ Bucket: b, ObjectLockEnabledForBucket: true }));
  return b;
}

async function put(b: string, key: string, extra: Partial<ConstructorParameters<typeof PutObjectCommand>[0]> = {}): Promise<string> {
  return (await c.send(new PutObjectCommand({ Bucket: b, Key: key, Body: 'locked bytes', ...extra }))).VersionId!;
}

describe('bucket configuration', () => {
  it('a bucket made with object lock has versioning on and the lock enabled, without a rule', async () => {
    const b = await lockedBucket('lk-make');
    expect((await c.send(new GetObjectLockConfigurationCommand({ Bucket: b }))).ObjectLockConfiguration).toEqual({ ObjectLockEnabled: 'Enabled' });
    const v = await raw(s, 'GET', `/${b}?versioning`, { as: ALICE });
    expect(v.text).toContain('<Status>Enabled</Status>');
    const suspend = await sdkError(c.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Suspended' } })));
    expect([suspend.status, suspend.name]).toEqual([409, 'InvalidBucketState']);
  });

  it('puts a default retention (Days or Years), reads it back, and replaces it by one without a rule', async () => {
    const b = await lockedBucket('lk-rule');
    const rule = { DefaultRetention: { Mode: 'GOVERNANCE' as const, Days: 3 } };
    await c.send(new PutObjectLockConfigurationCommand({ Bucket: b, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: rule } }));
    expect((await c.send(new GetObjectLockConfigurationCommand({ Bucket: b }))).ObjectLockConfiguration).toEqual({ ObjectLockEnabled: 'Enabled', Rule: rule });
    await c.send(new PutObjectLockConfigurationCommand({ Bucket: b, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Years: 1 } } } }));
    const before = Date.now();
    await put(b, 'k');
    const r = await c.send(new GetObjectRetentionCommand({ Bucket: b, Key: 'k' }));
    expect(r.Retention!.Mode).toBe('COMPLIANCE');
    const until = r.Retention!.RetainUntilDate!.getTime();
    expect(until).toBeGreaterThanOrEqual(before + 365 * 86_400_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 365 * 86_400_000);
    await c.send(new PutObjectLockConfigurationCommand({ Bucket: b, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled' } }));
    expect((await c.send(new GetObjectLockConfigurationCommand({ Bucket: b }))).ObjectLockConfiguration).toEqual({ ObjectLockEnabled: 'Enabled' });
  });

  it('refuses malformed configurations, a period of zero, and a bucket whose versioning is off', async () => {
    const b = await lockedBucket('lk-bad');
    const doc = (inner: string) => `<ObjectLockConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${inner}</ObjectLockConfiguration>`;
    const cases: [string, number, string][] = [
      [doc('<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days><Years>1</Years></DefaultRetention></Rule>'), 400, 'MalformedXML'],
      [doc('<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode></DefaultRetention></Rule>'), 400, 'MalformedXML'],
      [doc('<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>STRICT</Mode><Days>1</Days></DefaultRetention></Rule>'), 400, 'MalformedXML'],
      [doc('<ObjectLockEnabled>Disabled</ObjectLockEnabled>'), 400, 'MalformedXML'],
      [doc('<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>0</Days></DefaultRetention></Rule>'), 400, 'InvalidArgument'],
    ];
    for (const [body, status, code] of cases) {
      const r = await raw(s, 'PUT', `/${b}?object-lock`, { as: ALICE, body, headers: md5(body) });
      expect([r.status, errorOf(r).Code], body).toEqual([status, code]);
    }
    // AWS wants Content-MD5 or a checksum on the document.
    const body = doc('<ObjectLockEnabled>Enabled</ObjectLockEnabled>');
    const bare = await raw(s, 'PUT', `/${b}?object-lock`, { as: ALICE, body });
    expect([bare.status, errorOf(bare).Code]).toEqual([400, 'InvalidRequest']);

    const plain = bucketName('lk-plain');
    await c.send(new CreateBucketCommand({ Bucket: plain }));
    expect((await sdkError(c.send(new GetObjectLockConfigurationCommand({ Bucket: plain })))).name).toBe('ObjectLockConfigurationNotFoundError');
    const off = await sdkError(c.send(new PutObjectLockConfigurationCommand({ Bucket: plain, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled' } })));
    expect([off.status, off.name]).toEqual([409, 'InvalidBucketState']);
    // Versioning enabled: AWS enables object lock on an existing bucket (since 2023).
    await c.send(new PutBucketVersioningCommand({ Bucket: plain, VersioningConfiguration: { Status: 'Enabled' } }));
    await c.send(new PutObjectLockConfigurationCommand({ Bucket: plain, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled' } }));
    expect((await c.send(new GetObjectLockConfigurationCommand({ Bucket: plain }))).ObjectLockConfiguration?.ObjectLockEnabled).toBe('Enabled');
  });
});

describe('a version locked', () => {
  it('by retention: GET and HEAD show it; a delete by id is refused, a delete without one adds a marker', async () => {
    const b = await lockedBucket('lk-ret');
    const until = inDays(2);
    const v = await put(b, 'doc', { ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: until, ObjectLockLegalHoldStatus: 'OFF' });
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'doc' }));
    expect([head.ObjectLockMode, head.ObjectLockRetainUntilDate?.getTime(), head.ObjectLockLegalHoldStatus]).toEqual(['COMPLIANCE', until.getTime(), 'OFF']);
    const got = await c.send(new GetObjectCommand({ Bucket: b, Key: 'doc' }));
    expect(got.ObjectLockMode).toBe('COMPLIANCE');
    await got.Body?.transformToByteArray();
    // A reader without s3:GetObjectRetention / s3:GetObjectLegalHold (anyone, of a public object) reads no lock.
    await c.send(new PutObjectAclCommand({ Bucket: b, Key: 'doc', ACL: 'public-read' }));
    const anonymous = await raw(s, 'HEAD', `/${b}/doc`);
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.headers).filter((h) => h.startsWith('x-amz-object-lock-'))).toEqual([]);

    const denied = await sdkError(c.send(new DeleteObjectCommand({ Bucket: b, Key: 'doc', VersionId: v })));
    expect([denied.status, denied.name]).toEqual([403, 'AccessDenied']);
    const bypassed = await sdkError(c.send(new DeleteObjectCommand({ Bucket: b, Key: 'doc', VersionId: v, BypassGovernanceRetention: true })));
    expect(bypassed.name).toBe('AccessDenied');
    const many = await c.send(new DeleteObjectsCommand({ Bucket: b, Delete: { Objects: [{ Key: 'doc', VersionId: v }] } }));
    expect(many.Errors?.map((e) => [e.Key, e.VersionId, e.Code])).toEqual([['doc', v, 'AccessDenied']]);

    const marker = await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'doc' }));
    expect(marker.DeleteMarker).toBe(true);
    const versions = await c.send(new ListObjectVersionsCommand({ Bucket: b }));
    expect(versions.Versions?.map((x) => x.VersionId)).toEqual([v]);
    // The marker itself is no locked version: it goes.
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'doc', VersionId: marker.VersionId }));
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'doc' }))).VersionId).toBe(v);
  });

  it('governance: extended freely; shortened, removed or deleted only with the bypass', async () => {
    const b = await lockedBucket('lk-gov');
    const v = await put(b, 'g', { ObjectLockMode: 'GOVERNANCE', ObjectLockRetainUntilDate: inDays(2) });
    await c.send(new PutObjectRetentionCommand({ Bucket: b, Key: 'g', VersionId: v, Retention: { Mode: 'GOVERNANCE', RetainUntilDate: inDays(3) } }));
    const shorter = { Bucket: b, Key: 'g', VersionId: v, Retention: { Mode: 'GOVERNANCE' as const, RetainUntilDate: inDays(1) } };
    expect((await sdkError(c.send(new PutObjectRetentionCommand(shorter)))).name).toBe('AccessDenied');
    const strict = { Bucket: b, Key: 'g', VersionId: v, Retention: { Mode: 'COMPLIANCE' as const, RetainUntilDate: inDays(3) } };
    expect((await sdkError(c.send(new PutObjectRetentionCommand(strict)))).name).toBe('AccessDenied');
    await c.send(new PutObjectRetentionCommand({ ...shorter, BypassGovernanceRetention: true }));
    expect((await c.send(new GetObjectRetentionCommand({ Bucket: b, Key: 'g', VersionId: v }))).Retention?.RetainUntilDate?.getTime()).toBe(shorter.Retention.RetainUntilDate.getTime());

    expect((await sdkError(c.send(new DeleteObjectCommand({ Bucket: b, Key: 'g', VersionId: v })))).name).toBe('AccessDenied');
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'g', VersionId: v, BypassGovernanceRetention: true }));
    expect((await c.send(new ListObjectVersionsCommand({ Bucket: b }))).Versions).toBeUndefined();

    // An empty <Retention/> removes it (with the bypass), as AWS documents.
    const w = await put(b, 'h', { ObjectLockMode: 'GOVERNANCE', ObjectLockRetainUntilDate: inDays(2) });
    const body = '<Retention xmlns="http://s3.amazonaws.com/doc/2006-03-01/"></Retention>';
    const refused = await raw(s, 'PUT', `/${b}/h?retention&versionId=${w}`, { as: ALICE, body, headers: md5(body) });
    expect([refused.status, errorOf(refused).Code]).toEqual([403, 'AccessDenied']);
    const removed = await raw(s, 'PUT', `/${b}/h?retention&versionId=${w}`, { as: ALICE, body, headers: { ...md5(body), 'x-amz-bypass-governance-retention': 'true' } });
    expect(removed.status).toBe(200);
    expect((await sdkError(c.send(new GetObjectRetentionCommand({ Bucket: b, Key: 'h' })))).name).toBe('NoSuchObjectLockConfiguration');
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'h', VersionId: w }));
  });

  it('compliance: extended, never shortened nor turned to governance, bypass or not', async () => {
    const b = await lockedBucket('lk-comp');
    const v = await put(b, 'c', { ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: inDays(2) });
    await c.send(new PutObjectRetentionCommand({ Bucket: b, Key: 'c', Retention: { Mode: 'COMPLIANCE', RetainUntilDate: inDays(4) } }));
    for (const Retention of [
      { Mode: 'COMPLIANCE' as const, RetainUntilDate: inDays(3) },
      { Mode: 'GOVERNANCE' as const, RetainUntilDate: inDays(5) },
    ]) {
      const e = await sdkError(c.send(new PutObjectRetentionCommand({ Bucket: b, Key: 'c', VersionId: v, Retention, BypassGovernanceRetention: true })));
      expect([e.status, e.name]).toEqual([403, 'AccessDenied']);
    }
  });

  it('by legal hold: no retention needed, nothing bypasses it, lifting it frees the version', async () => {
    const b = await lockedBucket('lk-hold');
    const v = await put(b, 'held');
    expect((await sdkError(c.send(new GetObjectLegalHoldCommand({ Bucket: b, Key: 'held' })))).name).toBe('NoSuchObjectLockConfiguration');
    await c.send(new PutObjectLegalHoldCommand({ Bucket: b, Key: 'held', LegalHold: { Status: 'ON' } }));
    expect((await c.send(new GetObjectLegalHoldCommand({ Bucket: b, Key: 'held', VersionId: v }))).LegalHold?.Status).toBe('ON');
    expect((await sdkError(c.send(new DeleteObjectCommand({ Bucket: b, Key: 'held', VersionId: v, BypassGovernanceRetention: true })))).name).toBe('AccessDenied');
    await c.send(new PutObjectLegalHoldCommand({ Bucket: b, Key: 'held', VersionId: v, LegalHold: { Status: 'OFF' } }));
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'held' }))).ObjectLockLegalHoldStatus).toBe('OFF');
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'held', VersionId: v }));
  });

  it('a policy may grant the bypass to another account; without it the governance lock holds for them', async () => {
    const b = await lockedBucket('lk-policy');
    const v = await put(b, 'p', { ObjectLockMode: 'GOVERNANCE', ObjectLockRetainUntilDate: inDays(2) });
    const bob = s.client(BOB);
    const policy = (actions: string[]) =>
      JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: [BOB.account] }, Action: actions, Resource: [`arn:aws:s3:::${b}/*`] }] });
    await c.send(new PutBucketPolicyCommand({ Bucket: b, Policy: policy(['s3:DeleteObjectVersion']) }));
    expect((await sdkError(bob.send(new DeleteObjectCommand({ Bucket: b, Key: 'p', VersionId: v, BypassGovernanceRetention: true })))).name).toBe('AccessDenied');
    await c.send(new PutBucketPolicyCommand({ Bucket: b, Policy: policy(['s3:DeleteObjectVersion', 's3:BypassGovernanceRetention']) }));
    await bob.send(new DeleteObjectCommand({ Bucket: b, Key: 'p', VersionId: v, BypassGovernanceRetention: true }));
    expect((await c.send(new ListObjectVersionsCommand({ Bucket: b }))).Versions).toBeUndefined();
  });
});

describe('lock headers on writes', () => {
  it('are refused half-given, in the past, unknown, or on a bucket without object lock', async () => {
    const b = await lockedBucket('lk-hdr');
    const body = 'x';
    const cases: [Record<string, string>, string][] = [
      [{ 'x-amz-object-lock-mode': 'GOVERNANCE' }, 'InvalidArgument'],
      [{ 'x-amz-object-lock-retain-until-date': inDays(1).toISOString() }, 'InvalidArgument'],
      [{ 'x-amz-object-lock-mode': 'GOVERNANCE', 'x-amz-object-lock-retain-until-date': inDays(-1).toISOString() }, 'InvalidArgument'],
      [{ 'x-amz-object-lock-mode': 'STRICT', 'x-amz-object-lock-retain-until-date': inDays(1).toISOString() }, 'InvalidArgument'],
      [{ 'x-amz-object-lock-legal-hold': 'MAYBE' }, 'InvalidArgument'],
    ];
    for (const [headers, code] of cases) {
      const r = await raw(s, 'PUT', `/${b}/k`, { as: ALICE, body, headers: { ...headers, ...md5(body) } });
      expect([r.status, errorOf(r).Code], JSON.stringify(headers)).toEqual([400, code]);
    }
    // Lock headers without Content-MD5 or a checksum: AWS's InvalidRequest.
    const bare = await raw(s, 'PUT', `/${b}/k`, { as: ALICE, body, headers: { 'x-amz-object-lock-legal-hold': 'ON' } });
    expect([bare.status, errorOf(bare).Code, errorOf(bare).Message]).toEqual([400, 'InvalidRequest', 'Content-MD5 OR x-amz-checksum- HTTP header is required for Put Object requests with Object Lock parameters']);
    const plain = bucketName('lk-hdr-plain');
    await c.send(new CreateBucketCommand({ Bucket: plain }));
    const e = await sdkError(c.send(new PutObjectCommand({ Bucket: plain, Key: 'k', Body: body, ObjectLockLegalHoldStatus: 'ON' })));
    expect([e.status, e.name]).toEqual([400, 'InvalidRequest']);
    expect((await sdkError(c.send(new GetObjectRetentionCommand({ Bucket: plain, Key: 'k' })))).name).toBe('InvalidRequest');
  });

  it('a default retention needs Content-MD5 or a checksum on every upload, and the SDK sends one', async () => {
    const b = await lockedBucket('lk-default');
    await c.send(new PutObjectLockConfigurationCommand({ Bucket: b, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 1 } } } }));
    const bare = await raw(s, 'PUT', `/${b}/k`, { as: ALICE, body: 'x' });
    expect([bare.status, errorOf(bare).Code]).toEqual([400, 'InvalidRequest']);
    await put(b, 'k');
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'k' }))).ObjectLockMode).toBe('GOVERNANCE');
  });

  it('CopyObject locks the copy as asked (the source lock is not copied); a multipart upload gets its lock at completion', async () => {
    const b = await lockedBucket('lk-copy');
    await put(b, 'src', { ObjectLockLegalHoldStatus: 'ON' });
    const copied = await c.send(new CopyObjectCommand({ Bucket: b, Key: 'dst', CopySource: `${b}/src`, ObjectLockMode: 'GOVERNANCE', ObjectLockRetainUntilDate: inDays(1) }));
    const dst = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'dst', VersionId: copied.VersionId }));
    expect([dst.ObjectLockMode, dst.ObjectLockLegalHoldStatus]).toEqual(['GOVERNANCE', undefined]);

    const mp = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp', ObjectLockLegalHoldStatus: 'ON' }));
    const part = await c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId: mp.UploadId, PartNumber: 1, Body: 'part one' }));
    const done = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'mp', UploadId: mp.UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } }));
    expect((await c.send(new GetObjectLegalHoldCommand({ Bucket: b, Key: 'mp', VersionId: done.VersionId }))).LegalHold?.Status).toBe('ON');
  });
});

describe('integrity headers and the bypass where they matter', () => {
  it('UploadPart of an upload that will be locked needs Content-MD5 or a checksum (AWS: Put Part), the SDK by default sends one', async () => {
    const b = await lockedBucket('lk-part');
    // An SDK that adds checksums only where the model demands them sends neither on UploadPart.
    const bare = s.client(ALICE, { requestChecksumCalculation: 'WHEN_REQUIRED' });
    const held = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'held', ObjectLockLegalHoldStatus: 'ON' }));
    const e = await sdkError(bare.send(new UploadPartCommand({ Bucket: b, Key: 'held', UploadId: held.UploadId, PartNumber: 1, Body: 'part one' })));
    expect([e.status, e.name, e.message]).toEqual([400, 'InvalidRequest', 'Content-MD5 OR x-amz-checksum- HTTP header is required for Put Part requests with Object Lock parameters']);
    await bare.send(new UploadPartCommand({ Bucket: b, Key: 'held', UploadId: held.UploadId, PartNumber: 1, Body: 'part one', ContentMD5: createHash('md5').update('part one').digest('base64') }));
    await c.send(new UploadPartCommand({ Bucket: b, Key: 'held', UploadId: held.UploadId, PartNumber: 2, Body: 'part two' }));

    // No lock asked and no default retention: nothing will be locked, nothing is required.
    const free = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'free' }));
    await bare.send(new UploadPartCommand({ Bucket: b, Key: 'free', UploadId: free.UploadId, PartNumber: 1, Body: 'part one' }));
    // A default retention locks every upload's object, so every part needs one.
    await c.send(new PutObjectLockConfigurationCommand({ Bucket: b, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 1 } } } }));
    expect((await sdkError(bare.send(new UploadPartCommand({ Bucket: b, Key: 'free', UploadId: free.UploadId, PartNumber: 2, Body: 'part two' })))).name).toBe('InvalidRequest');
    bare.destroy();
  });

  it('x-amz-bypass-governance-retention on a bucket without object lock is refused (AWS: InvalidArgument), and nothing is deleted', async () => {
    const plain = bucketName('lk-nobypass');
    await c.send(new CreateBucketCommand({ Bucket: plain }));
    await c.send(new PutObjectCommand({ Bucket: plain, Key: 'k', Body: 'x' }));
    const e = await sdkError(c.send(new DeleteObjectCommand({ Bucket: plain, Key: 'k', BypassGovernanceRetention: true })));
    expect([e.status, e.name, e.message]).toEqual([400, 'InvalidArgument', 'x-amz-bypass-governance-retention is only applicable to Object Lock enabled buckets.']);
    const many = await sdkError(c.send(new DeleteObjectsCommand({ Bucket: plain, BypassGovernanceRetention: true, Delete: { Objects: [{ Key: 'k' }] } })));
    expect([many.status, many.name]).toEqual([400, 'InvalidArgument']);
    expect((await c.send(new HeadObjectCommand({ Bucket: plain, Key: 'k' }))).ContentLength).toBe(1);
    // Without the header, or with it on a locked bucket, deletes go on as before.
    await c.send(new DeleteObjectCommand({ Bucket: plain, Key: 'k' }));
    const b = await lockedBucket('lk-bypass-ok');
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'absent', BypassGovernanceRetention: true }));
  });
});

describe('lifecycle', () => {
  it('the sweep removes noncurrent versions whose lock ran out and keeps locked ones; expiration still adds a marker', async () => {
    const b = await lockedBucket('lk-lc');
    const locked = await put(b, 'k', { ObjectLockMode: 'GOVERNANCE', ObjectLockRetainUntilDate: inDays(30) });
    const free = await put(b, 'free');
    await put(b, 'k');
    await put(b, 'free');
    await c.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: b,
        LifecycleConfiguration: { Rules: [{ ID: 'r', Status: 'Enabled', Filter: {}, NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Expiration: { Days: 1 } }] },
      }),
    );
    // Days are a second long here (lifecycleDayMs); the sweep is run as of ten "days" later.
    const report = await s.engine.runLifecycle(Date.now() + 10 * DAY);
    expect(report).toMatchObject({ lockedKept: 1, noncurrentRemoved: 1, expired: 2 });
    const left = await c.send(new ListObjectVersionsCommand({ Bucket: b }));
    expect(left.Versions?.map((v) => [v.Key, v.VersionId === locked])).toContainEqual(['k', true]);
    expect(left.Versions?.some((v) => v.VersionId === free)).toBe(false);
    expect(left.DeleteMarkers?.map((m) => m.Key).sort()).toEqual(['free', 'k']);
  });
});
