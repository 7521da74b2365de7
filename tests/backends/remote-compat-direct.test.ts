// The remote S3 backend's direct requests (remote-compat-direct.ts: whole-object GETs and plain
// PUTs without the SDK's middleware) fail as the SDK's requests do: each failure is provoked once
// through the direct request and once through the SDK (a ranged GET, an upload with metadata),
// and both must come out as the same CofferError code. Also: what reaches the server (signed as
// UNSIGNED-PAYLOAD with Content-MD5, the SDK's x-id) and what an upload answers without a HEAD.
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { createServer as createTcpServer } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteS3Backend, type RemoteS3Config } from '../../src-main/backends/remote-compat.js';
import { isCofferError } from '../../src-shared/errors.js';
import { ALICE, startS3Server, type S3TestServer } from '../compat/server.js';
import { containerName, readAll } from './helpers.js';

async function closedPort(): Promise<number> {
  const srv = createTcpServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** The CofferError code a call fails with ('ok' when it succeeds). */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    const r = await p;
    // A download fails only when its body is read (or not at all).
    if (r && typeof r === 'object' && 'body' in r) await readAll((r as { body: Readable }).body);
    return 'ok';
  } catch (err) {
    if (!isCofferError(err)) throw err;
    return err.code;
  }
}

describe('remote S3 direct requests', () => {
  let server: S3TestServer;
  const made: RemoteS3Backend[] = [];
  const make = (extra: Partial<RemoteS3Config> = {}) => {
    const b = new RemoteS3Backend({ endpoint: server.url, region: 'us-east-1', accessKeyId: ALICE.accessKey, secretAccessKey: ALICE.secretKey, forcePathStyle: true, ...extra });
    made.push(b);
    return b;
  };
  let bucket: string;

  beforeAll(async () => {
    server = await startS3Server({ users: [ALICE] });
    bucket = containerName('direct');
    await make().createContainer(bucket);
    await make().upload(bucket, 'there', { stream: Readable.from([Buffer.from('hello')]) });
  });
  afterAll(async () => {
    for (const b of made) b.close();
    await server?.close();
  });

  /** Direct: a whole GET. SDK: a GET of a range from 0 (the same bytes, through the SDK). */
  const getBoth = (b: RemoteS3Backend, c: string, name: string) => Promise.all([codeOf(b.download(c, name)), codeOf(b.download(c, name, { range: { start: 0 } }))]);
  /** A stream that fails when read: an upload given its bytes in memory must not touch it. */
  const unread = () => new Readable({ read: () => unreadStream.destroy(new Error('the stream was read')) });
  let unreadStream: Readable;
  const inMemory = (bytes: Buffer) => ({ stream: (unreadStream = unread()), size: bytes.length, bytes });
  /**
   * Direct: a plain upload from a stream, and from bytes in memory (its stream left unread). SDK:
   * the same with user metadata (the fast path takes plain ones only).
   */
  const putBoth = (b: RemoteS3Backend, c: string, name: string) =>
    Promise.all([
      codeOf(b.upload(c, name, { stream: Readable.from([Buffer.from('bytes')]) })),
      codeOf(b.upload(c, name, inMemory(Buffer.from('bytes')))),
      codeOf(b.upload(c, name, { stream: Readable.from([Buffer.from('bytes')]) }, { meta: { via: 'sdk' } })),
    ]);

  it('reads and writes as the SDK does', async () => {
    const b = make();
    expect(await getBoth(b, bucket, 'there')).toEqual(['ok', 'ok']);
    expect(await putBoth(b, bucket, 'new')).toEqual(['ok', 'ok', 'ok']);
  });

  it('a missing key, a missing bucket', async () => {
    const b = make();
    expect(await getBoth(b, bucket, 'not-there')).toEqual(['NoSuchKey', 'NoSuchKey']);
    expect(await getBoth(b, 'no-such-bucket-here', 'x')).toEqual(['NoSuchContainer', 'NoSuchContainer']);
    expect(await putBoth(b, 'no-such-bucket-here', 'x')).toEqual(['NoSuchContainer', 'NoSuchContainer', 'NoSuchContainer']);
  });

  it('wrong credentials', async () => {
    const b = make({ secretAccessKey: 'not-the-secret' });
    expect(await getBoth(b, bucket, 'there')).toEqual(['AuthFailed', 'AuthFailed']);
    expect(await putBoth(b, bucket, 'x')).toEqual(['AuthFailed', 'AuthFailed', 'AuthFailed']);
    const stranger = make({ accessKeyId: 'NOSUCHKEY0000000', secretAccessKey: 'x' });
    expect(await getBoth(stranger, bucket, 'there')).toEqual(['AuthFailed', 'AuthFailed']);
  });

  it('an endpoint nobody answers', async () => {
    const b = make({ endpoint: `http://127.0.0.1:${await closedPort()}`, maxAttempts: 2 });
    expect(await getBoth(b, bucket, 'there')).toEqual(['Unreachable', 'Unreachable']);
    expect(await putBoth(b, bucket, 'x')).toEqual(['Unreachable', 'Unreachable', 'Unreachable']);
  });

  it('a cancelled request', async () => {
    const b = make();
    const signal = AbortSignal.abort();
    const both = await Promise.all([
      codeOf(b.download(bucket, 'there', { signal })),
      codeOf(b.download(bucket, 'there', { signal, range: { start: 0 } })),
      codeOf(b.upload(bucket, 'x', { stream: Readable.from([Buffer.from('bytes')]) }, { signal })),
      codeOf(b.upload(bucket, 'x', inMemory(Buffer.from('bytes')), { signal })),
      codeOf(b.upload(bucket, 'x', { stream: Readable.from([Buffer.from('bytes')]) }, { signal, meta: { via: 'sdk' } })),
    ]);
    expect(both).toEqual(['Aborted', 'Aborted', 'Aborted', 'Aborted', 'Aborted']);
  });

  it('a download cancelled while its body is read fails as cancelled, and the connection pool still serves', async () => {
    const b = make();
    const big = Buffer.alloc(4 << 20, 7);
    await b.upload(bucket, 'big', inMemory(big));
    const controller = new AbortController();
    const { body } = await b.download(bucket, 'big', { signal: controller.signal });
    const chunks = body[Symbol.asyncIterator]();
    expect((await chunks.next()).done).toBe(false);
    controller.abort();
    const rest = async () => {
      while (!(await chunks.next()).done);
    };
    expect(await codeOf(rest())).toBe('Aborted');
    const again = await b.download(bucket, 'big');
    expect((await readAll(again.body)).equals(big)).toBe(true);
  });

  it('a request the server never answers ends when cancelled', async () => {
    const silent = createTcpServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const b = make({ endpoint: `http://127.0.0.1:${(silent.address() as { port: number }).port}`, maxAttempts: 1 });
      const controller = new AbortController();
      const calls = [codeOf(b.download(bucket, 'there', { signal: controller.signal })), codeOf(b.upload(bucket, 'x', inMemory(Buffer.from('bytes')), { signal: controller.signal }))];
      setTimeout(() => controller.abort(), 200);
      expect(await Promise.all(calls)).toEqual(['Aborted', 'Aborted']);
    } finally {
      silent.close();
    }
  });

  it('a signal that outlives its requests keeps no listener from them', async () => {
    const b = make();
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) {
      await b.upload(bucket, `kept-${i}`, inMemory(Buffer.from(`bytes ${i}`)), { signal });
      await readAll((await b.download(bucket, `kept-${i}`, { signal })).body);
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('sends bytes in memory with the MD5 the caller computed: bytes that do not match it are refused, nothing stored', async () => {
    const b = make();
    const body = Buffer.from('the bytes as read');
    const md5 = (x: Buffer) => createHash('md5').update(x).digest('hex');
    const put = await b.upload(bucket, 'kept', inMemory(body), { md5: md5(body) });
    expect(put.etag).toBe(md5(body));
    expect(await codeOf(b.upload(bucket, 'damaged', inMemory(body), { md5: md5(Buffer.from('other bytes')) }))).toBe('BadDigest');
    expect(await codeOf(b.head(bucket, 'damaged'))).toBe('NoSuchKey');
  });

  it("answers an upload from the PUT's own answer, as the HEAD after an SDK upload would", async () => {
    const b = make();
    const body = Buffer.from('some bytes');
    const put = await b.upload(bucket, 'dir/file.txt', { stream: Readable.from([body]) });
    const head = await b.head(bucket, 'dir/file.txt');
    expect(put.etag).toBe(createHash('md5').update(body).digest('hex'));
    expect(put).toMatchObject({ etag: head.etag, size: head.size, contentType: head.contentType, meta: head.meta, versionId: head.versionId });
    expect(Math.abs(Date.parse(put.lastModified) - Date.parse(head.lastModified))).toBeLessThan(2000);
    const { details, body: got } = await b.download(bucket, 'dir/file.txt');
    expect((await readAll(got)).equals(body)).toBe(true);
    expect(details).toMatchObject({ etag: head.etag, size: head.size, contentType: head.contentType, lastModified: head.lastModified });
  });
});
