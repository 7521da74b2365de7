// What SigV4 refuses although the signature itself checks out (seed 5.2, §16): headers left out of
// SignedHeaders, a credential scope for another day or service, an x-amz-date that does not parse,
// an x-amz-content-sha256 that is neither a digest nor a known mode (or the wrong digest of an
// empty body), and header values sent as UTF-8 bytes. Requests are signed by @smithy/signature-v4
// (server.ts) or, where the fault is in what gets signed, by the small signer below; after each
// refusal the test looks that nothing was stored or removed.
import { createHash, createHmac } from 'node:crypto';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { ALICE, errorOf, raw, send, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('strict'));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'kept.txt', Body: 'kept' }));
});
afterAll(async () => {
  await s?.close();
});

const sha = (x: string | Buffer) => createHash('sha256').update(x).digest('hex');
const hmac = (k: Buffer | string, d: string) => createHmac('sha256', k).update(d).digest();
const EMPTY = sha('');
const amzDate = (d = new Date()) => d.toISOString().replace(/[-:]|\.\d{3}/g, '');
const enc = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
const status = (r: { status: number; text: string }) => [r.status, errorOf(r as never).Code];
const exists = async (key: string) => (await raw(s, 'HEAD', `/${b}/${key}`, { as: ALICE })).status === 200;

interface Manual {
  method: string;
  path: string;
  headers: Record<string, string>;
  signed: string[];
  payload: string;
  /** The date line of the string to sign (the x-amz-date a correct client sends). */
  date: string;
  scopeDate?: string;
  region?: string;
  service?: string;
  presign?: boolean;
}

/** Signs exactly what it is told (scope, date line, SignedHeaders), so a fault can be signed correctly. */
function signManually(o: Manual): { path: string; headers: Record<string, string> } {
  const scope = `${o.scopeDate ?? o.date.slice(0, 8)}/${o.region ?? 'us-east-1'}/${o.service ?? 's3'}/aws4_request`;
  const signed = [...o.signed].sort();
  const query: [string, string][] = o.presign
    ? [['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'], ['X-Amz-Credential', `${ALICE.accessKey}/${scope}`], ['X-Amz-Date', o.date], ['X-Amz-Expires', '300'], ['X-Amz-SignedHeaders', signed.join(';')]]
    : [];
  const qs = query.map(([k, v]) => `${enc(k)}=${enc(v)}`).sort().join('&');
  const canonical = [o.method, o.path, qs, signed.map((h) => `${h}:${o.headers[h]!.trim()}\n`).join(''), signed.join(';'), o.payload].join('\n');
  const [day, region, service] = scope.split('/') as [string, string, string];
  const key = hmac(hmac(hmac(hmac(`AWS4${ALICE.secretKey}`, day), region), service), 'aws4_request');
  const signature = hmac(key, ['AWS4-HMAC-SHA256', o.date, scope, sha(canonical)].join('\n')).toString('hex');
  if (o.presign) return { path: `${o.path}?${qs}&X-Amz-Signature=${signature}`, headers: o.headers };
  const authorization = `AWS4-HMAC-SHA256 Credential=${ALICE.accessKey}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}`;
  return { path: o.path, headers: { ...o.headers, authorization } };
}

function sendManually(o: Manual, body?: Buffer) {
  const m = signManually(o);
  return send(s.port, o.method, m.path, m.headers, body);
}

/** A GET of kept.txt, signed by hand over host, x-amz-content-sha256 and x-amz-date. */
const getKept = (over: Partial<Manual> = {}): Manual => {
  const date = amzDate();
  return {
    method: 'GET',
    path: `/${b}/kept.txt`,
    headers: { host: `127.0.0.1:${s.port}`, 'x-amz-content-sha256': EMPTY, 'x-amz-date': date },
    signed: ['host', 'x-amz-content-sha256', 'x-amz-date'],
    payload: EMPTY,
    date,
    ...over,
  };
};

