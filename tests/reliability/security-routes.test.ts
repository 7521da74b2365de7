/**
 * Every route of both APIs, tried without credentials, with wrong credentials and with another
 * account's credentials, against the real `coffer serve`: each is denied with the protocol's own
 * status and body, except reads of what was made public, and nothing changes. (Single cases of
 * each — a forged token, a wrong secret — live in tests/native/http-auth.test.ts and
 * tests/compat/auth.test.ts; this is the whole table.)
 */
import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../compat/server.js';
import { ALICE, MALLORY, servedStore, swiftLogin, type TestUser } from './served.js';

let store: Awaited<ReturnType<typeof servedStore>>;
let port: number;
let base: string;
let aliceToken: string;
let malloryToken: string;
let uploadId: string;
const ACCT = `/swift/v1/AUTH_${ALICE.account}`;
const WRONG_SECRET: TestUser = { ...ALICE, secretKey: 'not-alices-secret-key-0123456789abcdef' };
const xml = new XMLParser();

beforeAll(async () => {
  store = await servedStore('security');
  port = store.server.port;
  base = store.server.url;
  aliceToken = (await swiftLogin(base, ALICE)).token;
  malloryToken = (await swiftLogin(base, MALLORY)).token;
  const s = { port };
  const ok = (r: { status: number }) => expect(r.status).toBeLessThan(300);
  ok(await raw(s, 'PUT', '/sec', { as: ALICE }));
  ok(await raw(s, 'PUT', '/sec/o', { as: ALICE, body: 'secret bytes', headers: { 'x-amz-meta-k': 'v' } }));
  ok(await raw(s, 'PUT', '/sec/seg', { as: ALICE, body: 'segment' }));
  uploadId = String((xml.parse((await raw(s, 'POST', '/sec/mp?uploads', { as: ALICE })).text) as { InitiateMultipartUploadResult: { UploadId: string } }).InitiateMultipartUploadResult.UploadId);
  // A container readable by anyone (Swift referrer ACL), with one object.
  ok(await fetch(`${base}${ACCT}/pub`, { method: 'PUT', headers: { 'X-Auth-Token': aliceToken, 'X-Container-Read': '.r:*,.rlistings' } }));
  ok(await fetch(`${base}${ACCT}/pub/p`, { method: 'PUT', headers: { 'X-Auth-Token': aliceToken }, body: 'public bytes' }));
});
afterAll(async () => {
  await store?.close();
});

type Who = 'anonymous' | 'wrong' | 'other';
const WHO: Who[] = ['anonymous', 'wrong', 'other'];

// ------------------------------------------------------------------------------------------------
// Native API: [method, path under the account, extra headers, body]
const NATIVE_ROUTES: [string, string, Record<string, string>?, string?][] = [
  ['HEAD', ''],
  ['GET', ''],
  ['POST', '', { 'X-Account-Meta-Owned': 'yes' }],
  ['POST', '?bulk-delete', { 'Content-Type': 'text/plain' }, '/sec/o\n'],
  ['DELETE', '?bulk-delete', { 'Content-Type': 'text/plain' }, '/sec/o\n'],
  ['PUT', '/sec'],
  ['PUT', '/newcontainer'],
  ['HEAD', '/sec'],
  ['GET', '/sec'],
  ['POST', '/sec', { 'X-Container-Read': '.r:*' }],
  ['DELETE', '/sec'],
  ['GET', '/sec/o'],
  ['HEAD', '/sec/o'],
  ['PUT', '/sec/o', {}, 'overwritten'],
  ['POST', '/sec/o', { 'X-Object-Meta-K': 'changed' }],
  ['DELETE', '/sec/o'],
  ['COPY', '/sec/o', { Destination: '/sec/copied' }],
  ['PUT', '/sec/copied', { 'X-Copy-From': '/sec/o' }],
  ['PUT', '/sec/manifest?multipart-manifest=put', {}, JSON.stringify([{ path: '/sec/seg' }])],
  ['GET', '/sec/o?multipart-manifest=get'],
  ['DELETE', '/sec/o?multipart-manifest=delete'],
  ['PUT', '/pub/p', {}, 'defaced'],
  ['DELETE', '/pub/p'],
  ['POST', '/pub', { 'X-Container-Write': '*' }],
];

