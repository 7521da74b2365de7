// Authentication and addressing of the S3 API (§15-§17, §19): presigned GET/PUT URLs, signature
// failures, unknown keys, clock skew, anonymous access, the error document, virtual-host
// addressing (SDK and raw), signed aws-chunked uploads and SigV2.
import { createHash, createHmac } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, ListBucketsCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, bucketName, errorOf, raw, readAll, sdkError, send, signRequest, startWithBucket, type S3TestServer, type User } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('auth'));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'secret.txt', Body: 'private data' }));
});
afterAll(async () => {
  await s?.close();
});

const sha = (x: string | Buffer) => createHash('sha256').update(x).digest('hex');
const hmac = (k: Buffer | string, d: string) => createHmac('sha256', k).update(d).digest();

describe('presigned URLs', () => {
  it('GET works without credentials, with response overrides; PUT uploads', async () => {
    const url = await getSignedUrl(c, new GetObjectCommand({ Bucket: b, Key: 'secret.txt', ResponseContentDisposition: 'attachment' }), { expiresIn: 300 });
    const r = await fetch(url);
    expect([r.status, await r.text(), r.headers.get('content-disposition')]).toEqual([200, 'private data', 'attachment']);
    const putUrl = await getSignedUrl(c, new PutObjectCommand({ Bucket: b, Key: 'uploaded via url.txt' }), { expiresIn: 300 });
    const put = await fetch(putUrl, { method: 'PUT', body: 'from a browser' });
    expect(put.status).toBe(200);
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: b, Key: 'uploaded via url.txt' }))).Body)).toString()).toBe('from a browser');
  });

  it('refuses an expired URL (403 AccessDenied), a URL used with another method, and X-Amz-Expires over a week', async () => {
    const expired = await getSignedUrl(c, new GetObjectCommand({ Bucket: b, Key: 'secret.txt' }), { expiresIn: 60, signingDate: new Date(Date.now() - 3600_000) });
    const r = await fetch(expired);
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('<Code>AccessDenied</Code>');
    const getUrl = await getSignedUrl(c, new GetObjectCommand({ Bucket: b, Key: 'secret.txt' }), { expiresIn: 300 });
    const asPut = await fetch(getUrl, { method: 'PUT', body: 'overwrite' });
    expect([asPut.status, (await asPut.text()).includes('SignatureDoesNotMatch')]).toEqual([403, true]);
    const tooLong = new URL(getUrl);
    tooLong.searchParams.set('X-Amz-Expires', '604801');
    expect((await fetch(tooLong)).status).toBe(400);
    // As AWS answers them: 0 has expired already (403); negative, junk and over a week are
    // AuthorizationQueryParametersError (400; RGW says 403 AccessDenied).
    for (const [value, status, message] of [
      ['0', 403, 'Request has expired'],
      ['-1', 400, 'X-Amz-Expires must be non-negative'],
      ['soon', 400, 'X-Amz-Expires should be a number'],
      ['604801', 400, 'X-Amz-Expires must be less than a week'],
    ] as const) {
      const u = new URL(getUrl);
      u.searchParams.set('X-Amz-Expires', value);
      const answer = await fetch(u);
      expect([value, answer.status, await answer.text()]).toEqual([value, status, expect.stringContaining(message)]);
    }
    expect((await fetch(getUrl)).status).toBe(200);
    const tampered = new URL(getUrl);
    tampered.pathname = `/${b}/other.txt`;
    expect((await fetch(tampered)).status).toBe(403);
  });
});

