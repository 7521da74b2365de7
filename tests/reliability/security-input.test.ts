/**
 * Hostile input the security review asks about, against the real `coffer serve`: XML entity
 * expansion (billion laughs, external entities) in the documents S3 reads, CR/LF smuggled into
 * header values (response overrides, obs-fold, and stored metadata from the app's own contract
 * path), and presigned URLs altered after signing. Expired presigned URLs, forged TempURLs and
 * expired tokens are covered in tests/compat/auth.test.ts, tests/native/tempurl.test.ts and
 * tests/native/http-auth.test.ts.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { raw, type RawResponse } from '../compat/server.js';
import { rawRequest } from '../native/server.js';
import { ALICE, MALLORY, servedStore, swiftLogin, tempDir } from './served.js';
import { s3ClientFor } from './upload-kinds.js';

let store: Awaited<ReturnType<typeof servedStore>>;
let s: { port: number };
let uploadId: string;
const xml = new XMLParser();

beforeAll(async () => {
  store = await servedStore('security-input');
  s = { port: store.server.port };
  expect((await raw(s, 'PUT', '/inp', { as: ALICE })).status).toBe(200);
  expect((await raw(s, 'PUT', '/inp/o', { as: ALICE, body: 'hello' })).status).toBe(200);
  const init = await raw(s, 'POST', '/inp/mp?uploads', { as: ALICE });
  uploadId = String((xml.parse(init.text) as { InitiateMultipartUploadResult: { UploadId: string } }).InitiateMultipartUploadResult.UploadId);
});
afterAll(async () => {
  await store?.close();
});

/** Fails clearly (instead of at the test timeout) if the server never answers. */
function answered<T>(p: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

function s3ErrorCode(r: RawResponse): string | undefined {
  if (XMLValidator.validate(r.text) !== true) return undefined;
  return (xml.parse(r.text) as { Error?: { Code?: string } }).Error?.Code;
}

const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('') +
  ']>';
const XXE = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

describe('XML entity expansion is disabled', () => {
  const documents: [string, string, string][] = [
    ['DeleteObjects (billion laughs)', '/inp?delete', `${LAUGHS}<Delete><Object><Key>&lol9;</Key></Object></Delete>`],
    ['CompleteMultipartUpload (billion laughs)', `/inp/mp?uploadId=${'UPLOAD'}`, `${LAUGHS}<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&lol9;</ETag></Part></CompleteMultipartUpload>`],
    ['DeleteObjects (external entity)', '/inp?delete', `${XXE}<Delete><Object><Key>&xxe;</Key></Object></Delete>`],
    ['PutBucketVersioning (billion laughs)', '/inp?versioning', `${LAUGHS}<VersioningConfiguration><Status>&lol9;</Status></VersioningConfiguration>`],
  ];
  it.each(documents)('%s: a clean 400 with an S3 error document, and the server keeps serving', async (_label, path, body) => {
    const method = path.includes('versioning') ? 'PUT' : 'POST';
    const r = await answered(
      raw(s, method, path.replace('UPLOAD', uploadId), { as: ALICE, body, headers: { 'content-md5': createHash('md5').update(body).digest('base64') } }),
      path,
    );
    expect(r.status, r.text.slice(0, 300)).toBe(400);
    expect(s3ErrorCode(r)).toBe('MalformedXML');
    expect(r.text).not.toContain('lollol');
    expect(r.text).not.toContain('root:');
    expect((await raw(s, 'GET', '/inp/o', { as: ALICE })).text).toBe('hello');
  });
});

describe('CR and LF never reach a header', () => {
  it.each(['response-content-type', 'response-content-disposition', 'response-cache-control', 'response-expires'])(
    'a %s override with CR/LF or NUL is 400 InvalidArgument, not a 500 (nor a split response)',
    async (param) => {
      for (const bad of ['a%0D%0AX-Injected:%20yes', 'a%0Ab', '%00']) {
        const r = await raw(s, 'GET', `/inp/o?${param}=${bad}`, { as: ALICE });
        expect([r.status, s3ErrorCode(r)], `${param}=${bad}`).toEqual([400, 'InvalidArgument']);
        expect(r.headers['x-injected']).toBeUndefined();
      }
    },
  );

  it('metadata with obs-fold, a bare CR or a bare LF in a raw request is refused by the HTTP layer, and nothing is stored', async () => {
    const { storageUrl, token } = await swiftLogin(store.server.url, ALICE);
    const path = `${new URL(storageUrl).pathname}/inp/folded`;
    for (const value of ['a\r\n b', 'a\rb', 'a\nX-Object-Meta-Other: b']) {
      const req = `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: ${token}\r\nX-Object-Meta-Foo: ${value}\r\nContent-Length: 1\r\nConnection: close\r\n\r\nz`;
      const r = await rawRequest(s.port, req);
      expect(r.status, JSON.stringify(value)).toBe(400);
      const head = await fetch(`${storageUrl}/inp/folded`, { method: 'HEAD', headers: { 'X-Auth-Token': token } });
      expect(head.status).toBe(404);
    }
  });

  it('the engine (behind the app contract) refuses metadata and header values with control characters', async () => {
    // The app's metadata editor reaches the engine without HTTP parsing: the engine itself must refuse,
    // or the object could never be served again (a header with CR/LF cannot be sent).
    const dir = tempDir('crlf');
    const engine = await Engine.open(dir, { noSync: true, expirySweepMs: 0 });
    try {
      await engine.createAccount({ id: 'crlf$user' });
      await engine.createContainer('crlf$user', 'c');
      const ref = Engine.ref('crlf$user', 'c');
      const attempts: [string, () => Promise<unknown>][] = [
        ['put meta', () => engine.putObject(ref, 'a', Buffer.from('x'), { meta: { k: 'v\r\nX-Evil: 1' } })],
        ['put header', () => engine.putObject(ref, 'b', Buffer.from('x'), { headers: { contentDisposition: 'a\nb' } })],
        ['put type', () => engine.putObject(ref, 'c', Buffer.from('x'), { contentType: 'text/plain\r\nX: y' })],
        ['multipart', () => engine.createUpload(ref, 'd', { meta: { k: '\u0000' } })],
      ];
      for (const [label, attempt] of attempts) await expect(attempt(), label).rejects.toMatchObject({ code: 'InvalidArgument' });
      await engine.putObject(ref, 'ok', Buffer.from('x'), { meta: { k: 'tab\tis fine' } });
      await expect(engine.updateObjectMeta(ref, 'ok', { meta: { k: 'v\rw' } })).rejects.toMatchObject({ code: 'InvalidArgument' });
      expect(engine.headObject(ref, 'ok').meta).toEqual({ k: 'tab\tis fine' });
      expect(engine.listObjects(ref).entries.map((e) => (e.kind === 'object' ? e.name : e.prefix))).toEqual(['ok']);
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('presigned URLs altered after signing', () => {
  it('another key, a longer expiry, another access key or an added override are refused with 403', async () => {
    const c = s3ClientFor(store.server.url, ALICE);
    try {
      const url = new URL(await getSignedUrl(c, new GetObjectCommand({ Bucket: 'inp', Key: 'o' }), { expiresIn: 60 }));
      expect((await fetch(url)).status).toBe(200);
      const variants: [string, (u: URL) => void][] = [
        ['key', (u) => (u.pathname = '/inp/mp')],
        ['expiry', (u) => u.searchParams.set('X-Amz-Expires', '3600')],
        // Another second than signed (one signed at :00 moves to :01).
        ['date', (u) => u.searchParams.set('X-Amz-Date', u.searchParams.get('X-Amz-Date')!.replace(/(\d{2})Z$/, (_, ss: string) => (ss === '00' ? '01Z' : '00Z')))],
        ['credential', (u) => u.searchParams.set('X-Amz-Credential', u.searchParams.get('X-Amz-Credential')!.replace(ALICE.accessKey, MALLORY.accessKey))],
        ['override', (u) => u.searchParams.set('response-content-type', 'text/html')],
        ['signature', (u) => u.searchParams.set('X-Amz-Signature', u.searchParams.get('X-Amz-Signature')!.replace(/^./, (ch) => (ch === '0' ? '1' : '0')))],
      ];
      for (const [label, alter] of variants) {
        const u = new URL(url);
        alter(u);
        const r = await fetch(u);
        const text = await r.text();
        expect([label, r.status], text.slice(0, 200)).toEqual([label, 403]);
        expect(text).not.toContain('hello');
      }
    } finally {
      c.destroy();
    }
  });
});
