// Bucket CORS through the AWS SDK v3, and browsers' side of it through fetch (undici): the
// configuration and its refusals, preflights (200 with what the matching rule allows, 403
// otherwise, presigned URL or not), and the grant on actual cross-origin requests.
import { CreateBucketCommand, DeleteBucketCorsCommand, GetBucketCorsCommand, GetObjectCommand, PutBucketCorsCommand, PutObjectCommand, type CORSRule, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, bucketName, errorOf, parseXml, raw, sdkError, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
beforeAll(async () => {
  s = await startS3Server();
  c = s.client();
});
afterAll(async () => {
  await s?.close();
});

const RULES: CORSRule[] = [
  { ID: 'app', AllowedOrigins: ['https://app.example.com', 'https://*.example.org'], AllowedMethods: ['GET', 'PUT'], AllowedHeaders: ['content-type', 'x-amz-*'], ExposeHeaders: ['ETag', 'x-amz-version-id'], MaxAgeSeconds: 600 },
  { AllowedOrigins: ['*'], AllowedMethods: ['GET', 'HEAD'] },
];

async function corsBucket(rules: CORSRule[] | null = RULES): Promise<string> {
  const b = bucketName('cors');
  await c.send(new CreateBucketCommand({ Bucket: b }));
  if (rules) await c.send(new PutBucketCorsCommand({ Bucket: b, CORSConfiguration: { CORSRules: rules } }));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'obj', Body: 'hello' }));
  return b;
}

const preflight = (path: string, headers: Record<string, string>) => fetch(`${s.url}${path}`, { method: 'OPTIONS', headers });
const headersOf = (r: Response, names: string[]) => Object.fromEntries(names.map((n) => [n, r.headers.get(n)]));
const ALLOW = ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-expose-headers', 'access-control-max-age', 'access-control-allow-credentials'];

describe('the configuration', () => {
  it('GET without one is NoSuchCORSConfiguration; PUT, GET and DELETE round-trip the rules', async () => {
    const b = await corsBucket(null);
    expect((await sdkError(c.send(new GetBucketCorsCommand({ Bucket: b })))).name).toBe('NoSuchCORSConfiguration');
    await c.send(new PutBucketCorsCommand({ Bucket: b, CORSConfiguration: { CORSRules: RULES } }));
    expect((await c.send(new GetBucketCorsCommand({ Bucket: b }))).CORSRules).toEqual(RULES);
    await c.send(new DeleteBucketCorsCommand({ Bucket: b }));
    expect((await sdkError(c.send(new GetBucketCorsCommand({ Bucket: b })))).name).toBe('NoSuchCORSConfiguration');
  });

  it('refuses what AWS refuses', async () => {
    const b = await corsBucket(null);
    const doc = (rules: string) => `<CORSConfiguration>${rules}</CORSConfiguration>`;
    const cases: [string, string][] = [
      [doc('<CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PATCH</AllowedMethod></CORSRule>'), 'InvalidRequest'],
      [doc('<CORSRule><AllowedOrigin>https://*.*.com</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule>'), 'InvalidRequest'],
      [doc('<CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedHeader>x-*-*</AllowedHeader></CORSRule>'), 'InvalidRequest'],
      [doc('<CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule>'), 'MalformedXML'],
      [doc('<CORSRule><AllowedOrigin>*</AllowedOrigin></CORSRule>'), 'MalformedXML'],
      [doc('<CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><MaxAgeSeconds>soon</MaxAgeSeconds></CORSRule>'), 'MalformedXML'],
      [doc(''), 'MalformedXML'],
    ];
    for (const [body, code] of cases) {
      const r = await raw(s, 'PUT', `/${b}?cors`, { as: ALICE, body, md5: true });
      expect([body, r.status, errorOf(r).Code]).toEqual([body, 400, code]);
    }
    expect((await raw(s, 'GET', `/${b}?cors`, { as: ALICE })).status).toBe(404);
  });

  it('is the owner’s to set and read', async () => {
    const b = await corsBucket();
    expect(errorOf(await raw(s, 'GET', `/${b}?cors`, { as: BOB })).Code).toBe('AccessDenied');
    expect(errorOf(await raw(s, 'DELETE', `/${b}?cors`, { as: BOB })).Code).toBe('AccessDenied');
  });
});