describe('signature failures', () => {
  it('a wrong secret is SignatureDoesNotMatch; an unknown key InvalidAccessKeyId', async () => {
    const wrong: User = { ...ALICE, secretKey: 'not-the-secret' };
    const e = await sdkError(s.client(wrong).send(new ListBucketsCommand({})));
    expect([e.name, e.status]).toEqual(['SignatureDoesNotMatch', 403]);
    const unknown = await sdkError(s.client({ ...ALICE, accessKey: 'NOSUCHKEY0000000000' }).send(new ListBucketsCommand({})));
    expect([unknown.name, unknown.status]).toEqual(['InvalidAccessKeyId', 403]);
  });

  it('a request outside ±15 minutes is RequestTimeTooSkewed (SDK clock offset and raw)', async () => {
    const e = await sdkError(s.client(ALICE, { systemClockOffset: -20 * 60_000 }).send(new ListBucketsCommand({})));
    expect([e.name, e.status]).toEqual(['RequestTimeTooSkewed', 403]);
    const r = await raw(s, 'GET', '/', { as: ALICE, signingDate: new Date(Date.now() + 16 * 60_000) });
    expect(errorOf(r)).toMatchObject({ Code: 'RequestTimeTooSkewed', MaxAllowedSkewMilliseconds: '900000' });
    expect((await raw(s, 'GET', '/', { as: ALICE, signingDate: new Date(Date.now() - 10 * 60_000) })).status).toBe(200);
  });

  it('a tampered header, a body that does not hash to x-amz-content-sha256, a missing hash header', async () => {
    const r = await raw(s, 'PUT', `/${b}/t`, { as: ALICE, body: 'abc', headers: { 'x-amz-meta-a': '1' }, tamper: (h) => (h['x-amz-meta-a'] = '2') });
    expect(errorOf(r).Code).toBe('SignatureDoesNotMatch');
    const mismatch = await raw(s, 'PUT', `/${b}/t`, { as: ALICE, body: 'abc', payloadHash: sha('xyz') });
    expect([mismatch.status, errorOf(mismatch).Code]).toEqual([400, 'XAmzContentSHA256Mismatch']);
    expect((await raw(s, 'HEAD', `/${b}/t`, { as: ALICE })).status).toBe(404);
    const missing = await raw(s, 'GET', '/', { as: ALICE, tamper: (h) => delete h['x-amz-content-sha256'] });
    expect([missing.status, errorOf(missing).Code]).toEqual([400, 'InvalidRequest']);
    const malformed = await send(s.port, 'GET', '/', { host: 'x', authorization: 'AWS4-HMAC-SHA256 Credential=abc' });
    expect([malformed.status, errorOf(malformed).Code]).toEqual([400, 'AuthorizationHeaderMalformed']);
  });

  it('UploadPart checks x-amz-content-sha256 too; the signed hash is kept as a checksum only when one is asked for', async () => {
    const created = await raw(s, 'POST', `/${b}/mp?uploads`, { as: ALICE });
    const uploadId = /<UploadId>([^<]+)</.exec(created.text)![1]!;
    const part = await raw(s, 'PUT', `/${b}/mp?partNumber=1&uploadId=${uploadId}`, { as: ALICE, body: 'abc', payloadHash: sha('xyz') });
    expect([part.status, errorOf(part).Code]).toEqual([400, 'XAmzContentSHA256Mismatch']);
    expect((await raw(s, 'GET', `/${b}/mp?uploadId=${uploadId}`, { as: ALICE })).text).not.toContain('<Part>');
    expect((await raw(s, 'PUT', `/${b}/mp?partNumber=1&uploadId=${uploadId}`, { as: ALICE, body: 'abc' })).status).toBe(200);

    const checked = { 'x-amz-checksum-mode': 'ENABLED' };
    expect((await raw(s, 'PUT', `/${b}/signed`, { as: ALICE, body: 'abc' })).status).toBe(200);
    expect((await raw(s, 'HEAD', `/${b}/signed`, { as: ALICE, headers: checked })).headers['x-amz-checksum-sha256']).toBeUndefined();
    const sum = createHash('sha256').update('abc').digest('base64');
    expect((await raw(s, 'PUT', `/${b}/summed`, { as: ALICE, body: 'abc', headers: { 'x-amz-checksum-sha256': sum } })).status).toBe(200);
    expect((await raw(s, 'HEAD', `/${b}/summed`, { as: ALICE, headers: checked })).headers['x-amz-checksum-sha256']).toBe(sum);
  });

  it('denies anonymous access to a private bucket and object (403 AccessDenied)', async () => {
    for (const path of [`/${b}`, `/${b}/secret.txt`, `/${b}?versioning`]) {
      const r = await raw(s, 'GET', path);
      expect([r.status, errorOf(r).Code]).toEqual([403, 'AccessDenied']);
    }
  });
});

