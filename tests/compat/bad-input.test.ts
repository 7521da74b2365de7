// Bad input on the S3 API: malformed XML documents, truncated aws-chunked bodies, clients that
// hang up mid-upload, bad URIs and names, missing lengths and oversized headers. Each must end in
// the documented error (or a closed connection) with nothing visible and the server still serving.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { CreateMultipartUploadCommand, ListBucketsCommand, ListObjectsV2Command, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, errorOf, raw, send, sha256Hex, signRequest, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('bad'));
});
afterAll(async () => {
  await s?.close();
});

const code = async (p: Promise<{ status: number; text: string }>) => {
  const r = await p;
  return [r.status, errorOf(r as never).Code];
};
const tmpFiles = () => readdirSync(join(s.dataDir, 'tmp'));
const keys = async () => ((await c.send(new ListObjectsV2Command({ Bucket: b }))).Contents ?? []).map((o) => o.Key);

describe('malformed XML', () => {
  it('CompleteMultipartUpload: broken, empty, without parts, non-numeric part → MalformedXML', async () => {
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'mp' }))).UploadId!;
    await c.send(new UploadPartCommand({ Bucket: b, Key: 'mp', UploadId: id, PartNumber: 1, Body: 'x' }));
    for (const body of ['<CompleteMultipartUpload><Part>', '', '<CompleteMultipartUpload/>', '<CompleteMultipartUpload><Part><PartNumber>one</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>', 'not xml at all']) {
      expect(await code(raw(s, 'POST', `/${b}/mp?uploadId=${id}`, { as: ALICE, body }))).toEqual([400, 'MalformedXML']);
    }
    expect(await keys()).toEqual([]);
  });

  it('documents with character references (as Go clients write them) are decoded', async () => {
    const id = (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'refs' }))).UploadId!;
    const part = await c.send(new UploadPartCommand({ Bucket: b, Key: 'refs', UploadId: id, PartNumber: 1, Body: 'x' }));
    const etag = part.ETag!.replace(/"/g, '&#34;');
    const done = await raw(s, 'POST', `/${b}/refs?uploadId=${id}`, { as: ALICE, body: `<CompleteMultipartUpload><Part><ETag>${etag}</ETag><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>` });
    expect(done.status).toBe(200);
    const odd = `it's "quoted"\tand\r\nlines`;
    expect((await raw(s, 'PUT', `/${b}/${odd}`, { as: ALICE, body: 'x' })).status).toBe(200);
    await raw(s, 'PUT', `/${b}/ spaced `, { as: ALICE, body: 'x' });
    const escaped = odd.replace(/'/g, '&#39;').replace(/"/g, '&#34;').replace(/\t/g, '&#x9;').replace(/\r/g, '&#xD;').replace(/\n/g, '&#xA;');
    const del = await raw(s, 'POST', `/${b}?delete`, { as: ALICE, md5: true, body: `<Delete><Object><Key>${escaped}</Key></Object><Object><Key>refs</Key></Object><Object><Key> spaced </Key></Object></Delete>` });
    expect(del.status).toBe(200);
    expect(await keys()).toEqual([]);
  });

  it('DeleteObjects: broken, no objects, more than 1000 → MalformedXML', async () => {
    const many = `<Delete>${Array.from({ length: 1001 }, (_, i) => `<Object><Key>k${i}</Key></Object>`).join('')}</Delete>`;
    for (const body of ['<Delete><Object><Key>a</Key>', '<Delete></Delete>', '<Other/>', many]) {
      expect(await code(raw(s, 'POST', `/${b}?delete`, { as: ALICE, body, md5: true }))).toEqual([400, 'MalformedXML']);
    }
  });

  it('PutBucketVersioning: broken or an unknown status → MalformedXML, state unchanged', async () => {
    for (const body of ['<VersioningConfiguration><Status>Enabled', '<VersioningConfiguration><Status>Bogus</Status></VersioningConfiguration>', '']) {
      expect(await code(raw(s, 'PUT', `/${b}?versioning`, { as: ALICE, body }))).toEqual([400, 'MalformedXML']);
    }
    expect((await raw(s, 'GET', `/${b}?versioning`, { as: ALICE })).text).not.toContain('<Status>');
  });

  it('XML bodies are covered by the signature: another body than x-amz-content-sha256 says is refused', async () => {
    await raw(s, 'PUT', `/${b}/keep`, { as: ALICE, body: 'x' });
    const doc = '<Delete><Object><Key>keep</Key></Object></Delete>';
    const r = await raw(s, 'POST', `/${b}?delete`, { as: ALICE, body: doc, md5: true, payloadHash: sha256Hex('<Delete><Object><Key>other</Key></Object></Delete>') });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'XAmzContentSHA256Mismatch']);
    const md5 = await raw(s, 'POST', `/${b}?delete`, { as: ALICE, body: doc, headers: { 'content-md5': createHash('md5').update('other').digest('base64') } });
    expect([md5.status, errorOf(md5).Code]).toEqual([400, 'BadDigest']);
    const crc = await raw(s, 'POST', `/${b}?delete`, { as: ALICE, body: doc, headers: { 'x-amz-checksum-crc32': 'AAAAAA==' } });
    expect([crc.status, errorOf(crc).Code]).toEqual([400, 'BadDigest']);
    const policy = await raw(s, 'PUT', `/${b}?policy`, { as: ALICE, body: '{"Statement":[]}', payloadHash: sha256Hex('{}') });
    expect(errorOf(policy).Code).toBe('XAmzContentSHA256Mismatch');
    expect(await keys()).toContain('keep');
    await raw(s, 'DELETE', `/${b}/keep`, { as: ALICE });
  });

  it('DeleteObjects, PutBucketCors and PutBucketLifecycle need Content-MD5 or an x-amz-checksum-* (AWS: InvalidRequest); either one will do', async () => {
    await raw(s, 'PUT', `/${b}/kept`, { as: ALICE, body: 'x' });
    const del = '<Delete><Object><Key>kept</Key></Object></Delete>';
    const cors = '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>';
    const lifecycle = '<LifecycleConfiguration><Rule><ID>r</ID><Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>9</Days></Expiration></Rule></LifecycleConfiguration>';
    const requests: [string, string, string][] = [['POST', `/${b}?delete`, del], ['PUT', `/${b}?cors`, cors], ['PUT', `/${b}?lifecycle`, lifecycle]];
    for (const [method, path, body] of requests) {
      const bare = await raw(s, method, path, { as: ALICE, body, headers: { 'x-amz-sdk-checksum-algorithm': 'CRC32' } });
      expect([path, bare.status, errorOf(bare).Code, errorOf(bare).Message]).toEqual([path, 400, 'InvalidRequest', 'Missing required header for this request: Content-MD5 OR x-amz-checksum-*']);
    }
    expect(await keys()).toContain('kept');
    expect((await raw(s, 'GET', `/${b}?cors`, { as: ALICE })).status).toBe(404);
    const crc32Of = (text: string) => {
      const out = Buffer.alloc(4);
      out.writeUInt32BE(crc32(Buffer.from(text)));
      return out.toString('base64');
    };
    for (const [method, path, body] of requests) {
      const r = await raw(s, method, path, { as: ALICE, body, headers: { 'x-amz-checksum-crc32': crc32Of(body) } });
      expect([path, r.status]).toEqual([path, 200]);
    }
    expect(await keys()).not.toContain('kept');
    await raw(s, 'DELETE', `/${b}?cors`, { as: ALICE });
    await raw(s, 'DELETE', `/${b}?lifecycle`, { as: ALICE });
  });

  it('a digest that does not match reads the same for a document and for object bytes (one rule, the engine\'s)', async () => {
    const doc = '<Delete><Object><Key>nothing</Key></Object></Delete>';
    const wrongMd5 = { 'content-md5': createHash('md5').update('other').digest('base64') };
    const answers = await Promise.all([
      raw(s, 'POST', `/${b}?delete`, { as: ALICE, body: doc, headers: wrongMd5 }),
      raw(s, 'PUT', `/${b}/digest`, { as: ALICE, body: doc, headers: wrongMd5 }),
      raw(s, 'POST', `/${b}?delete`, { as: ALICE, body: doc, headers: { 'x-amz-checksum-sha1': Buffer.alloc(20).toString('base64') } }),
      raw(s, 'PUT', `/${b}/digest`, { as: ALICE, body: doc, headers: { 'x-amz-checksum-sha1': Buffer.alloc(20).toString('base64') } }),
    ]);
    const [docMd5, objectMd5, docSha1, objectSha1] = answers.map((r) => [r.status, errorOf(r).Code, errorOf(r).Message]);
    // AWS's words for a wrong Content-MD5 (object bytes said "Content-MD5 or ETag", a header S3 does not check).
    expect(docMd5).toEqual([400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.']);
    expect(objectMd5).toEqual(docMd5);
    expect(docSha1).toEqual([400, 'BadDigest', 'The SHA1 you specified did not match the calculated checksum.']);
    expect(objectSha1).toEqual(docSha1);
    expect(await keys()).not.toContain('digest');
  });

  it('PutBucketAcl with a broken document → MalformedACLError', async () => {
    expect(await code(raw(s, 'PUT', `/${b}?acl`, { as: ALICE, body: '<AccessControlPolicy><Owner>' }))).toEqual([400, 'MalformedACLError']);
  });
});

