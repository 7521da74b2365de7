// Bucket lifecycle rules through the AWS SDK v3 and raw requests: the configuration documents and
// their refusals, `x-amz-expiration`, and the sweep acting on the rules (expiration, delete
// markers, noncurrent versions, unfinished uploads). The server's lifecycle "day" is one second
// (RGW's `rgw lc debug interval`); the sweep is run with a clock set days ahead, so nothing waits.
// The sweep covers every bucket of the server: assertions look at their own bucket only.
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketLifecycleCommand,
  DeleteObjectCommand,
  GetBucketLifecycleConfigurationCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectVersionsCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
  type LifecycleRule,
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
afterAll(async () => {
  await s?.close();
});

async function mkBucket(versioned = false): Promise<string> {
  const b = bucketName('lc');
  await c.send(new CreateBucketCommand({ Bucket: b }));
  if (versioned) await c.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
  return b;
}

const putRules = (b: string, Rules: LifecycleRule[]) => c.send(new PutBucketLifecycleConfigurationCommand({ Bucket: b, LifecycleConfiguration: { Rules } }));
const S3NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const doc = (rules: string) => `<LifecycleConfiguration xmlns="${S3NS}">${rules}</LifecycleConfiguration>`;
const putRaw = (b: string, body: string) => raw(s, 'PUT', `/${b}?lifecycle`, { as: ALICE, body, md5: true });
const keys = async (b: string) => {
  const v = await c.send(new ListObjectVersionsCommand({ Bucket: b }));
  return [...(v.Versions ?? []).map((x) => `${x.Key}${x.IsLatest ? '' : ' (old)'}`), ...(v.DeleteMarkers ?? []).map((x) => `${x.Key} (marker)`)].sort();
};