describe('error document (§19.1)', () => {
  it('is XML with Code, Message, Key, BucketName, RequestId and HostId, and x-amz-request-id / x-amz-id-2 headers', async () => {
    const r = await raw(s, 'GET', `/${b}/no/such key`, { as: ALICE });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('application/xml');
    expect(r.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const e = errorOf(r);
    expect(e).toMatchObject({ Code: 'NoSuchKey', Message: 'The specified key does not exist.', Key: 'no/such key', BucketName: b });
    expect(e.RequestId).toBe(r.headers['x-amz-request-id']);
    expect(r.headers['x-amz-id-2']).toBeTruthy();
    expect(e.HostId).toBeTruthy();
    const sdk = await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'nope' })));
    expect(sdk.requestId).toBeTruthy();
    expect(sdk.extendedRequestId).toBeTruthy();
  });

  it('answers unimplemented sub-resources with 501 and probed ones as not configured', async () => {
    expect(errorOf(await raw(s, 'GET', `/${b}?notification`, { as: ALICE })).Code).toBe('NotImplemented');
    expect(errorOf(await raw(s, 'GET', `/${b}?cors`, { as: ALICE })).Code).toBe('NoSuchCORSConfiguration');
    expect(errorOf(await raw(s, 'GET', `/${b}?lifecycle`, { as: ALICE })).Code).toBe('NoSuchLifecycleConfiguration');
    expect((await raw(s, 'GET', `/${b}?logging`, { as: ALICE })).text).toContain('BucketLoggingStatus');
  });
});

describe('virtual-host addressing', () => {
  it('works through the SDK (bucket.localhost) for bucket and object operations', async () => {
    const v = s.vhostClient();
    const vb = bucketName('vhost');
    await v.send(new CreateBucketCommand({ Bucket: vb }));
    await v.send(new PutObjectCommand({ Bucket: vb, Key: 'dir/file name.txt', Body: 'vh bytes' }));
    expect((await readAll((await c.send(new GetObjectCommand({ Bucket: vb, Key: 'dir/file name.txt' }))).Body)).toString()).toBe('vh bytes');
    expect((await readAll((await v.send(new GetObjectCommand({ Bucket: vb, Key: 'dir/file name.txt' }))).Body)).toString()).toBe('vh bytes');
    const url = await getSignedUrl(v, new GetObjectCommand({ Bucket: vb, Key: 'dir/file name.txt' }), { expiresIn: 60 });
    expect(new URL(url).hostname).toBe(`${vb}.localhost`);
  });

  it('reads the bucket from a raw Host header; anonymous virtual-host requests are refused (seed 5.2)', async () => {
    const host = `${b}.localhost:${s.port}`;
    const r = await raw(s, 'GET', '/secret.txt', { as: ALICE, host });
    expect([r.status, r.text]).toEqual([200, 'private data']);
    const list = await raw(s, 'GET', '/?list-type=2', { as: ALICE, host });
    expect(list.text).toContain('<Key>secret.txt</Key>');
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'pub', Body: 'p', ACL: 'public-read' }));
    expect((await raw(s, 'GET', `/${b}/pub`)).status).toBe(200);
    expect((await raw(s, 'GET', '/pub', { host })).status).toBe(403);
  });
});