/** An unsigned-trailer aws-chunked body as the SDK frames it. */
function unsignedChunked(data: Buffer, opts: { dropEnd?: boolean } = {}): Buffer {
  const parts = [Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')];
  if (!opts.dropEnd) parts.push(Buffer.from('0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n'));
  return Buffer.concat(parts);
}

describe('aws-chunked bodies', () => {
  const chunkedHeaders = (decoded: number) => ({
    'content-encoding': 'aws-chunked',
    'x-amz-decoded-content-length': String(decoded),
    'x-amz-trailer': 'x-amz-checksum-crc32',
  });

  it('a body cut short (no final chunk) is IncompleteBody and stores nothing', async () => {
    const data = Buffer.alloc(1000, 'z');
    const r = await raw(s, 'PUT', `/${b}/cut`, { as: ALICE, body: unsignedChunked(data, { dropEnd: true }).subarray(0, 600), payloadHash: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER', headers: chunkedHeaders(1000) });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'IncompleteBody']);
    expect(await keys()).not.toContain('cut');
  });

  it('a trailer checksum that does not match is BadDigest; a missing decoded length is 411', async () => {
    const r = await raw(s, 'PUT', `/${b}/badsum`, { as: ALICE, body: unsignedChunked(Buffer.from('hello')), payloadHash: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER', headers: chunkedHeaders(5) });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'BadDigest']);
    const noLen = await raw(s, 'PUT', `/${b}/nolen`, { as: ALICE, body: unsignedChunked(Buffer.from('hello')), payloadHash: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER', headers: { 'content-encoding': 'aws-chunked' } });
    expect([noLen.status, errorOf(noLen).Code]).toEqual([411, 'MissingContentLength']);
    const framing = await raw(s, 'PUT', `/${b}/framing`, { as: ALICE, body: 'zz\r\nhello\r\n0\r\n\r\n', payloadHash: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER', headers: chunkedHeaders(5) });
    expect(framing.status).toBe(400);
    expect(await keys()).toEqual([]);
  });
});

describe('clients that hang up', () => {
  async function hangUp(path: string, headers: Record<string, string>, body: Buffer, sendBytes: number): Promise<void> {
    const head = `PUT ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
    await new Promise<void>((resolve, reject) => {
      const sock = connect(s.port, '127.0.0.1', () => {
        sock.write(head);
        sock.write(body.subarray(0, sendBytes), () => setTimeout(() => (sock.destroy(), resolve()), 100));
      });
      sock.on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 200));
  }

  it('a plain upload cut mid-body leaves nothing visible and no temp files; the server keeps serving', async () => {
    const body = Buffer.alloc(300_000, 'd');
    const { headers } = await signRequest(s, 'PUT', `/${b}/hangup`, { as: ALICE, body, payloadHash: 'UNSIGNED-PAYLOAD' });
    await hangUp(`/${b}/hangup`, headers, body, 150_000);
    expect(await keys()).not.toContain('hangup');
    expect(tmpFiles()).toEqual([]);
    expect((await c.send(new ListBucketsCommand({}))).Buckets!.length).toBeGreaterThan(0);
  });

  it('an aws-chunked upload cut mid-body leaves nothing either', async () => {
    const data = Buffer.alloc(200_000, 'e');
    const body = unsignedChunked(data);
    const { headers } = await signRequest(s, 'PUT', `/${b}/hangup-chunked`, {
      as: ALICE,
      payloadHash: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      headers: { 'content-encoding': 'aws-chunked', 'x-amz-decoded-content-length': String(data.length), 'content-length': String(body.length) },
    });
    await hangUp(`/${b}/hangup-chunked`, headers, body, 100_000);
    expect(await keys()).not.toContain('hangup-chunked');
    expect(tmpFiles()).toEqual([]);
    expect((await raw(s, 'GET', `/${b}?list-type=2`, { as: ALICE })).status).toBe(200);
  });
});

describe('bad URIs, names and headers', () => {
  it('bad percent-encoding or a NUL byte in the path is InvalidURI', async () => {
    for (const path of [`/${b}/bad%zzescape`, `/${b}/nul%00byte`, `/${b}/bad%C3utf8`]) {
      const r = await send(s.port, 'GET', path, { host: `127.0.0.1:${s.port}` });
      expect([r.status, errorOf(r).Code]).toEqual([400, 'InvalidURI']);
    }
  });

  it('operations on an invalid bucket name answer NoSuchBucket or InvalidBucketName, never a crash', async () => {
    expect(await code(raw(s, 'GET', '/tenant:/key', { as: ALICE }))).toEqual([400, 'InvalidBucketName']);
    expect(await code(raw(s, 'GET', '/UPPER_case?list-type=2', { as: ALICE }))).toEqual([404, 'NoSuchBucket']);
    expect(await code(raw(s, 'PUT', `/${'x'.repeat(300)}`, { as: ALICE }))).toEqual([400, 'InvalidBucketName']);
  });

  it('a PUT without Content-Length (and not chunked) is 411 MissingContentLength', async () => {
    // node:http would add Content-Length: 0 itself, so this one goes over a bare socket.
    const { headers } = await signRequest(s, 'PUT', `/${b}/nolength`, { as: ALICE, payloadHash: 'UNSIGNED-PAYLOAD', noContentLength: true });
    const head = `PUT /${b}/nolength HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\nconnection: close\r\n\r\n`;
    const reply = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const sock = connect(s.port, '127.0.0.1', () => sock.write(head));
      sock.on('data', (d: Buffer) => chunks.push(d));
      sock.on('end', () => resolve(Buffer.concat(chunks).toString()));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 411 /);
    expect(reply).toContain('<Code>MissingContentLength</Code>');
  });

  it('oversized headers are refused by the HTTP layer; the server keeps serving', async () => {
    const r = await send(s.port, 'GET', `/${b}`, { host: 'x', 'x-amz-meta-huge': 'h'.repeat(64 * 1024) }).catch(() => ({ status: 0 }));
    expect([0, 400, 431]).toContain(r.status);
    const meta = await raw(s, 'PUT', `/${b}/many-meta`, { as: ALICE, body: 'x', headers: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x-amz-meta-k${i}`, 'v'.repeat(100)])) });
    expect([meta.status, errorOf(meta).Code]).toEqual([400, 'MetadataTooLarge']);
    expect((await c.send(new ListBucketsCommand({}))).$metadata.httpStatusCode).toBe(200);
  });

  it('methods the API does not have are MethodNotAllowed; a bad max-keys is InvalidArgument', async () => {
    expect(await code(raw(s, 'PATCH', `/${b}/k`, { as: ALICE }))).toEqual([405, 'MethodNotAllowed']);
    expect(await code(raw(s, 'POST', '/', { as: ALICE }))).toEqual([405, 'MethodNotAllowed']);
    expect(await code(raw(s, 'GET', `/${b}?max-keys=-1`, { as: ALICE }))).toEqual([400, 'InvalidArgument']);
  });
});
