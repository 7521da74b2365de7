// The remote Swift backend against Coffer's own native API over real HTTP on 127.0.0.1: the
// shared contract suite, then every interface operation in Swift's terms (sign-in and failures:
// remote-native-auth.test.ts; large objects and memory: remote-native-large.test.ts).
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteNativeBackend } from '../../src-main/backends/remote-native.js';
import { listingDate } from '../../src-main/backends/swift/listing.js';
import { SwiftClient } from '../../src-main/backends/swift/client.js';
import { describeBackendContract } from './contract.js';
import { dloMaker, sloMaker } from './helpers.js';
import {
  ACCOUNT,
  allEntries,
  bytes,
  containerName,
  expectCode,
  KEY,
  md5,
  readAll,
  requests,
  startCoffer,
  tempFile,
  USER,
  v1Backend,
  type Coffer,
} from './remote-native-setup.js';

let coffer: Coffer;
let backend: RemoteNativeBackend;

describeBackendContract('remote native (Swift)', async () => {
  const server = await startCoffer();
  const made: RemoteNativeBackend[] = [];
  const make = (b: RemoteNativeBackend) => (made.push(b), b);
  const main = make(v1Backend(server));
  await main.connect();
  const dead = createServer();
  await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
  const port = (dead.address() as AddressInfo).port;
  await new Promise((r) => dead.close(r));
  return {
    backend: main,
    publicUrl: (c, name) => {
      const { origin, path } = SwiftClient.pathOf(main.session()!.storageUrl, c, name);
      return origin + path;
    },
    lacks: { versions: 'the Swift backend offers no versions (Coffer serves no Swift versioning to map them from)' },
    withWrongCredentials: () => make(new RemoteNativeBackend({ authUrl: server.authUrl, auth: { type: 'v1', user: USER, key: 'wrong' } })),
    putSlo: sloMaker(main.session()!.storageUrl, main.session()!.token),
    putDlo: dloMaker(main.session()!.storageUrl, main.session()!.token),
    unreachable: () => make(new RemoteNativeBackend({ authUrl: `http://127.0.0.1:${port}/auth/1.0`, auth: { type: 'v1', user: USER, key: KEY }, backoffMs: 5 })),
    close: async () => {
      for (const b of made) b.close();
      await server.close();
    },
  };
});

beforeAll(async () => {
  coffer = await startCoffer();
  backend = v1Backend(coffer);
});
afterAll(async () => {
  backend?.close();
  await coffer?.close();
});

describe('account and containers', () => {
  it('connects and reads the capabilities from /info', async () => {
    const caps = await backend.connect();
    expect(caps).toEqual({
      versions: true,
      publicRead: true,
      publicObjects: false,
      shareLinks: true,
      quota: true,
      serverSideCopy: true,
      bulkDelete: true,
      multipartUpload: true,
      containerQuota: true,
      objectLock: false,
      lifecycle: false,
      containerTags: false,
      why: {
        objectLock: 'Swift has no object lock',
        lifecycle: 'Swift has no lifecycle rules: it expires objects one by one (X-Delete-After, given when an object is written)',
        containerTags: 'Swift has no container tags: a container carries metadata (X-Container-Meta-*) instead',
      },
    });
    expect(backend.kind).toBe('swift');
    expect(backend.session()?.storageUrl).toContain('/v1/AUTH_test$tester');
  });

  it('reports usage, and quota only when the account has one', async () => {
    const c = containerName();
    await backend.createContainer(c);
    await backend.upload(c, 'x', { stream: Readable.from([Buffer.from('12345')]), size: 5 });
    const info = await backend.accountInfo();
    expect(info.id).toBe(ACCOUNT);
    expect(info.displayName).toBe(USER);
    expect(info.usage.objects).toBeGreaterThanOrEqual(1);
    expect(info.usage.bytes).toBeGreaterThanOrEqual(5);
    expect(info.usage.containers).toBeGreaterThanOrEqual(1);
    expect(info.quota).toEqual({ maxBytes: null, maxObjects: null });
    await coffer.app.engine.setAccountQuota(ACCOUNT, { maxBytes: 1 << 30, maxObjects: 1000 });
    expect((await backend.accountInfo()).quota).toEqual({ maxBytes: 1 << 30, maxObjects: 1000 });
    await coffer.app.engine.setAccountQuota(ACCOUNT, { maxBytes: -1, maxObjects: -1 });
  });

  it('creates (idempotently), lists and deletes containers', async () => {
    const c = containerName('list');
    await backend.createContainer(c);
    await backend.createContainer(c);
    await backend.upload(c, 'a', { stream: Readable.from([Buffer.from('abc')]), size: 3 });
    const found = (await backend.listContainers()).find((x) => x.name === c);
    expect(found).toMatchObject({ name: c, objects: 1, bytes: 3 });
    expect(Date.parse(found!.created!)).toBeGreaterThan(Date.now() - 60_000);
    await expectCode(backend.deleteContainer(c), 'ContainerNotEmpty');
    await backend.delete(c, 'a');
    await backend.deleteContainer(c);
    expect((await backend.listContainers()).some((x) => x.name === c)).toBe(false);
    await expectCode(backend.deleteContainer(c), 'NoSuchContainer');
  });
});