describe('the configuration', () => {
  it('GET without one is NoSuchLifecycleConfiguration; PUT, GET and DELETE round-trip what the SDK sends', async () => {
    const b = await mkBucket();
    expect((await sdkError(c.send(new GetBucketLifecycleConfigurationCommand({ Bucket: b })))).name).toBe('NoSuchLifecycleConfiguration');
    await putRules(b, [
      { ID: 'tmp', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 3 } },
      { ID: 'dated', Status: 'Disabled', Filter: { And: { Prefix: 'logs/' } }, Expiration: { Date: new Date('2030-01-01T00:00:00Z') } },
      { ID: 'old', Status: 'Enabled', Filter: {}, NoncurrentVersionExpiration: { NoncurrentDays: 7, NewerNoncurrentVersions: 2 }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 2 } },
      { ID: 'markers', Status: 'Enabled', Prefix: '', Expiration: { ExpiredObjectDeleteMarker: true } },
    ]);
    const got = await c.send(new GetBucketLifecycleConfigurationCommand({ Bucket: b }));
    expect(got.Rules).toEqual([
      { ID: 'tmp', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 3 } },
      { ID: 'dated', Status: 'Disabled', Filter: { And: { Prefix: 'logs/' } }, Expiration: { Date: new Date('2030-01-01T00:00:00Z') } },
      { ID: 'old', Status: 'Enabled', Filter: {}, NoncurrentVersionExpiration: { NoncurrentDays: 7, NewerNoncurrentVersions: 2 }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 2 } },
      { ID: 'markers', Status: 'Enabled', Prefix: '', Expiration: { ExpiredObjectDeleteMarker: true } },
    ]);
    await c.send(new DeleteBucketLifecycleCommand({ Bucket: b }));
    expect((await sdkError(c.send(new GetBucketLifecycleConfigurationCommand({ Bucket: b })))).name).toBe('NoSuchLifecycleConfiguration');
  });

  it('names a rule sent without an ID', async () => {
    const b = await mkBucket();
    expect((await putRaw(b, doc('<Rule><Filter><Prefix>a/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>'))).status).toBe(200);
    const got = await c.send(new GetBucketLifecycleConfigurationCommand({ Bucket: b }));
    expect(got.Rules?.[0]?.ID).toMatch(/^\S{10,255}$/);
  });

  it('refuses what AWS refuses, with its codes', async () => {
    const b = await mkBucket();
    const rule = (inner: string, id = 'r') => `<Rule><ID>${id}</ID>${inner}</Rule>`;
    const cases: [string, string, number][] = [
      [doc(rule('<Filter/><Status>Enabled</Status><Expiration><Days>0</Days></Expiration>')), 'InvalidArgument', 400],
      [doc(rule('<Filter/><Status>Enabled</Status><Expiration><Date>2030-01-01T12:00:00Z</Date></Expiration>')), 'InvalidArgument', 400],
      [doc(rule('<Filter/><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>-1</NoncurrentDays></NoncurrentVersionExpiration>')), 'InvalidArgument', 400],
      [doc(rule('<Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>') + rule('<Filter/><Status>Enabled</Status><Expiration><Days>2</Days></Expiration>')), 'InvalidArgument', 400],
      [doc(rule('<Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>', 'x'.repeat(256))), 'InvalidArgument', 400],
      [doc(rule('<Filter/><Status>Enabled</Status>')), 'InvalidRequest', 400],
      [doc(rule('<Filter/><Status>Sometimes</Status><Expiration><Days>1</Days></Expiration>')), 'MalformedXML', 400],
      [doc(rule('<Prefix>a</Prefix><Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), 'MalformedXML', 400],
      [doc(rule('<Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), 'MalformedXML', 400],
      [doc(rule('<Filter/><Status>Enabled</Status><Expiration><Days>1</Days><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>')), 'MalformedXML', 400],
      [doc(rule('<Filter/><Status>Enabled</Status><Expiration><Days>soon</Days></Expiration>')), 'MalformedXML', 400],
      [doc(''), 'MalformedXML', 400],
      ['<LifecycleConfiguration>', 'MalformedXML', 400],
      [doc(rule('<Filter><And><Tag><Key>k</Key><Value>v</Value></Tag><Tag><Key>k</Key><Value>w</Value></Tag></And></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), 'InvalidRequest', 400],
      [doc(rule('<Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload>')), 'InvalidRequest', 400],
      [doc(rule('<Filter><Tag><Key>k</Key></Tag></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), 'MalformedXML', 400],
      [doc(rule('<Filter><Tag><Key>k</Key><Value>v</Value></Tag><Prefix>a</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), 'MalformedXML', 400],
      [doc(rule('<Filter><ObjectSizeGreaterThan>-1</ObjectSizeGreaterThan></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), 'MalformedXML', 400],
      [doc(rule('<Filter/><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition>')), 'NotImplemented', 501],
    ];
    for (const [body, code, status] of cases) {
      const r = await putRaw(b, body);
      expect([body, r.status, errorOf(r).Code]).toEqual([body, status, code]);
    }
    // Nothing refused was kept.
    expect((await raw(s, 'GET', `/${b}?lifecycle`, { as: ALICE })).status).toBe(404);
  });

  it('is the bucket owner’s: another user is AccessDenied', async () => {
    const b = await mkBucket();
    const r = await raw(s, 'PUT', `/${b}?lifecycle`, { as: BOB, md5: true, body: doc('<Rule><ID>r</ID><Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>') });
    expect([r.status, errorOf(r).Code]).toEqual([403, 'AccessDenied']);
    expect(errorOf(await raw(s, 'GET', `/${b}?lifecycle`, { as: BOB })).Code).toBe('AccessDenied');
  });
});

describe('x-amz-expiration', () => {
  it('tells the expiry date (a day boundary) and the rule on PUT, HEAD and GET of a covered current version', async () => {
    const b = await mkBucket();
    await putRules(b, [
      { ID: 'tmp rule', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 3 } },
      { ID: 'off', Status: 'Disabled', Filter: { Prefix: '' }, Expiration: { Days: 1 } },
    ]);
    const put = await c.send(new PutObjectCommand({ Bucket: b, Key: 'tmp/a', Body: 'x' }));
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'tmp/a' }));
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'tmp/a' }));
    const expected = Math.ceil((head.LastModified!.getTime() + 3 * DAY) / DAY) * DAY;
    const match = /^expiry-date="([^"]+)", rule-id="([^"]+)"$/.exec(head.Expiration ?? '');
    expect(match?.[2]).toBe('tmp%20rule');
    expect(Math.abs(Date.parse(match![1]!) - expected)).toBeLessThanOrEqual(1000);
    expect([put.Expiration, get.Expiration]).toEqual([head.Expiration, head.Expiration]);
    // Not covered (prefix), or covered only by a disabled rule: no header.
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'keep', Body: 'x' }));
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'keep' }))).Expiration).toBeUndefined();
  });

  it('tells it on CopyObject and CompleteMultipartUpload answers that make a covered object', async () => {
    const b = await mkBucket();
    await putRules(b, [{ ID: 'tmp', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 3 } }]);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'src', Body: 'x' }));
    const copied = await c.send(new CopyObjectCommand({ Bucket: b, Key: 'tmp/copy', CopySource: `${b}/src` }));
    expect(copied.Expiration).toBe((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'tmp/copy' }))).Expiration);
    expect(copied.Expiration).toMatch(/^expiry-date="[^"]+", rule-id="tmp"$/);
    const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'tmp/mp' }));
    const part = await c.send(new UploadPartCommand({ Bucket: b, Key: 'tmp/mp', UploadId, PartNumber: 1, Body: 'only part' }));
    const done = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'tmp/mp', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } }));
    expect(done.Expiration).toBe((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'tmp/mp' }))).Expiration);
    expect(done.Expiration).toMatch(/^expiry-date="[^"]+", rule-id="tmp"$/);
    // A copy outside the rule's prefix says nothing.
    expect((await c.send(new CopyObjectCommand({ Bucket: b, Key: 'kept', CopySource: `${b}/src` }))).Expiration).toBeUndefined();
  });

  it('with a real day: midnight UTC after the days have passed', async () => {
    const real = await startS3Server({ users: [ALICE] });
    try {
      const rc = real.client();
      const b = bucketName('lcday');
      await rc.send(new CreateBucketCommand({ Bucket: b }));
      await rc.send(new PutBucketLifecycleConfigurationCommand({ Bucket: b, LifecycleConfiguration: { Rules: [{ ID: 'r', Status: 'Enabled', Filter: {}, Expiration: { Days: 2 } }] } }));
      await rc.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'x' }));
      const head = await rc.send(new HeadObjectCommand({ Bucket: b, Key: 'k' }));
      const day = 86_400_000;
      const midnight = new Date(Math.ceil((head.LastModified!.getTime() + 2 * day) / day) * day).toUTCString();
      expect(head.Expiration).toBe(`expiry-date="${midnight}", rule-id="r"`);
      expect(midnight).toMatch(/ 00:00:00 GMT$/);
    } finally {
      await real.close();
    }
  });
});