describe('signed aws-chunked upload (STREAMING-AWS4-HMAC-SHA256-PAYLOAD)', () => {
  async function chunkedPut(key: string, chunks: Buffer[], corrupt = false) {
    const total = chunks.reduce((n, x) => n + x.length, 0);
    // Content-Length is signed, so the framed length is computed before the chunk signatures.
    const framed = [...chunks, Buffer.alloc(0)].reduce((n, x) => n + x.length.toString(16).length + ';chunk-signature='.length + 64 + 4 + x.length, 0);
    // The body depends on the seed signature, so sign the headers first, then frame the chunks.
    const { headers: signed } = await signRequest(s, 'PUT', `/${b}/${key}`, {
      as: ALICE,
      payloadHash: 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
      headers: { 'content-encoding': 'aws-chunked', 'x-amz-decoded-content-length': String(total), 'content-length': String(framed) },
    });
    const seed = /Signature=([0-9a-f]{64})/.exec(signed.authorization!)![1]!;
    const date = signed['x-amz-date']!;
    const scope = `${date.slice(0, 8)}/us-east-1/s3/aws4_request`;
    const key4 = hmac(hmac(hmac(hmac(`AWS4${ALICE.secretKey}`, date.slice(0, 8)), 'us-east-1'), 's3'), 'aws4_request');
    let prev = seed;
    const parts: Buffer[] = [];
    for (const chunk of [...chunks, Buffer.alloc(0)]) {
      const sig = hmac(key4, ['AWS4-HMAC-SHA256-PAYLOAD', date, scope, prev, sha(''), sha(chunk)].join('\n')).toString('hex');
      prev = sig;
      parts.push(Buffer.from(`${chunk.length.toString(16)};chunk-signature=${corrupt && chunk.length ? sig.replace(/^./, (ch) => (ch === 'f' ? '0' : 'f')) : sig}\r\n`), chunk, Buffer.from('\r\n'));
    }
    const body = Buffer.concat(parts);
    expect(body.length).toBe(framed);
    return send(s.port, 'PUT', `/${b}/${key}`, signed, body);
  }

  it('verifies the chunk chain and stores the decoded bytes; a bad chunk signature stores nothing', async () => {
    const chunks = [Buffer.alloc(70_000, 'q'), Buffer.from('tail')];
    const ok = await chunkedPut('signed-chunks', chunks);
    expect(ok.status).toBe(200);
    const head = await raw(s, 'GET', `/${b}/signed-chunks`, { as: ALICE });
    expect(head.body.equals(Buffer.concat(chunks))).toBe(true);
    expect(head.headers['content-encoding']).toBeUndefined();
    const bad = await chunkedPut('bad-chunks', chunks, true);
    expect([bad.status, errorOf(bad).Code]).toEqual([403, 'SignatureDoesNotMatch']);
    expect((await raw(s, 'HEAD', `/${b}/bad-chunks`, { as: ALICE })).status).toBe(404);
  });
});

describe('SigV2 (legacy)', () => {
  it('accepts header and query signatures', async () => {
    const date = new Date().toUTCString();
    const toSign = `GET\n\n\n${date}\n/${b}/secret.txt`;
    const sig = createHmac('sha1', ALICE.secretKey).update(toSign).digest('base64');
    const r = await send(s.port, 'GET', `/${b}/secret.txt`, { host: `127.0.0.1:${s.port}`, date, authorization: `AWS ${ALICE.accessKey}:${sig}` });
    expect([r.status, r.text]).toEqual([200, 'private data']);
    const expires = Math.floor(Date.now() / 1000) + 60;
    const qsig = createHmac('sha1', ALICE.secretKey).update(`GET\n\n\n${expires}\n/${b}/secret.txt`).digest('base64');
    const q = await fetch(`${s.url}/${b}/secret.txt?AWSAccessKeyId=${ALICE.accessKey}&Expires=${expires}&Signature=${encodeURIComponent(qsig)}`);
    expect(q.status).toBe(200);
    const bad = await send(s.port, 'GET', `/${b}/secret.txt`, { host: 'x', date, authorization: `AWS ${ALICE.accessKey}:${sig.replace(/^./, 'A')}x` });
    expect(errorOf(bad).Code).toBe('SignatureDoesNotMatch');
  });
});

