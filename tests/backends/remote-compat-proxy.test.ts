// The remote S3 backend through a proxy in front of Coffer's server that fails (or answers) the
// requests a test picks. Retries: idempotent requests are retried with backoff (503 SlowDown,
// 500, a reset connection), the unrepeatable ones (CreateMultipartUpload, Complete) are not.
// RGW's `GET /?usage`, which Coffer does not have, is answered here as RGW would.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RemoteS3Backend } from '../../src-main/backends/remote-compat.js';
import { ALICE, startS3Server, type S3TestServer } from '../compat/server.js';
import { containerName, expectCode, generatedStream, readAll } from './helpers.js';

type Fault = 'slowdown' | 'internal' | 'reset' | 'rgw-usage';
/** Decides, per request, whether to fail it; `seen` counts the requests it matched. */
interface Rule {
  matches(req: IncomingMessage): boolean;
  fault: Fault;
  /** How many matching requests fail (Infinity: all of them). */
  times: number;
  seen: number;
}

let server: S3TestServer;
let proxy: Server;
let proxyUrl: string;
let rules: Rule[] = [];
/** Headers of every request that passed, for checks on what the backend sends. */
let passed: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];

/** What RGW answers to `GET /?usage` (src/rgw/rgw_rest_s3.cc, RGWGetUsage_ObjStore_S3). */
const RGW_USAGE =
  '<?xml version="1.0" encoding="UTF-8"?><Usage xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Entries></Entries>' +
  '<Summary><User><User>alice</User><Total><BytesSent>10</BytesSent><BytesReceived>20</BytesReceived><Ops>3</Ops><SuccessfulOps>3</SuccessfulOps></Total></User>' +
  '<QuotaMaxBytes>1073741824</QuotaMaxBytes><QuotaMaxBuckets>1000</QuotaMaxBuckets><QuotaMaxObjCount>-1</QuotaMaxObjCount>' +
  '<QuotaMaxBytesPerBucket>-1</QuotaMaxBytesPerBucket><QuotaMaxObjCountPerBucket>-1</QuotaMaxObjCountPerBucket>' +
  '<TotalBytes>12345</TotalBytes><TotalBytesRounded>16384</TotalBytesRounded><TotalEntries>3</TotalEntries></Summary>' +
  '<CapacityUsed><User><Buckets><Entry><Bucket>b1</Bucket><Bytes>12345</Bytes><Bytes_Rounded>16384</Bytes_Rounded></Entry></Buckets></User></CapacityUsed></Usage>';

