// Addressing details (§15, §0.2) and the error contract (§19) across every error family: explicit
// tenants in the path (`tenant:bucket`, also as %3A), awkward keys in both addressing styles, and
// one sweep checking that every error answer is the §19 XML with both request-id headers.
import { CreateBucketCommand, GetObjectCommand, PutBucketPolicyCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, CAROL, bucketName, errorOf, raw, readAll, send, startWithBucket, type RawResponse, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('addr'));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'obj', Body: 'alice data' }));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'public', Body: 'p', ACL: 'public-read' }));
});
afterAll(async () => {
  await s?.close();
});

describe('explicit tenants', () => {
  it('`tenant:bucket` (and `tenant%3Abucket`) reaches another tenant\'s bucket, subject to its policy', async () => {
    const carol = s.client(CAROL);
    expect((await raw(s, 'GET', `/test:${b}/obj`, { as: CAROL })).status).toBe(403);
    const policy = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${b}/*` }] };
    await c.send(new PutBucketPolicyCommand({ Bucket: b, Policy: JSON.stringify(policy) }));
    expect((await raw(s, 'GET', `/test:${b}/obj`, { as: CAROL })).text).toBe('alice data');
    const encoded = await send(s.port, 'GET', `/test%3A${b}/obj`, { host: `127.0.0.1:${s.port}` });
    expect(encoded.text).toBe('alice data');
    // Without a tenant, Carol's own (empty) namespace is meant.
    expect(errorOf(await raw(s, 'GET', `/${b}/obj`, { as: CAROL })).Code).toBe('NoSuchBucket');
    // Copy from another tenant's bucket names the tenant in x-amz-copy-source.
    const cb = bucketName('carol');
    await carol.send(new CreateBucketCommand({ Bucket: cb }));
    await carol.send(new PutObjectCommand({ Bucket: cb, Key: 'copied', Body: '', ...{} }));
    const copy = await raw(s, 'PUT', `/${cb}/copied`, { as: CAROL, headers: { 'x-amz-copy-source': `test:${b}/obj` } });
    expect(copy.status).toBe(200);
    expect((await readAll((await carol.send(new GetObjectCommand({ Bucket: cb, Key: 'copied' }))).Body)).toString()).toBe('alice data');
  });

  it('refuses to create a bucket in another tenant', async () => {
    const r = await raw(s, 'PUT', `/other:${bucketName('x')}`, { as: ALICE });
    expect([r.status, errorOf(r).Code]).toEqual([403, 'AccessDenied']);
  });
});

describe('awkward keys in both addressing styles', () => {
  const KEYS = ["quote'(paren)*star!", 'semi;colon,comma', 'brackets[]{}', 'a:b@c$d', 'tab\there', 'back\\slash', '%2F-literal', '~tilde/ünï/😀', ' leading space', 'trailing space '];
  it.each(KEYS)('round-trips %j', async (key) => {
    const v = s.vhostClient();
    await c.send(new PutObjectCommand({ Bucket: b, Key: key, Body: key }));
    expect((await readAll((await v.send(new GetObjectCommand({ Bucket: b, Key: key }))).Body)).toString()).toBe(key);
    await v.send(new PutObjectCommand({ Bucket: b, Key: `${key}-v`, Body: key }));
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: `${key}-v` }))).Body)).toString()).toBe(key);
  });
});

describe('every error answer is the §19 document', () => {
  const H = () => `127.0.0.1:${s.port}`;
  const cases: [string, () => Promise<RawResponse>, number, string][] = [
    ['anonymous list', () => raw(s, 'GET', `/${b}`), 403, 'AccessDenied'],
    ['unknown key', () => raw(s, 'GET', '/', { as: { ...ALICE, accessKey: 'UNKNOWNKEY000000000' } }), 403, 'InvalidAccessKeyId'],
    ['bad signature', () => raw(s, 'GET', '/', { as: { ...ALICE, secretKey: 'wrong' } }), 403, 'SignatureDoesNotMatch'],
    ['skew', () => raw(s, 'GET', '/', { as: ALICE, signingDate: new Date(Date.now() - 3600_000) }), 403, 'RequestTimeTooSkewed'],
    ['malformed auth', () => send(s.port, 'GET', '/', { host: H(), authorization: 'AWS4-HMAC-SHA256 nonsense' }), 400, 'AuthorizationHeaderMalformed'],
    ['unsupported auth', () => send(s.port, 'GET', '/', { host: H(), authorization: 'Bearer abc' }), 400, 'InvalidArgument'],
    ['no bucket', () => raw(s, 'GET', `/${bucketName('none')}`, { as: ALICE }), 404, 'NoSuchBucket'],
    ['no key', () => raw(s, 'GET', `/${b}/none`, { as: ALICE }), 404, 'NoSuchKey'],
    ['no upload', () => raw(s, 'GET', `/${b}/k?uploadId=nope`, { as: ALICE }), 404, 'NoSuchUpload'],
    ['no policy', () => raw(s, 'GET', `/${bucketName('none')}?policy`, { as: ALICE }), 404, 'NoSuchBucket'],
    ['range', () => raw(s, 'GET', `/${b}/obj`, { as: ALICE, headers: { range: 'bytes=100-' } }), 416, 'InvalidRange'],
    ['precondition', () => raw(s, 'GET', `/${b}/obj`, { as: ALICE, headers: { 'if-match': '"x"' } }), 412, 'PreconditionFailed'],
    ['method', () => raw(s, 'PATCH', `/${b}`, { as: ALICE }), 405, 'MethodNotAllowed'],
    ['not implemented', () => raw(s, 'PUT', `/${b}?replication`, { as: ALICE, body: '<x/>' }), 501, 'NotImplemented'],
    ['bad uri', () => send(s.port, 'GET', `/${b}/%zz`, { host: H() }), 400, 'InvalidURI'],
    ['malformed xml', () => raw(s, 'POST', `/${b}?delete`, { as: ALICE, body: '<', md5: true }), 400, 'MalformedXML'],
    ['bad argument', () => raw(s, 'GET', `/${b}?max-keys=x`, { as: ALICE }), 400, 'InvalidArgument'],
    // Anonymous reads may not override response headers, even of a public object (§17.1).
    ['response override anonymous', () => raw(s, 'GET', `/${b}/public?response-content-type=x`), 400, 'InvalidRequest'],
  ];

  it.each(cases)('%s', async (_label, run, status, codeName) => {
    const r = await run();
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe('application/xml');
    const e = errorOf(r);
    expect(e.Code).toBe(codeName);
    expect(typeof e.Message).toBe('string');
    expect(e.RequestId).toBe(r.headers['x-amz-request-id']);
    expect(r.headers['x-amz-request-id']).toMatch(/^tx[0-9a-f]+-[0-9a-f]+/);
    expect(r.headers['x-amz-id-2']).toBeTruthy();
    expect(e.HostId).toBeTruthy();
  });

  it('an unexpected failure is a 500 InternalError document, and the server keeps serving', async () => {
    const original = s.engine.listContainers;
    s.engine.listContainers = () => {
      throw new TypeError('simulated bug');
    };
    try {
      const r = await raw(s, 'GET', '/', { as: ALICE });
      expect([r.status, r.headers['content-type'], errorOf(r).Code]).toEqual([500, 'application/xml', 'InternalError']);
      expect(r.text).not.toContain('simulated bug');
    } finally {
      s.engine.listContainers = original;
    }
    expect((await raw(s, 'GET', '/', { as: ALICE })).status).toBe(200);
  });

  it('HEAD errors carry the headers but no body', async () => {
    for (const path of [`/${b}/none`, `/${bucketName('none')}`, `/${b}`]) {
      const r = await raw(s, 'HEAD', path, path === `/${b}` ? {} : { as: ALICE });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.body.length).toBe(0);
      expect(r.headers['x-amz-request-id']).toBeTruthy();
      expect(r.headers['x-amz-id-2']).toBeTruthy();
    }
  });
});