describe('objects', () => {
  const c = containerName('obj');
  beforeAll(() => backend.createContainer(c));

  it('uploads a stream with metadata and standard headers, and reads it back', async () => {
    const data = bytes(100_000);
    const seen: number[] = [];
    const up = await backend.upload(c, 'dir/ünï code.bin', { stream: Readable.from([data.subarray(0, 50_000), data.subarray(50_000)]), size: data.length }, {
      contentType: 'application/x-test',
      meta: { Colour: 'grün', plain: 'v' },
      headers: { contentDisposition: 'attachment; filename="x.bin"', cacheControl: 'no-cache' },
      onProgress: (n) => seen.push(n),
    });
    expect(up).toMatchObject({ container: c, name: 'dir/ünï code.bin', size: data.length, etag: md5(data), contentType: 'application/x-test', meta: { colour: 'grün', plain: 'v' } });
    expect(seen.at(-1)).toBe(data.length);
    const head = await backend.head(c, 'dir/ünï code.bin');
    expect(head).toMatchObject({ size: data.length, etag: md5(data), contentType: 'application/x-test', meta: { colour: 'grün', plain: 'v' }, versionId: null });
    expect(head.headers).toEqual({ contentDisposition: 'attachment; filename="x.bin"', cacheControl: 'no-cache' });
    expect(Date.parse(head.lastModified)).toBeGreaterThan(Date.now() - 60_000);
    const got = await backend.download(c, 'dir/ünï code.bin');
    expect(got.details.etag).toBe(md5(data));
    expect((await readAll(got.body)).equals(data)).toBe(true);
  });

  it('uploads a file (guessing the content type) and a stream of unknown size', async () => {
    const data = bytes(70_000);
    const f = tempFile(data);
    try {
      const up = await backend.upload(c, 'photo.png', { path: f.path });
      expect(up).toMatchObject({ size: data.length, etag: md5(data), contentType: 'image/png' });
      const chunked = await backend.upload(c, 'piped', { stream: Readable.from([data.subarray(0, 10), data.subarray(10)]) });
      expect(chunked.size).toBe(data.length);
      expect((await backend.head(c, 'piped')).etag).toBe(md5(data));
    } finally {
      f.remove();
    }
  });

  it('sends bytes in memory as they are, with their MD5: the stream beside them stays unread, and bytes that do not match are refused, nothing stored', async () => {
    const data = bytes(5000);
    const unread = new Readable({ read: () => unread.destroy(new Error('the stream was read')) });
    const up = await backend.upload(c, 'in-memory.bin', { stream: unread, size: data.length, bytes: data }, { md5: md5(data) });
    expect(up).toMatchObject({ size: data.length, etag: md5(data) });
    expect(unread.destroyed).toBe(false);
    expect((await readAll((await backend.download(c, 'in-memory.bin')).body)).equals(data)).toBe(true);
    // The MD5 the caller read is not the bytes' (they changed in memory since): the server refuses them.
    await expectCode(backend.upload(c, 'damaged.bin', { stream: Readable.from([]), size: data.length, bytes: data }, { md5: md5(bytes(5000)) }), 'BadDigest');
    await expectCode(backend.head(c, 'damaged.bin'), 'NoSuchKey');
  });

  it('downloads a range, with progress', async () => {
    const data = bytes(10_000);
    await backend.upload(c, 'ranged', { stream: Readable.from([data]), size: data.length });
    const seen: number[] = [];
    const part = await backend.download(c, 'ranged', { range: { start: 100, end: 199 }, onProgress: (n) => seen.push(n) });
    expect(part.details.size).toBe(data.length);
    expect((await readAll(part.body)).equals(data.subarray(100, 200))).toBe(true);
    expect(seen.at(-1)).toBe(100);
    const tail = await backend.download(c, 'ranged', { range: { start: 9_990 } });
    expect((await readAll(tail.body)).equals(data.subarray(9_990))).toBe(true);
    await expectCode(backend.download(c, 'ranged', { range: { start: 20_000 } }), 'InvalidRange');
  });

  it('cancels a download', async () => {
    const data = bytes(4 * 1024 * 1024);
    await backend.upload(c, 'big-dl', { stream: Readable.from([data]), size: data.length });
    const ac = new AbortController();
    const got = await backend.download(c, 'big-dl', { signal: ac.signal });
    const read = readAll(got.body);
    ac.abort();
    await expectCode(read, 'Aborted');
    await expectCode(backend.download(c, 'big-dl', { signal: ac.signal }), 'Aborted');
  });

  it('ends a request the server never answers when cancelled, and keeps no listener on a signal that outlives its requests', async () => {
    // A server that takes the request and never answers: only the cancel can end it.
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket.on('data', () => undefined)));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const storageUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/AUTH_silent`;
    // Its requests would wait longer than the test may: only the cancel ends them (/info, asked for first by an upload, included).
    const quiet = new RemoteNativeBackend({ auth: { type: 'token', token: 'AUTH_tk', storageUrl }, timeoutMs: 600_000 });
    try {
      for (const call of [(signal: AbortSignal) => quiet.download(c, 'o', { signal }), (signal: AbortSignal) => quiet.upload(c, 'o', { stream: Readable.from([Buffer.from('x')]), size: 1, bytes: Buffer.from('x') }, { signal })]) {
        const ac = new AbortController();
        const pending = call(ac.signal);
        setTimeout(() => ac.abort(), 50);
        await expectCode(pending, 'Aborted');
      }
    } finally {
      quiet.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) {
      await backend.upload(c, `kept-${i}`, { stream: Readable.from([Buffer.from(`bytes ${i}`)]), bytes: Buffer.from(`bytes ${i}`) }, { signal });
      await readAll((await backend.download(c, `kept-${i}`, { signal })).body);
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('says which thing is missing', async () => {
    await expectCode(backend.head(c, 'nope'), 'NoSuchKey');
    await expectCode(backend.head('no-such-container', 'nope'), 'NoSuchContainer');
    await expectCode(backend.download(c, 'nope'), 'NoSuchKey');
    await expectCode(backend.upload('no-such-container', 'x', { stream: Readable.from([Buffer.from('x')]), size: 1 }), 'NoSuchContainer');
    // Deleting what is not there succeeds (as on S3); a missing container is still an error.
    await backend.delete(c, 'nope');
    await expectCode(backend.delete('no-such-container', 'nope'), 'NoSuchContainer');
    await expectCode(backend.setMetadata(c, 'nope', { contentType: 'a/b', meta: {}, headers: {} }), 'NoSuchKey');
    // A container never versioned has no versions to name (Swift's object versioning: 400).
    await expectCode(backend.head(c, 'x', { versionId: 'v1' }), 'InvalidArgument');
    await expectCode(backend.upload(c, 'short', { stream: Readable.from([Buffer.from('abc')]), size: 10 }), 'IncompleteBody');
    await expectCode(backend.upload(c, 'long', { stream: Readable.from([Buffer.from('abcdefghijkl')]), size: 10 }), 'InvalidArgument');
    await expectCode(backend.head(c, 'short'), 'NoSuchKey');
    await expectCode(backend.upload(c, 'bad-meta', { stream: Readable.from([Buffer.from('x')]), size: 1 }, { meta: { 'bad name': 'x' } }), 'InvalidArgument');
  });

  it('copies server-side', async () => {
    const data = bytes(5000);
    await backend.upload(c, 'src name', { stream: Readable.from([data]), size: data.length }, { meta: { k: 'v' }, contentType: 'text/x-src' });
    const d = containerName('dst');
    await backend.createContainer(d);
    const copied = await backend.copy({ container: c, name: 'src name' }, { container: d, name: 'a/copy' });
    expect(copied).toMatchObject({ container: d, name: 'a/copy', size: data.length, etag: md5(data), meta: { k: 'v' }, contentType: 'text/x-src' });
    expect((await readAll((await backend.download(d, 'a/copy')).body)).equals(data)).toBe(true);
    await expectCode(backend.copy({ container: c, name: 'missing' }, { container: d, name: 'x' }), 'NoSuchKey');
    await expectCode(backend.copy({ container: c, name: 'src name' }, { container: 'no-such-dst', name: 'x' }), 'NoSuchContainer');
  });

  it('replaces metadata, keeping bytes and ETag', async () => {
    const data = bytes(3000);
    await backend.upload(c, 'meta', { stream: Readable.from([data]), size: data.length }, { meta: { old: '1', keep: 'x' }, contentType: 'text/plain', headers: { contentLanguage: 'en' } });
    const after = await backend.setMetadata(c, 'meta', { contentType: 'application/json', meta: { keep: 'x', new: 'ñ' }, headers: { contentLanguage: 'de', contentEncoding: 'identity' } });
    expect(after).toMatchObject({ etag: md5(data), size: data.length, contentType: 'application/json', meta: { keep: 'x', new: 'ñ' } });
    expect(after.meta.old).toBeUndefined();
    expect(after.headers).toMatchObject({ contentLanguage: 'de', contentEncoding: 'identity' });
    expect((await readAll((await backend.download(c, 'meta')).body)).equals(data)).toBe(true);
  });

  it('keeps an expiry across a metadata edit', async () => {
    await backend.upload(c, 'expiring', { stream: Readable.from([Buffer.from('x')]), size: 1 }, { contentType: 'text/plain' });
    const at = Math.floor(Date.now() / 1000) + 3600;
    const url = `${backend.session()!.storageUrl}/${c}/expiring`;
    await fetch(url, { method: 'POST', headers: { 'X-Auth-Token': backend.session()!.token, 'X-Delete-At': String(at) } });
    await backend.setMetadata(c, 'expiring', { contentType: 'text/plain', meta: { a: 'b' }, headers: {} });
    const res = await fetch(url, { method: 'HEAD', headers: { 'X-Auth-Token': backend.session()!.token } });
    expect(res.headers.get('x-delete-at')).toBe(String(at));
  });
});

describe('folders and listings', () => {
  const c = containerName('folders');
  beforeAll(async () => {
    await backend.createContainer(c);
    for (const n of ['a/1', 'a/2', 'a/3', 'b/x', 'c', 'd', 'e/f/g', 'h']) await backend.upload(c, n, { stream: Readable.from([Buffer.from(n)]), size: n.length });
    await backend.createFolder(c, 'empty');
  });

  it('lists a folder with subfolders, page after page', async () => {
    const expected = ['a/', 'b/', 'c', 'd', 'e/', 'empty/', 'h'];
    for (const pageSize of [1, 2, 3, 7, 100]) {
      expect(await allEntries(backend.listFolder(c, { pageSize })), `pageSize ${pageSize}`).toEqual(expected);
    }
    const pages = [];
    for await (const p of backend.listFolder(c, { pageSize: 4 })) pages.push(p);
    expect(pages.map((p) => p.entries.length)).toEqual([4, 3]);
    expect(pages[0]!.nextMarker).toBe('d');
    expect(pages[1]!.nextMarker).toBeNull();
    // A page that fills exactly: a marker, then the end without an empty page.
    const exact = [];
    for await (const p of backend.listFolder(c, { pageSize: 7 })) exact.push(p);
    expect(exact.map((p) => [p.entries.length, p.nextMarker])).toEqual([[7, 'h']]);
  });

  it('lists inside a prefix, flat, and from a marker', async () => {
    expect(await allEntries(backend.listFolder(c, { prefix: 'a/', pageSize: 2 }))).toEqual(['a/1', 'a/2', 'a/3']);
    expect(await allEntries(backend.listFolder(c, { prefix: 'e/' }))).toEqual(['e/f/']);
    expect(await allEntries(backend.listFolder(c, { delimiter: '' }))).toEqual(['a/1', 'a/2', 'a/3', 'b/x', 'c', 'd', 'e/f/g', 'empty/', 'h']);
    expect(await allEntries(backend.listFolder(c, { marker: 'c' }))).toEqual(['d', 'e/', 'empty/', 'h']);
    const [first] = await (async () => {
      const out = [];
      for await (const p of backend.listFolder(c, { prefix: 'a/' })) out.push(p);
      return out;
    })();
    expect(first!.entries[0]).toMatchObject({ kind: 'object', name: 'a/1', size: 3, etag: md5('a/1') });
  });

  it('makes folder markers and hides a folder\'s own marker in its listing', async () => {
    const marker = await backend.head(c, 'empty/');
    expect(marker).toMatchObject({ size: 0, contentType: 'application/directory' });
    const pages = [];
    for await (const p of backend.listFolder(c, { prefix: 'empty/' })) pages.push(p);
    expect(pages).toEqual([{ entries: [], nextMarker: null }]);
  });

  it('fails for a missing container', async () => {
    await expectCode(allEntries(backend.listFolder('no-such', {})), 'NoSuchContainer');
  });

  it('parses listing dates in Swift, RGW and bare forms', () => {
    expect(listingDate('2014-01-15T16:41:49.390270')).toBe('2014-01-15T16:41:49.390Z');
    expect(listingDate('2014-01-15T16:41:49.390Z')).toBe('2014-01-15T16:41:49.390Z');
    expect(listingDate('2014-01-15T16:41:49')).toBe('2014-01-15T16:41:49.000Z');
    expect(listingDate(undefined)).toBeNull();
  });
});

describe('deletes', () => {
  it('deletes many (bulk), counting already-missing ones as deleted', async () => {
    const c = containerName('many');
    await backend.createContainer(c);
    const names = ['one', 'two/2', 'thrée', 'sp ace'];
    for (const n of names) await backend.upload(c, n, { stream: Readable.from([Buffer.from('z')]), size: 1 });
    const from = coffer.log.length;
    const r = await backend.deleteMany(c, [...names, 'never-there']);
    expect(r.errors).toEqual([]);
    expect(r.deleted.sort()).toEqual([...names, 'never-there'].sort());
    expect(requests(coffer, from, /POST \S+\?bulk-delete/).length).toBe(1);
    expect(await allEntries(backend.listFolder(c, { delimiter: '' }))).toEqual([]);
  });

  it('deletes one by one when the server has no bulk delete', async () => {
    const c = containerName('one-by-one');
    await backend.createContainer(c);
    for (const n of ['p', 'q']) await backend.upload(c, n, { stream: Readable.from([Buffer.from('z')]), size: 1 });
    const plain = v1Backend(coffer);
    (plain as unknown as { info: unknown; infoLoad: unknown }).infoLoad = Promise.resolve({ slo: {} });
    const from = coffer.log.length;
    expect((await plain.deleteMany(c, ['p', 'q'])).deleted.sort()).toEqual(['p', 'q']);
    expect(requests(coffer, from, /bulk-delete/)).toEqual([]);
    expect(requests(coffer, from, / DELETE /).length).toBe(2);
    plain.close();
  });
});

describe('sharing', () => {
  it('makes a container public and private again (other read grants kept)', async () => {
    const c = containerName('pub');
    await backend.createContainer(c);
    await backend.upload(c, 'o', { stream: Readable.from([Buffer.from('hello')]), size: 5 });
    const base = `${backend.session()!.storageUrl}/${c}`;
    expect((await fetch(`${base}/o`)).status).toBe(401);
    await fetch(base, { method: 'POST', headers: { 'X-Auth-Token': backend.session()!.token, 'X-Container-Read': 'test$other' } });
    await backend.setPublic(c, undefined, true);
    expect((await fetch(`${base}/o`)).status).toBe(200);
    expect((await fetch(`${base}?format=json`)).status).toBe(200);
    const acl = () => fetch(base, { method: 'HEAD', headers: { 'X-Auth-Token': backend.session()!.token } }).then((r) => r.headers.get('x-container-read'));
    expect(await acl()).toBe('test$other,.r:*,.rlistings');
    await backend.setPublic(c, undefined, false);
    expect((await fetch(`${base}/o`)).status).toBe(401);
    expect(await acl()).toBe('test$other');
    await expectCode(backend.setPublic(c, 'o', true), 'NotSupported');
  });

  it('signs TempURLs, creating the account key once', async () => {
    const c = containerName('share');
    await backend.createContainer(c);
    const data = bytes(2000);
    await backend.upload(c, 'dir/fïle name', { stream: Readable.from([data]), size: data.length });
    expect(coffer.app.engine.getAccount(ACCOUNT).meta['temp-url-key']).toBeUndefined();
    const link = await backend.shareLink(c, 'dir/fïle name', 600);
    expect(link).toMatch(/temp_url_sig=[0-9a-f]{64}&temp_url_expires=\d+$/);
    const key = coffer.app.engine.getAccount(ACCOUNT).meta['temp-url-key'];
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    await backend.shareLink(c, 'dir/fïle name', 60);
    expect(coffer.app.engine.getAccount(ACCOUNT).meta['temp-url-key']).toBe(key);
    expect((await fetch(link.replace(/temp_url_expires=\d+/, 'temp_url_expires=1'))).status).toBe(401);
    await expectCode(backend.shareLink(c, 'missing', 60), 'NoSuchKey');
  });

  it('keeps versions through Coffer\'s own object_versioning: list, restore, suspend', async () => {
    const c = containerName('versions');
    await backend.createContainer(c);
    expect(await backend.versioning(c)).toBe('unversioned');
    expect(await backend.setVersioning(c, true)).toBe('enabled');
    for (const body of ['first', 'second']) await backend.upload(c, 'o', { stream: Readable.from([Buffer.from(body)]), size: body.length });
    const versions = await backend.listVersions(c, 'o');
    expect(versions.map((v) => [v.isLatest, v.size])).toEqual([[true, 6], [false, 5]]);
    await backend.restoreVersion(c, 'o', versions[1]!.versionId);
    expect((await readAll((await backend.download(c, 'o')).body)).toString()).toBe('first');
    expect(await backend.listVersions(c, 'o')).toHaveLength(3);
    expect(await backend.setVersioning(c, false)).toBe('suspended');
  });
});