describe('SigV2 canonical resource and dates', () => {
  const v2 = (toSign: string, u: User = ALICE) => `AWS ${u.accessKey}:${createHmac('sha1', u.secretKey).update(toSign).digest('base64')}`;

  it('a bucket-level request is signed over /bucket/ by host or sent as /bucket/, over the path as sent otherwise', async () => {
    const date = new Date().toUTCString();
    const auth = v2(`GET\n\n\n${date}\n/${b}/`);
    for (const [path, host] of [[`/${b}/`, `127.0.0.1:${s.port}`], ['/', `${b}.localhost:${s.port}`]] as const) {
      const r = await send(s.port, 'GET', path, { host, date, authorization: auth });
      expect([path, host, r.status], r.text).toEqual([path, host, 200]);
      expect(r.text).toContain('<Key>secret.txt</Key>');
    }
    // Sent as /bucket, the resource is /bucket (AWS's rule; RGW and Swift's s3api refuse /bucket/ there too).
    expect((await send(s.port, 'GET', `/${b}`, { host: `127.0.0.1:${s.port}`, date, authorization: v2(`GET\n\n\n${date}\n/${b}`) })).status).toBe(200);
    const other = await send(s.port, 'GET', `/${b}`, { host: `127.0.0.1:${s.port}`, date, authorization: auth });
    expect([other.status, errorOf(other).Code]).toEqual([403, 'SignatureDoesNotMatch']);
  });

  it('a missing, empty, unreadable or pre-epoch date is 403 AccessDenied; a stale one RequestTimeTooSkewed', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['missing', {}, 'AccessDenied'],
      ['empty x-amz-date', { 'x-amz-date': '' }, 'AccessDenied'],
      ['empty Date', { date: '' }, 'AccessDenied'],
      ['unreadable', { date: 'yesterday' }, 'AccessDenied'],
      ['pre-epoch', { date: 'Wed, 31 Dec 1969 23:59:59 GMT' }, 'AccessDenied'],
      ['stale', { date: new Date(Date.now() - 3600_000).toUTCString() }, 'RequestTimeTooSkewed'],
    ];
    for (const [what, dates, code] of cases) {
      const amz = dates['x-amz-date'] !== undefined ? 'x-amz-date:\n' : '';
      const headers = { host: `127.0.0.1:${s.port}`, ...dates, authorization: v2(`GET\n\n\n${amz ? '' : (dates.date ?? '')}\n${amz}/${b}/secret.txt`) };
      const r = await send(s.port, 'GET', `/${b}/secret.txt`, headers);
      expect([what, r.status, errorOf(r).Code]).toEqual([what, 403, code]);
    }
  });
});

describe('Authorization header layouts', () => {
  it('accepts the fields in another order and spacing, and names a missing one as malformed', async () => {
    const { headers } = await signRequest(s, 'GET', `/${b}/secret.txt`, { as: ALICE });
    const fields = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=(\w+)$/.exec(headers.authorization!)!;
    const [, credential, signedHeaders, signature] = fields;
    const reordered = `AWS4-HMAC-SHA256  Signature=${signature} ,Credential=${credential},SignedHeaders=${signedHeaders}`;
    const ok = await send(s.port, 'GET', `/${b}/secret.txt`, { ...headers, authorization: reordered });
    expect([ok.status, ok.body.toString()]).toEqual([200, 'private data']);
    const forged = await send(s.port, 'GET', `/${b}/secret.txt`, { ...headers, authorization: reordered.replace(/Signature=(\w)/, (_, ch: string) => `Signature=${ch === '0' ? '1' : '0'}`) });
    expect([forged.status, errorOf(forged).Code]).toEqual([403, 'SignatureDoesNotMatch']);
    const missing = await send(s.port, 'GET', `/${b}/secret.txt`, { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${credential}, SignedHeaders=${signedHeaders}` });
    expect([missing.status, errorOf(missing).Code]).toEqual([400, 'AuthorizationHeaderMalformed']);
  });
});