async function nativeAs(who: Who, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const auth: Record<string, string> = who === 'anonymous' ? {} : { 'X-Auth-Token': who === 'wrong' ? `${aliceToken.slice(0, -4)}AAAA` : malloryToken };
  const res = await fetch(`${base}${ACCT}${path}`, { method, headers: { ...auth, ...headers }, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()).toString() };
}

describe('native API: every route is denied to strangers', () => {
  it.each(WHO)('%s: 401 without a valid token, 403 for another account, and no bytes leak', async (who) => {
    const wrong: string[] = [];
    for (const [method, path, headers, body] of NATIVE_ROUTES) {
      const r = await nativeAs(who, method, path, headers, body);
      // Bulk delete answers per item (Swift's report); the item itself must be refused.
      const bulk = path.includes('bulk-delete');
      const expected = who === 'other' ? 403 : 401;
      const denied = bulk ? r.status === expected || (r.status === 200 && /Number Deleted"?: 0\b/.test(r.body) && /\/sec\/o"?, "?40[13]/.test(r.body)) : r.status === expected;
      if (!denied) wrong.push(`${method} ${path}: ${r.status} ${r.body.slice(0, 120)}`);
      if (r.body.includes('secret bytes')) wrong.push(`${method} ${path}: leaked the object's bytes`);
    }
    expect(wrong).toEqual([]);
  });

  it('what was made public is readable anonymously, and only for reading', async () => {
    expect((await nativeAs('anonymous', 'GET', '/pub/p')).body).toBe('public bytes');
    expect((await nativeAs('other', 'GET', '/pub/p')).body).toBe('public bytes');
    expect((await nativeAs('anonymous', 'PUT', '/pub/q', {}, 'x')).status).toBe(401);
  });
});

// ------------------------------------------------------------------------------------------------
// Compatible API: [method, path, extra headers, body]; Mallory names Alice's bucket as `rel:sec`
// (her own `sec` would be a bucket of her tenant).
const md5b64 = (s: string) => createHash('md5').update(s).digest('base64');
const DELETE_DOC = '<Delete><Object><Key>o</Key></Object></Delete>';
const S3_ROUTES: () => [string, string, Record<string, string>?, string?][] = () => [
  ['HEAD', '/sec'],
  ['GET', '/sec'],
  ['GET', '/sec?list-type=2'],
  ['GET', '/sec?versions'],
  ['GET', '/sec?uploads'],
  ['GET', '/sec?location'],
  ['GET', '/sec?versioning'],
  ['PUT', '/sec?versioning', {}, '<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>'],
  ['GET', '/sec?acl'],
  ['PUT', '/sec?acl', { 'x-amz-acl': 'public-read-write' }],
  ['GET', '/sec?policy'],
  ['PUT', '/sec?policy', {}, '{"Version":"2012-10-17","Statement":[]}'],
  ['DELETE', '/sec?policy'],
  ['DELETE', '/sec'],
  ['POST', '/sec?delete', { 'content-md5': md5b64(DELETE_DOC) }, DELETE_DOC],
  ['GET', '/sec/o'],
  ['HEAD', '/sec/o'],
  ['PUT', '/sec/o', {}, 'overwritten'],
  ['DELETE', '/sec/o'],
  ['PUT', '/sec/copied', { 'x-amz-copy-source': '/sec/o' }],
  ['GET', '/sec/o?acl'],
  ['PUT', '/sec/o?acl', { 'x-amz-acl': 'public-read' }],
  ['GET', '/sec/o?tagging'],
  ['POST', '/sec/new?uploads'],
  ['PUT', `/sec/mp?partNumber=1&uploadId=${uploadId}`, {}, 'part'],
  ['PUT', `/sec/mp?partNumber=2&uploadId=${uploadId}`, { 'x-amz-copy-source': '/sec/o' }],
  ['GET', `/sec/mp?uploadId=${uploadId}`],
  ['POST', `/sec/mp?uploadId=${uploadId}`, {}, '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>'],
  ['DELETE', `/sec/mp?uploadId=${uploadId}`],
];

function s3As(who: Who, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const as = who === 'anonymous' ? undefined : who === 'wrong' ? WRONG_SECRET : MALLORY;
  const p = who === 'other' ? path.replace(/^\/sec/, '/rel:sec') : path;
  const h = who === 'other' && headers['x-amz-copy-source'] ? { ...headers, 'x-amz-copy-source': headers['x-amz-copy-source'].replace(/^\/sec/, '/rel:sec') } : headers;
  return raw({ port }, method, p, { ...(as ? { as } : {}), headers: h, ...(body !== undefined ? { body } : {}) });
}

const EXPECTED_CODE: Record<Who, string[]> = { anonymous: ['AccessDenied'], wrong: ['SignatureDoesNotMatch'], other: ['AccessDenied'] };

describe('compatible API: every route is denied to strangers', () => {
  it.each(WHO)('%s: 403 with an XML <Error> of the right code (no body for HEAD), and no bytes leak', async (who) => {
    const wrong: string[] = [];
    for (const [method, path, headers, body] of S3_ROUTES()) {
      const r = await s3As(who, method, path, headers, body);
      if (r.text.includes('secret bytes')) wrong.push(`${method} ${path}: leaked the object's bytes`);
      if (r.status !== 403) {
        wrong.push(`${method} ${path}: ${r.status} ${r.text.slice(0, 160)}`);
        continue;
      }
      if (method === 'HEAD') continue;
      const code = XMLValidator.validate(r.text) === true ? (xml.parse(r.text) as { Error?: { Code?: string; RequestId?: string } }).Error : undefined;
      if (!code?.Code || !EXPECTED_CODE[who].includes(code.Code) || !code.RequestId) wrong.push(`${method} ${path}: body ${r.text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('ListBuckets is each caller\'s own: anonymous is refused, Mallory does not see Alice\'s buckets', async () => {
    expect((await s3As('anonymous', 'GET', '/')).status).toBe(403);
    expect((await s3As('wrong', 'GET', '/')).status).toBe(403);
    const theirs = await raw({ port }, 'GET', '/', { as: MALLORY });
    expect(theirs.status).toBe(200);
    expect(theirs.text).not.toContain('<Name>sec</Name>');
  });
});

describe('after every attempt', () => {
  it('nothing of Alice\'s changed', async () => {
    const s = { port };
    const o = await raw(s, 'GET', '/sec/o', { as: ALICE });
    expect([o.status, o.text, o.headers['x-amz-meta-k']]).toEqual([200, 'secret bytes', 'v']);
    const list = await raw(s, 'GET', '/sec?list-type=2', { as: ALICE });
    expect([...list.text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1])).toEqual(['o', 'seg']);
    expect((await raw(s, 'GET', '/sec?versioning', { as: ALICE })).text).not.toContain('Enabled');
    expect((await raw(s, 'GET', '/sec?acl', { as: ALICE })).text).not.toContain('AllUsers');
    expect((await raw(s, 'GET', `/sec/mp?uploadId=${uploadId}`, { as: ALICE })).text).not.toContain('<Part>');
    const pub = await fetch(`${base}${ACCT}/pub`, { method: 'HEAD', headers: { 'X-Auth-Token': aliceToken } });
    expect(pub.headers.get('x-container-write')).toBeNull();
    expect(await (await fetch(`${base}${ACCT}/pub/p`)).text()).toBe('public bytes');
    const acct = await fetch(`${base}${ACCT}`, { method: 'HEAD', headers: { 'X-Auth-Token': aliceToken } });
    expect(acct.headers.get('x-account-meta-owned')).toBeNull();
    expect(acct.headers.get('x-account-container-count')).toBe('2');
  });
});