function failWith(res: ServerResponse, req: IncomingMessage, fault: Fault): void {
  if (fault === 'rgw-usage') {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(RGW_USAGE);
    return;
  }
  if (fault === 'reset') {
    req.socket.destroy();
    return;
  }
  const [status, code] = fault === 'slowdown' ? [503, 'SlowDown'] : [500, 'InternalError'];
  req.resume();
  req.on('end', () => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>injected ${code}</Message></Error>`);
  });
}

beforeAll(async () => {
  server = await startS3Server({ users: [ALICE] });
  proxy = createServer((req, res) => {
    const rule = rules.find((r) => r.matches(req));
    if (rule) rule.seen++;
    if (rule && rule.seen <= rule.times) return failWith(res, req, rule.fault);
    passed.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    // The Host header is forwarded as signed (the server checks the signature against it).
    const upstream = request({ host: '127.0.0.1', port: server.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await server?.close();
});

beforeEach(() => {
  rules = [];
  passed = [];
});

function rule(method: string, test: (url: string) => boolean, fault: Fault, times = 1): Rule {
  const r: Rule = { matches: (req) => req.method === method && test(req.url ?? ''), fault, times, seen: 0 };
  rules.push(r);
  return r;
}

function backend(maxAttempts = 3): RemoteS3Backend {
  return new RemoteS3Backend({ endpoint: proxyUrl, region: 'us-east-1', accessKeyId: ALICE.accessKey, secretAccessKey: ALICE.secretKey, forcePathStyle: true, maxAttempts });
}

describe('retries', () => {
  it('retries a download after 503 SlowDown and a listing after a reset connection', async () => {
    const b = backend();
    try {
      const c = containerName('retry');
      await b.createContainer(c);
      await b.upload(c, 'obj', { stream: Readable.from([Buffer.from('payload')]) });
      const get = rule('GET', (u) => u.startsWith(`/${c}/obj`) && !u.includes('acl'), 'slowdown');
      expect((await readAll((await b.download(c, 'obj')).body)).toString()).toBe('payload');
      expect(get.seen).toBe(2);

      const list = rule('GET', (u) => /^\/[^/]+\/?(\?|$)/.test(u) && u.startsWith(`/${c}`), 'reset');
      const names: string[] = [];
      for await (const page of b.listFolder(c)) names.push(...page.entries.map((e) => (e.kind === 'folder' ? e.prefix : e.name)));
      expect(names).toEqual(['obj']);
      expect(list.seen).toBe(2);
    } finally {
      b.close();
    }
  });

  it('gives up after maxAttempts and reports the server message', async () => {
    const b = backend(3);
    try {
      const c = containerName('giveup');
      await b.createContainer(c);
      const head = rule('HEAD', (u) => u.startsWith(`/${c}/x`), 'internal', Infinity);
      const headErr = await expectCode(b.head(c, 'x'), 'RemoteError');
      expect(head.seen).toBe(3);
      expect(headErr.message).toMatch(/HTTP 500/);
      const get = rule('GET', (u) => u.startsWith(`/${c}/x`), 'slowdown', Infinity);
      const getErr = await expectCode(b.download(c, 'x'), 'RemoteError');
      expect(get.seen).toBe(3);
      expect(getErr.message).toBe('SlowDown: injected SlowDown');
    } finally {
      b.close();
    }
  });

  it('retries a failed part of a multipart upload (its bytes are in memory, so they can be sent again)', async () => {
    const b = backend();
    try {
      const c = containerName('part');
      await b.createContainer(c);
      const part = rule('PUT', (u) => u.includes('partNumber=2'), 'internal');
      const d = await b.upload(c, 'big', { stream: generatedStream(20 * 1024 * 1024) });
      expect(d.size).toBe(20 * 1024 * 1024);
      expect(part.seen).toBe(2);
    } finally {
      b.close();
    }
  });

  it('does not repeat CreateMultipartUpload or CompleteMultipartUpload; nothing is left behind', async () => {
    const b = backend();
    try {
      const c = containerName('noretry');
      await b.createContainer(c);
      const create = rule('POST', (u) => u.includes('uploads'), 'slowdown');
      await expectCode(b.upload(c, 'big', { stream: generatedStream(12 * 1024 * 1024) }), 'RemoteError');
      expect(create.seen).toBe(1);

      const complete = rule('POST', (u) => u.includes('uploadId='), 'internal');
      await expectCode(b.upload(c, 'big', { stream: generatedStream(12 * 1024 * 1024) }), 'RemoteError');
      expect(complete.seen).toBe(1);
      await expectCode(b.head(c, 'big'), 'NoSuchKey');
      expect(server.engine.listUploads({ tenant: 'test', container: c }).uploads).toEqual([]);
    } finally {
      b.close();
    }
  });

  it('does not retry client errors (403, 404)', async () => {
    const b = backend();
    try {
      const c = containerName('fourxx');
      await b.createContainer(c);
      const seen = rule('GET', (u) => u.startsWith(`/${c}/missing`) && !u.includes('acl'), 'internal', 0);
      await expectCode(b.download(c, 'missing'), 'NoSuchKey');
      expect(seen.seen).toBe(1);
    } finally {
      b.close();
    }
  });
});

describe('usage from RGW', () => {
  it('takes usage and quota from `GET /?usage` where the endpoint answers it (signed, no HEAD per bucket)', async () => {
    const b = backend();
    try {
      const usage = rule('GET', (u) => u.startsWith('/?') && /[?&]usage(=|&|$)/.test(u), 'rgw-usage', Infinity);
      const heads = rule('HEAD', () => true, 'internal', 0);
      const info = await b.accountInfo();
      expect(usage.seen).toBe(1);
      expect(heads.seen).toBe(0);
      expect(info.usage).toMatchObject({ objects: 3, bytes: 12345 });
      expect(info.quota).toEqual({ maxBytes: 1073741824, maxObjects: null });
    } finally {
      b.close();
    }
  });

  it('asks once: an endpoint that answers `?usage` with something else falls back to HeadBucket from then on', async () => {
    const b = backend();
    try {
      const usage = rule('GET', (u) => u.startsWith('/?') && /[?&]usage(=|&|$)/.test(u), 'internal', 0);
      const first = await b.accountInfo();
      await b.accountInfo();
      expect(usage.seen).toBe(1);
      expect(typeof first.usage.bytes).toBe('number');
    } finally {
      b.close();
    }
  });
});

describe('requests for servers that are not AWS', () => {
  it('sends Content-MD5 with multi-deletes, single PUTs and parts (MinIO/RGW want it; corruption becomes BadDigest)', async () => {
    const b = backend();
    try {
      const c = containerName('md5');
      await b.createContainer(c);
      await b.upload(c, 'small', { stream: Readable.from([Buffer.from('small')]) });
      await b.upload(c, 'large', { stream: generatedStream(9 * 1024 * 1024) });
      expect((await b.deleteMany(c, ['small', 'large'])).deleted.sort()).toEqual(['large', 'small']);
      const writes = passed.filter((r) => /x-id=(PutObject|UploadPart)|[?&]delete=/.test(r.url));
      expect(writes.length).toBe(4); // the small PUT, two parts, the multi-delete
      for (const w of writes) expect(w.headers['content-md5'], `${w.method} ${w.url}`).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    } finally {
      b.close();
    }
  });
});
