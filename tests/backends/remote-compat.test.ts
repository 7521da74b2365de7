// The contract suite on the remote S3 backend against Coffer's own compatible API over real
// HTTP on 127.0.0.1 (path style), plus virtual-host addressing and usage figures.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteS3Backend, type RemoteS3Config } from '../../src-main/backends/remote-compat.js';
import { Engine } from '../../src-main/engine/index.js';
import { ALICE, clientFor, encodePath, startS3Server, type S3TestServer } from '../compat/server.js';
import { describeBackendContract } from './contract.js';
import { chunkedStream, containerName, crc32Of, loopbackAgent, md5, readAll } from './helpers.js';

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

function configFor(server: S3TestServer, extra: Partial<RemoteS3Config> = {}): RemoteS3Config {
  return { endpoint: server.url, region: 'us-east-1', accessKeyId: ALICE.accessKey, secretAccessKey: ALICE.secretKey, forcePathStyle: true, ...extra };
}

describeBackendContract('remote S3 (path style)', async () => {
  const server = await startS3Server({ users: [ALICE] });
  const port = await closedPort();
  const made: RemoteS3Backend[] = [];
  const make = (extra: Partial<RemoteS3Config> = {}) => {
    const b = new RemoteS3Backend(configFor(server, extra));
    made.push(b);
    return b;
  };
  const s3 = clientFor(server.url, ALICE, { forcePathStyle: true });
  return {
    backend: make(),
    publicUrl: (c, name) => `${server.url}${encodePath(`/${c}/${name}`)}`,
    pendingUploads: async (c) => server.engine.listUploads(Engine.ref(ALICE.account, c)).uploads.length,
    s3,
    withWrongCredentials: () => make({ secretAccessKey: 'not-the-secret' }),
    // Coffer's own S3 API keeps object lock since issue 26 (CreateBucket with x-amz-bucket-object-lock-enabled).
    honoursObjectLock: true,
    unreachable: () => make({ endpoint: `http://127.0.0.1:${port}`, maxAttempts: 2 }),
    close: async () => {
      s3.destroy();
      for (const b of made) b.close();
      await server.close();
    },
  };
});

describe('RemoteS3Backend specifics', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3Server({ users: [ALICE] });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('works with virtual-host addressing (bucket.localhost:PORT)', async () => {
    const backend = new RemoteS3Backend(configFor(server, { endpoint: `http://localhost:${server.port}`, forcePathStyle: false, httpAgent: loopbackAgent() }));
    try {
      const c = containerName('vhost');
      await backend.createContainer(c);
      await backend.upload(c, 'dir/a b.txt', { stream: Readable.from([Buffer.from('virtual host')]) });
      const names: string[] = [];
      for await (const page of backend.listFolder(c, { prefix: 'dir/' })) names.push(...page.entries.map((e) => (e.kind === 'folder' ? e.prefix : e.name)));
      expect(names).toEqual(['dir/a b.txt']);
      expect((await readAll((await backend.download(c, 'dir/a b.txt')).body)).toString()).toBe('virtual host');
      expect((await backend.listContainers()).map((x) => x.name)).toContain(c);
    } finally {
      backend.close();
    }
  });

  it('reports usage and quota from the X-RGW-* headers of HeadBucket, exactly as the engine counts', async () => {
    const backend = new RemoteS3Backend(configFor(server));
    try {
      await server.engine.setAccountQuota(ALICE.account, { maxBytes: 10_000_000 });
      const c = containerName('usage');
      await backend.createContainer(c);
      await backend.upload(c, 'x', { stream: Readable.from([Buffer.alloc(1234)]) });
      const info = await backend.accountInfo();
      const engine = server.engine.getAccount(ALICE.account);
      expect(info.usage).toEqual({ objects: engine.usage.objects, bytes: engine.usage.bytes, containers: engine.usage.containers });
      expect(info.quota).toEqual({ maxBytes: 10_000_000, maxObjects: null });
      const listed = (await backend.listContainers()).find((x) => x.name === c);
      expect(listed).toMatchObject({ objects: 1, bytes: 1234 });
    } finally {
      await server.engine.setAccountQuota(ALICE.account, { maxBytes: -1 });
      backend.close();
    }
  });

  it('lists a type for every object, guessed from its name (S3 listings carry none), as the local store shows one', async () => {
    const backend = new RemoteS3Backend(configFor(server));
    try {
      const c = containerName('types');
      await backend.createContainer(c);
      for (const name of ['notes.txt', 'photo.JPG', 'data.json', 'no-extension', 'obj', '.txt']) await backend.upload(c, name, { stream: Readable.from([Buffer.from('x')]) });
      const types: Record<string, string | null> = {};
      for await (const page of backend.listFolder(c, {})) for (const e of page.entries) if (e.kind === 'object') types[e.name] = e.contentType;
      // A bare name has no extension: not model/obj, not text/plain for ".txt".
      expect(types).toEqual({ '.txt': null, 'data.json': 'application/json', 'no-extension': null, 'notes.txt': 'text/plain', obj: null, 'photo.JPG': 'image/jpeg' });
      expect((await backend.head(c, 'obj')).contentType).toBe('application/octet-stream');
      expect((await backend.head(c, 'photo.JPG')).contentType).toBe('image/jpeg');
    } finally {
      backend.close();
    }
  });

  it('keeps a public object public when its metadata is replaced', async () => {
    const backend = new RemoteS3Backend(configFor(server));
    try {
      const c = containerName('keepacl');
      await backend.createContainer(c);
      await backend.upload(c, 'o', { stream: Readable.from([Buffer.from('o')]) });
      await backend.setPublic(c, 'o', true);
      const after = await backend.setMetadata(c, 'o', { contentType: 'text/plain', meta: { k: 'v' }, headers: {} });
      expect(after.publicRead).toBe(true);
    } finally {
      backend.close();
    }
  });

  it('splits uploads into parts exactly at part boundaries (sizes around the part size, odd chunk sizes)', async () => {
    const part = 5 * 1024 * 1024;
    const backend = new RemoteS3Backend(configFor(server, { partSize: part, queueSize: 3 }));
    try {
      const c = containerName('parts');
      await backend.createContainer(c);
      for (const size of [0, 1, part - 1, part, part + 1, 2 * part, 2 * part + 12345]) {
        const data = randomBytes(size);
        const up = await backend.upload(c, `o-${size}`, { stream: chunkedStream(data, 100_003) });
        expect(up.size).toBe(size);
        // One PUT up to the part size (its ETag is the MD5), parts above it (`-N`).
        expect(up.etag).toEqual(size <= part ? md5(data) : expect.stringMatching(new RegExp(`-${Math.ceil(size / part)}$`)));
        expect(md5(await readAll((await backend.download(c, `o-${size}`)).body))).toBe(md5(data));
        // In parts, the server keeps the CRC32 of all the bytes (asked for at the upload's start).
        if (size > part) expect((await backend.head(c, `o-${size}`)).crc32).toBe(crc32Of(data));
      }
    } finally {
      backend.close();
    }
  });
});
