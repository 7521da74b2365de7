/**
 * Every route of both APIs, tried without credentials, with wrong credentials and with another
 * account's credentials, against the real `coffer serve`: each is denied with the protocol's own
 * status and body, except reads of what was made public, and nothing changes. (Single cases of
 * each — a forged token, a wrong secret — live in tests/native/http-auth.test.ts and
 * tests/compat/auth.test.ts; this is the whole table.)
 */
import { createHash, createHmac } from 'node:crypto';
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
let bobToken: string;
let malloryUploadId: string;
const ACCT = `/swift/v1/AUTH_${ALICE.account}`;
/** Bob shares Alice's tenant, so her container names resolve under his account path too. */
const BOB: TestUser = { account: 'rel$bob', accessKey: 'RELBOBACCESSKEY00003', secretKey: 'bob-reliability-secret-key-01234567890', swiftUser: 'rel$bob:swift', swiftKey: 'rel$bob-swift-key' };
const BOB_ACCT = `/swift/v1/AUTH_${BOB.account}`;
const MALLORY_ACCT = `/swift/v1/AUTH_${MALLORY.account}`;
const WRONG_SECRET: TestUser = { ...ALICE, secretKey: 'not-alices-secret-key-0123456789abcdef' };
const xml = new XMLParser();

beforeAll(async () => {
  store = await servedStore('security', [ALICE, MALLORY, BOB]);
  port = store.server.port;
  base = store.server.url;
  aliceToken = (await swiftLogin(base, ALICE)).token;
  malloryToken = (await swiftLogin(base, MALLORY)).token;
  bobToken = (await swiftLogin(base, BOB)).token;
  const s = { port };
  const ok = (r: { status: number }) => expect(r.status).toBeLessThan(300);
  ok(await raw(s, 'PUT', '/sec', { as: ALICE }));
  ok(await raw(s, 'PUT', '/sec/o', { as: ALICE, body: 'secret bytes', headers: { 'x-amz-meta-k': 'v' } }));
  ok(await raw(s, 'PUT', '/sec/seg', { as: ALICE, body: 'segment' }));
  uploadId = String((xml.parse((await raw(s, 'POST', '/sec/mp?uploads', { as: ALICE })).text) as { InitiateMultipartUploadResult: { UploadId: string } }).InitiateMultipartUploadResult.UploadId);
  // A container readable by anyone (Swift referrer ACL), with one object.
  ok(await fetch(`${base}${ACCT}/pub`, { method: 'PUT', headers: { 'X-Auth-Token': aliceToken, 'X-Container-Read': '.r:*,.rlistings' } }));
  ok(await fetch(`${base}${ACCT}/pub/p`, { method: 'PUT', headers: { 'X-Auth-Token': aliceToken }, body: 'public bytes' }));
  // Strangers' own places, to copy from and into: Mallory's container and bucket, Bob's TempURL key.
  ok(await fetch(`${base}${MALLORY_ACCT}/mine`, { method: 'PUT', headers: { 'X-Auth-Token': malloryToken } }));
  ok(await fetch(`${base}${MALLORY_ACCT}/mine/m`, { method: 'PUT', headers: { 'X-Auth-Token': malloryToken }, body: 'm' }));
  ok(await raw(s, 'PUT', '/mbucket', { as: MALLORY }));
  malloryUploadId = String((xml.parse((await raw(s, 'POST', '/mbucket/mp?uploads', { as: MALLORY })).text) as { InitiateMultipartUploadResult: { UploadId: string } }).InitiateMultipartUploadResult.UploadId);
  ok(await fetch(`${base}${BOB_ACCT}`, { method: 'POST', headers: { 'X-Auth-Token': bobToken, 'X-Account-Meta-Temp-URL-Key': 'bob-key' } }));
  ok(await fetch(`${base}${MALLORY_ACCT}`, { method: 'POST', headers: { 'X-Auth-Token': malloryToken, 'X-Account-Meta-Temp-URL-Key': 'mallory-key' } }));
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
  // ACLs naming the caller in every form a grant can take: none of them is the stranger's to set.
  ['POST', '', { 'X-Account-Access-Control': JSON.stringify({ admin: ['*:*', '*', MALLORY.account, MALLORY.swiftUser] }) }],
  ['POST', '/sec', { 'X-Container-Write': `*:*,*:swift,${MALLORY.swiftUser},AUTH_${MALLORY.account}` }],
  ['PUT', '/newcontainer', { 'X-Container-Read': `*,${MALLORY.account}:*` }],
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

describe('native API: other accounts reach none of it through their own paths, keys or copies', () => {
  const OBJECT_ROUTES = NATIVE_ROUTES.filter(([, path]) => path.startsWith('/sec/'));

  it("Bob (same tenant) with his token, naming Alice's containers under his own account path: 403", async () => {
    const wrong: string[] = [];
    for (const [method, path, headers = {}, body] of NATIVE_ROUTES.filter(([, p]) => p.startsWith('/sec') || p.startsWith('/pub') || p.includes('bulk-delete'))) {
      const res = await fetch(`${base}${BOB_ACCT}${path}`, { method, headers: { 'X-Auth-Token': bobToken, ...headers }, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      const bulk = path.includes('bulk-delete');
      const denied = bulk ? res.status === 200 && /Number Deleted"?: 0\b/.test(text) && /403/.test(text) : res.status === 403;
      if (!denied && !(method === 'PUT' && path === '/sec')) wrong.push(`${method} ${path}: ${res.status} ${text.slice(0, 120)}`);
      if (text.includes('secret bytes')) wrong.push(`${method} ${path}: leaked the object's bytes`);
    }
    expect(wrong).toEqual([]);
  });

  it("TempURLs: Bob's key through his own path is Bob (403); Mallory's key on Alice's path signs nothing (401)", async () => {
    const expires = Math.floor(Date.now() / 1000) + 300;
    const sign = (key: string, method: string, path: string) => `${path}?temp_url_sig=${createHmac('sha256', key).update(`${method}\n${expires}\n${path.replace(/^\/swift/, '')}`).digest('hex')}&temp_url_expires=${expires}`;
    const wrong: string[] = [];
    for (const [method, path, headers = {}, body] of OBJECT_ROUTES) {
      const plain = path.split('?')[0]!;
      const attempts: [string, string, number][] = [
        ['bob', sign('bob-key', method, `${BOB_ACCT}${plain}`), 403],
        ['mallory', sign('mallory-key', method, `${ACCT}${plain}`), 401],
      ];
      for (const [who, url, expected] of attempts) {
        const res = await fetch(`${base}${url}`, { method, headers, ...(body !== undefined ? { body } : {}) });
        const text = await res.text();
        // A TempURL allows the plain object methods only: COPY is 401 for anyone; a copy header on a
        // PUT may be refused as such (400) once the signer could write there at all.
        const want = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'].includes(method) ? expected : 401;
        if (res.status !== want && !(want === 403 && res.status === 400)) wrong.push(`${who} ${method} ${path}: ${res.status} (expected ${want})`);
        if (text.includes('secret bytes')) wrong.push(`${who} ${method} ${path}: leaked the object's bytes`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('cross-account copies: Mallory copies neither out of Alice\'s containers nor into them, whether the names exist or not', async () => {
    const attempts: [string, string, Record<string, string>][] = [
      ['PUT', `${MALLORY_ACCT}/mine/stolen`, { 'X-Copy-From-Account': ALICE.account, 'X-Copy-From': 'sec/o' }],
      ['PUT', `${MALLORY_ACCT}/mine/stolen`, { 'X-Copy-From-Account': `AUTH_${ALICE.account}`, 'X-Copy-From': 'sec/no-such-object' }],
      ['PUT', `${MALLORY_ACCT}/mine/stolen`, { 'X-Copy-From-Account': ALICE.account, 'X-Copy-From': 'no-such-container/o' }],
      ['COPY', `${MALLORY_ACCT}/mine/m`, { 'Destination-Account': ALICE.account, Destination: 'sec/planted' }],
      ['COPY', `${MALLORY_ACCT}/mine/m`, { 'Destination-Account': ALICE.account, Destination: 'no-such-container/planted' }],
    ];
    const got = [];
    for (const [method, path, headers] of attempts) {
      const res = await fetch(`${base}${path}`, { method, headers: { 'X-Auth-Token': malloryToken, ...headers } });
      got.push(`${method} ${JSON.stringify(headers)}: ${res.status}`);
      expect(await res.text()).not.toContain('secret bytes');
    }
    expect(got.filter((l) => !l.endsWith(': 403'))).toEqual([]);
    expect((await fetch(`${base}${MALLORY_ACCT}/mine/stolen`, { headers: { 'X-Auth-Token': malloryToken } })).status).toBe(404);
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

describe('compatible API: copies out of another account\'s bucket into one\'s own', () => {
  it('CopyObject and UploadPartCopy from rel:sec are AccessDenied whether the key exists or not', async () => {
    const got: string[] = [];
    for (const source of ['/rel:sec/o', '/rel:sec/no-such-key', '/rel:sec/o?versionId=nope']) {
      for (const path of ['/mbucket/stolen', `/mbucket/mp?partNumber=1&uploadId=${malloryUploadId}`]) {
        const r = await raw({ port }, 'PUT', path, { as: MALLORY, headers: { 'x-amz-copy-source': source } });
        const code = (xml.parse(r.text) as { Error?: { Code?: string } }).Error?.Code;
        if (r.status !== 403 || code !== 'AccessDenied') got.push(`${path} <- ${source}: ${r.status} ${code}`);
        if (r.text.includes('secret bytes')) got.push(`${path} <- ${source}: leaked`);
      }
    }
    expect(got).toEqual([]);
    expect((await raw({ port }, 'HEAD', '/mbucket/stolen', { as: MALLORY })).status).toBe(404);
  });
});

describe('native API: an account ACL naming one user opens nothing to anyone else', () => {
  it("Alice's read-only grant to Bob's Swift user: Bob reads through her path and writes nothing; strangers are refused as before", async () => {
    const setAcl = (acl: string) => fetch(`${base}${ACCT}`, { method: 'POST', headers: { 'X-Auth-Token': aliceToken, 'X-Account-Access-Control': acl } });
    expect((await setAcl(JSON.stringify({ 'read-only': [BOB.swiftUser] }))).status).toBe(204);
    try {
      const wrong: string[] = [];
      for (const who of WHO) {
        for (const [method, path, headers, body] of NATIVE_ROUTES) {
          const r = await nativeAs(who, method, path, headers, body);
          const bulk = path.includes('bulk-delete');
          const expected = who === 'other' ? 403 : 401;
          const denied = bulk ? r.status === expected || (r.status === 200 && /Number Deleted"?: 0\b/.test(r.body)) : r.status === expected;
          if (!denied && !(path.startsWith('/pub') && method === 'GET')) wrong.push(`${who} ${method} ${path}: ${r.status}`);
        }
      }
      const bob = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
        fetch(`${base}${ACCT}${path}`, { method, headers: { 'X-Auth-Token': bobToken, ...headers }, ...(body !== undefined ? { body } : {}) });
      for (const [method, path, headers, body] of NATIVE_ROUTES) {
        const res = await bob(method, path, headers, body);
        const text = await res.text();
        const read = method === 'GET' || method === 'HEAD';
        const bulk = path.includes('bulk-delete');
        // Reads of what exists are granted; anything else is refused (a bulk delete item by item).
        const ok = read ? res.status < 300 || (res.status === 404 && path.includes('multipart-manifest')) : bulk ? /Number Deleted"?: 0\b/.test(text) : res.status === 403;
        if (!ok) wrong.push(`bob ${method} ${path}: ${res.status} ${text.slice(0, 80)}`);
      }
      expect(wrong).toEqual([]);
      expect(await (await bob('GET', '/sec/o')).text()).toBe('secret bytes');
      // The grant and the TempURL keys are the owner's to see.
      const head = await bob('HEAD', '');
      expect([head.status, head.headers.get('x-account-access-control'), head.headers.get('x-account-meta-temp-url-key')]).toEqual([204, null, null]);
    } finally {
      expect((await setAcl('')).status).toBe(204);
    }
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
    expect(acct.headers.get('x-account-access-control')).toBeNull();
    expect(acct.headers.get('x-account-container-count')).toBe('2');
  });
});