describe('preflight (OPTIONS)', () => {
  it('200 with what the first matching rule allows', async () => {
    const b = await corsBucket();
    const r = await preflight(`/${b}/obj`, { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'Content-Type, X-Amz-Date' });
    expect(r.status).toBe(200);
    expect(headersOf(r, ALLOW)).toEqual({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-methods': 'GET, PUT',
      'access-control-allow-headers': 'content-type, x-amz-date',
      'access-control-expose-headers': 'ETag, x-amz-version-id',
      'access-control-max-age': '600',
      'access-control-allow-credentials': 'true',
    });
    // A wildcard origin in the rule, and the bucket itself.
    const sub = await preflight(`/${b}/obj`, { Origin: 'https://shop.example.org', 'Access-Control-Request-Method': 'GET' });
    expect([sub.status, sub.headers.get('access-control-allow-origin')]).toEqual([200, 'https://shop.example.org']);
    const any = await preflight(`/${b}`, { Origin: 'https://elsewhere.test', 'Access-Control-Request-Method': 'HEAD' });
    expect(headersOf(any, ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-credentials'])).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-credentials': null,
    });
  });

  it('403 AccessForbidden when no rule matches the origin, the method or a requested header, or the bucket has no CORS', async () => {
    const b = await corsBucket();
    const refused: Record<string, string>[] = [
      { Origin: 'https://elsewhere.test', 'Access-Control-Request-Method': 'PUT' },
      { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'DELETE' },
      { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'x-custom' },
    ];
    for (const headers of refused) {
      const r = await preflight(`/${b}/obj`, headers);
      const err = (parseXml(await r.text()) as { Error?: { Code?: string; Message?: string } }).Error;
      expect([r.status, err?.Code, r.headers.get('access-control-allow-origin')]).toEqual([403, 'AccessForbidden', null]);
      expect(err?.Message).toMatch(/^CORSResponse: This CORS request is not allowed/);
    }
    const plain = await corsBucket(null);
    const r = await preflight(`/${plain}/obj`, { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' });
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('CORSResponse: CORS is not enabled for this bucket.');
  });

  it('400 without an Origin or a requested method', async () => {
    const b = await corsBucket();
    const noOrigin = await preflight(`/${b}/obj`, { 'Access-Control-Request-Method': 'GET' });
    const noMethod = await preflight(`/${b}/obj`, { Origin: 'https://app.example.com' });
    expect([noOrigin.status, noMethod.status]).toEqual([400, 400]);
  });

  it('on a presigned URL is a preflight, not a signature check (whatever the URL was signed for)', async () => {
    const b = await corsBucket();
    const url = await getSignedUrl(c, new GetObjectCommand({ Bucket: b, Key: 'obj' }), { expiresIn: 300 });
    const r = await fetch(url, { method: 'OPTIONS', headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' } });
    expect([r.status, r.headers.get('access-control-allow-origin')]).toEqual([200, 'https://app.example.com']);
    const forged = await fetch(`${s.url}/${b}/obj?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=00`, { method: 'OPTIONS', headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'PUT' } });
    expect(forged.status).toBe(200);
    // The URL itself still works for the GET it was signed for, with the grant.
    const get = await fetch(url, { headers: { Origin: 'https://app.example.com' } });
    expect([get.status, await get.text(), get.headers.get('access-control-allow-origin')]).toEqual([200, 'hello', 'https://app.example.com']);
  });
});

describe('actual cross-origin requests', () => {
  it('carry the grant of the rule matching their origin and method, errors included; others carry none', async () => {
    const b = await corsBucket();
    const get = await raw(s, 'GET', `/${b}/obj`, { as: ALICE, headers: { origin: 'https://app.example.com' } });
    expect([get.status, get.headers['access-control-allow-origin'], get.headers['access-control-expose-headers']]).toEqual([200, 'https://app.example.com', 'ETag, x-amz-version-id']);
    const missing = await raw(s, 'GET', `/${b}/nope`, { as: ALICE, headers: { origin: 'https://app.example.com' } });
    expect([missing.status, missing.headers['access-control-allow-origin']]).toEqual([404, 'https://app.example.com']);
    const del = await raw(s, 'DELETE', `/${b}/obj`, { as: ALICE, headers: { origin: 'https://app.example.com' } });
    expect(del.headers['access-control-allow-origin']).toBeUndefined();
    const noOrigin = await raw(s, 'GET', `/${b}`, { as: ALICE });
    expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();
  });
});