describe('SignedHeaders (seed 5.2.4; AWS: 403 AccessDenied naming HeadersNotSigned)', () => {
  it('the hand signer is right: its GET is served', async () => {
    const r = await sendManually(getKept());
    expect([r.status, r.text]).toEqual([200, 'kept']);
  });

  it('refuses header auth that leaves out host, x-amz-date or x-amz-content-sha256', async () => {
    for (const name of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
      const r = await raw(s, 'GET', `/${b}/kept.txt`, { as: ALICE, unsigned: [name] });
      expect(status(r), name).toEqual([403, 'AccessDenied']);
      expect(errorOf(r)).toMatchObject({ Message: 'There were headers present in the request which were not signed', HeadersNotSigned: name });
    }
  });

  it('refuses an x-amz-* header sent unsigned, and stores nothing', async () => {
    const r = await raw(s, 'PUT', `/${b}/unsigned-meta`, { as: ALICE, body: 'x', headers: { 'x-amz-meta-foo': 'bar' }, unsigned: ['x-amz-meta-foo'] });
    expect(status(r)).toEqual([403, 'AccessDenied']);
    expect(errorOf(r).HeadersNotSigned).toBe('x-amz-meta-foo');
    expect(await exists('unsigned-meta')).toBe(false);
    const two = await raw(s, 'PUT', `/${b}/unsigned-two`, { as: ALICE, body: 'x', headers: { 'x-amz-meta-a': '1', 'x-amz-acl': 'public-read' }, unsigned: ['x-amz-meta-a', 'x-amz-acl'] });
    expect(errorOf(two).HeadersNotSigned).toBe('x-amz-acl, x-amz-meta-a');
    expect(await exists('unsigned-two')).toBe(false);
    // The same headers signed are fine.
    expect((await raw(s, 'PUT', `/${b}/signed-meta`, { as: ALICE, body: 'x', headers: { 'x-amz-meta-foo': 'bar', 'x-amz-acl': 'private' } })).status).toBe(200);
  });

  it('presigned: refuses an unsigned x-amz-* header (x-amz-content-sha256 excepted, as on AWS) and a host left unsigned', async () => {
    const url = await getSignedUrl(c, new PutObjectCommand({ Bucket: b, Key: 'presigned-put' }), { expiresIn: 300 });
    const r = await fetch(url, { method: 'PUT', body: 'x', headers: { 'x-amz-meta-foo': 'bar' } });
    const text = await r.text();
    expect(status({ status: r.status, text })).toEqual([403, 'AccessDenied']);
    expect(errorOf({ status: r.status, text } as never).HeadersNotSigned).toBe('x-amz-meta-foo');
    expect(await exists('presigned-put')).toBe(false);
    const ok = await fetch(url, { method: 'PUT', body: 'x', headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
    expect(ok.status).toBe(200);

    const date = amzDate();
    const noHost: Manual = { method: 'GET', path: `/${b}/kept.txt`, headers: { host: `127.0.0.1:${s.port}`, 'x-amz-meta-a': '1' }, signed: ['x-amz-meta-a'], payload: 'UNSIGNED-PAYLOAD', date, presign: true };
    const refused = await sendManually(noHost);
    expect(status(refused)).toEqual([403, 'AccessDenied']);
    expect(errorOf(refused).HeadersNotSigned).toBe('host');
    expect((await sendManually({ ...noHost, signed: ['host', 'x-amz-meta-a'] })).status).toBe(200);
  });
});

describe('credential scope and date (AWS: 400 AuthorizationHeaderMalformed / AuthorizationQueryParametersError)', () => {
  const yesterday = () => amzDate(new Date(Date.now() - 86_400_000)).slice(0, 8);

  it('refuses a scope date that is not the day of x-amz-date, and a service other than s3; any region goes', async () => {
    const day = await sendManually(getKept({ scopeDate: yesterday() }));
    expect(status(day)).toEqual([400, 'AuthorizationHeaderMalformed']);
    expect(errorOf(day).Message).toBe('The authorization header is malformed; Invalid credential date. Date is not the same as X-Amz-Date.');
    const service = await sendManually(getKept({ service: 'ec2' }));
    expect(status(service)).toEqual([400, 'AuthorizationHeaderMalformed']);
    expect(errorOf(service).Message).toBe('The authorization header is malformed; incorrect service "ec2". This endpoint belongs to "s3".');
    for (const region of ['auto', 'default', 'eu-west-3']) expect((await sendManually(getKept({ region }))).status, region).toBe(200);
  });

  it('presigned: the same two faults', async () => {
    const base: Partial<Manual> = { headers: { host: `127.0.0.1:${s.port}` }, signed: ['host'], payload: 'UNSIGNED-PAYLOAD', presign: true };
    const day = await sendManually(getKept({ ...base, scopeDate: yesterday() }));
    expect(status(day)).toEqual([400, 'AuthorizationQueryParametersError']);
    expect(errorOf(day).Message).toMatch(/^Invalid credential date "\d{8}". This date is not the same as X-Amz-Date: "\d{8}".$/);
    const service = await sendManually(getKept({ ...base, service: 'iam' }));
    expect(status(service)).toEqual([400, 'AuthorizationQueryParametersError']);
    expect(errorOf(service).Message).toBe('Error parsing the X-Amz-Credential parameter; incorrect service "iam". This endpoint belongs to "s3".');
    expect((await sendManually(getKept(base))).status).toBe(200);
  });

  it('refuses an x-amz-date that does not parse even when a Date header does; a Date alone still serves', async () => {
    const now = new Date();
    const headers = { host: `127.0.0.1:${s.port}`, 'x-amz-content-sha256': EMPTY, 'x-amz-date': 'garbage', date: now.toUTCString() };
    const bad = await sendManually(getKept({ headers, signed: ['date', 'host', 'x-amz-content-sha256', 'x-amz-date'], date: 'garbage', scopeDate: amzDate(now).slice(0, 8) }));
    expect(status(bad)).toEqual([403, 'AccessDenied']);
    expect(errorOf(bad).Message).toBe('AWS authentication requires a valid Date or x-amz-date header');
    const dateOnly = { host: `127.0.0.1:${s.port}`, 'x-amz-content-sha256': EMPTY, date: now.toUTCString() };
    const ok = await sendManually(getKept({ headers: dateOnly, signed: ['date', 'host', 'x-amz-content-sha256'], date: amzDate(new Date(Math.floor(now.getTime() / 1000) * 1000)) }));
    expect(ok.status).toBe(200);
  });
});

describe('x-amz-content-sha256 on requests without a body', () => {
  it('must be a digest or a defined mode: anything else is 400 InvalidArgument', async () => {
    for (const value of ['not-a-hash', 'unsigned-payload', EMPTY.slice(1), 'g'.repeat(64)]) {
      const r = await raw(s, 'GET', `/${b}/kept.txt`, { as: ALICE, payloadHash: value });
      expect(status(r), value).toEqual([400, 'InvalidArgument']);
      expect(errorOf(r).Message).toMatch(/^x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-.* or a valid sha256 value\.$/);
    }
    for (const value of ['UNSIGNED-PAYLOAD', EMPTY, EMPTY.toUpperCase()]) expect((await raw(s, 'GET', `/${b}/kept.txt`, { as: ALICE, payloadHash: value })).status, value).toBe(200);
  });

  it('a digest that is not the empty body’s is XAmzContentSHA256Mismatch, and the DELETE deletes nothing', async () => {
    const get = await raw(s, 'GET', `/${b}/kept.txt`, { as: ALICE, payloadHash: sha('xyz') });
    expect(status(get)).toEqual([400, 'XAmzContentSHA256Mismatch']);
    const del = await raw(s, 'DELETE', `/${b}/kept.txt`, { as: ALICE, payloadHash: sha('xyz') });
    expect(status(del)).toEqual([400, 'XAmzContentSHA256Mismatch']);
    expect(errorOf(del)).toMatchObject({ ClientComputedContentSHA256: sha('xyz'), S3ComputedContentSHA256: EMPTY });
    expect(await exists('kept.txt')).toBe(true);
  });
});

describe('header bytes outside ASCII', () => {
  it('a UTF-8 x-amz-meta value is signed over the bytes sent, stored as text and returned as the same bytes', async () => {
    const value = 'Zürich – 東京 ✓';
    const asSent = Buffer.from(value, 'utf8').toString('latin1');
    // Signed over the UTF-8 text by the SDK's signer; Node sends the header string's latin1 bytes, i.e. that UTF-8.
    const r = await raw(s, 'PUT', `/${b}/utf8-meta`, { as: ALICE, body: 'x', headers: { 'x-amz-meta-city': value }, tamper: (h) => (h['x-amz-meta-city'] = asSent) });
    expect(status(r)).toEqual([200, undefined]);
    expect(s.engine.headObject(Engine.ref(ALICE.account, b), 'utf8-meta').meta).toEqual({ city: value });
    const head = await raw(s, 'HEAD', `/${b}/utf8-meta`, { as: ALICE });
    expect(Buffer.from(head.headers['x-amz-meta-city'] as string, 'latin1').toString('utf8')).toBe(value);
    // A byte changed after signing still fails.
    const forged = await raw(s, 'PUT', `/${b}/utf8-forged`, { as: ALICE, body: 'x', headers: { 'x-amz-meta-city': value }, tamper: (h) => (h['x-amz-meta-city'] = asSent.replace('\u00bc', '\u00bd')) });
    expect(status(forged)).toEqual([403, 'SignatureDoesNotMatch']);
    expect(await exists('utf8-forged')).toBe(false);
  });
});