describe('the sweep', () => {
  const later = (days: number) => Date.now() + days * DAY + 5 * DAY;

  it('expires current objects under the prefix once their days have passed, and not before', async () => {
    const b = await mkBucket();
    await putRules(b, [{ ID: 'tmp', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 30 } }]);
    for (const k of ['tmp/a', 'tmp/b', 'keep']) await c.send(new PutObjectCommand({ Bucket: b, Key: k, Body: k }));
    await s.engine.runLifecycle(Date.now());
    expect(await keys(b)).toEqual(['keep', 'tmp/a', 'tmp/b']);
    await s.engine.runLifecycle(later(30));
    expect(await keys(b)).toEqual(['keep']);
  });

  it('in a versioned bucket: a delete marker hides the object, the noncurrent version goes later, then the lone marker', async () => {
    const b = await mkBucket(true);
    await putRules(b, [
      { ID: 'exp', Status: 'Enabled', Filter: {}, Expiration: { Days: 10 } },
      { ID: 'nc', Status: 'Enabled', Filter: {}, NoncurrentVersionExpiration: { NoncurrentDays: 5 } },
      { ID: 'dm', Status: 'Enabled', Filter: {}, Expiration: { ExpiredObjectDeleteMarker: true } },
    ]);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'doc', Body: 'v1' }));
    await s.engine.runLifecycle(later(10));
    expect(await keys(b)).toEqual(['doc (marker)', 'doc (old)']);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'doc' })))).name).toBe('NoSuchKey');
    // The version became noncurrent when the marker was written (now): 5 days on, it goes; then
    // the marker has nothing behind it and goes too.
    await s.engine.runLifecycle(later(5));
    expect(await keys(b)).toEqual([]);
  });

  it('keeps NewerNoncurrentVersions of the newest noncurrent versions', async () => {
    const b = await mkBucket(true);
    await putRules(b, [{ ID: 'nc', Status: 'Enabled', Filter: {}, NoncurrentVersionExpiration: { NoncurrentDays: 1, NewerNoncurrentVersions: 1 } }]);
    for (const body of ['v1', 'v2', 'v3']) await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: body }));
    await s.engine.runLifecycle(later(1));
    const v = await c.send(new ListObjectVersionsCommand({ Bucket: b }));
    expect((v.Versions ?? []).length).toBe(2);
  });

  it('removes a delete marker with no versions behind it, and leaves one that still hides a version', async () => {
    const b = await mkBucket(true);
    await putRules(b, [{ ID: 'dm', Status: 'Enabled', Filter: {}, Expiration: { ExpiredObjectDeleteMarker: true } }]);
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'lone' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'hidden', Body: 'x' }));
    await c.send(new DeleteObjectCommand({ Bucket: b, Key: 'hidden' }));
    await s.engine.runLifecycle(later(1));
    expect(await keys(b)).toEqual(['hidden (marker)', 'hidden (old)']);
  });

  it('aborts unfinished multipart uploads after DaysAfterInitiation', async () => {
    const b = await mkBucket();
    await putRules(b, [{ ID: 'mpu', Status: 'Enabled', Filter: { Prefix: 'up/' }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 2 } }]);
    await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'up/big' }));
    await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'other' }));
    await s.engine.runLifecycle(Date.now());
    expect((await c.send(new ListMultipartUploadsCommand({ Bucket: b }))).Uploads?.length).toBe(2);
    await s.engine.runLifecycle(later(2));
    expect((await c.send(new ListMultipartUploadsCommand({ Bucket: b }))).Uploads?.map((u) => u.Key)).toEqual(['other']);
  });

  it('tag and size filters: an object expires only with every tag of the rule and within its sizes; GET gives the filter back', async () => {
    const b = await mkBucket();
    await putRules(b, [
      { ID: 'one-tag', Status: 'Enabled', Filter: { Tag: { Key: 'temp', Value: 'yes' } }, Expiration: { Days: 1 } },
      { ID: 'both', Status: 'Enabled', Filter: { And: { Prefix: 'logs/', Tags: [{ Key: 'team', Value: 'a' }, { Key: 'tier', Value: '2' }] } }, Expiration: { Days: 1 } },
      { ID: 'big', Status: 'Enabled', Filter: { And: { Prefix: 'big/', ObjectSizeGreaterThan: 10, ObjectSizeLessThan: 100 } }, Expiration: { Days: 1 } },
    ]);
    const put = (Key: string, Tagging?: string, Body = Key) => c.send(new PutObjectCommand({ Bucket: b, Key, Body, Tagging }));
    await put('tagged', 'temp=yes');
    await put('other-value', 'temp=no');
    await put('untagged');
    await put('logs/both', 'team=a&tier=2&extra=1');
    await put('logs/one-of-two', 'team=a');
    await put('big/medium', undefined, 'm'.repeat(50));
    await put('big/small', undefined, 'small');
    await put('big/huge', undefined, 'h'.repeat(200));
    // x-amz-expiration follows the same filter.
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'tagged' }))).Expiration).toMatch(/rule-id="one-tag"/);
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'untagged' }))).Expiration).toBeUndefined();
    await s.engine.runLifecycle(later(1));
    expect(await keys(b)).toEqual(['big/huge', 'big/small', 'logs/one-of-two', 'other-value', 'untagged']);
    const got = await c.send(new GetBucketLifecycleConfigurationCommand({ Bucket: b }));
    expect(got.Rules?.map((r) => [r.ID, r.Filter])).toEqual([
      ['one-tag', { Tag: { Key: 'temp', Value: 'yes' } }],
      ['both', { And: { Prefix: 'logs/', Tags: [{ Key: 'team', Value: 'a' }, { Key: 'tier', Value: '2' }] } }],
      ['big', { And: { Prefix: 'big/', ObjectSizeGreaterThan: 10, ObjectSizeLessThan: 100 } }],
    ]);
  });

  it('a tag filter on noncurrent versions looks at the old version\'s own tags', async () => {
    const b = await mkBucket(true);
    await putRules(b, [{ ID: 'old-scratch', Status: 'Enabled', Filter: { Tag: { Key: 'scratch', Value: '1' } }, NoncurrentVersionExpiration: { NoncurrentDays: 1 } }]);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'a', Body: 'v1', Tagging: 'scratch=1' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'a', Body: 'v2' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'b', Body: 'v1' }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'b', Body: 'v2', Tagging: 'scratch=1' }));
    await s.engine.runLifecycle(later(1));
    expect(await keys(b)).toEqual(['a', 'b', 'b (old)']);
  });

  it('ignores disabled rules and deleted configurations', async () => {
    const b = await mkBucket();
    await putRules(b, [{ ID: 'off', Status: 'Disabled', Filter: {}, Expiration: { Days: 1 } }]);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'k', Body: 'x' }));
    await s.engine.runLifecycle(later(1));
    await putRules(b, [{ ID: 'on', Status: 'Enabled', Filter: {}, Expiration: { Days: 1 } }]);
    await c.send(new DeleteBucketLifecycleCommand({ Bucket: b }));
    await s.engine.runLifecycle(later(1));
    expect(await keys(b)).toEqual(['k']);
  });
});
