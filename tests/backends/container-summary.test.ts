// What the container listing tells beyond counts, on each backend against Coffer's own server:
// whether a container is public, and its own quota (the local engine directly, Swift from each
// container's HEAD, S3 from GetBucketPolicyStatus and HeadBucket's X-RGW-Quota-Bucket-* headers),
// and bytes as the quota counts them (rounded up per object: the engine, or RGW's -Actual headers).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../src-main/app-context.js';
import { LocalBackend } from '../../src-main/backends/local.js';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import { RemoteS3Backend } from '../../src-main/backends/remote-compat.js';
import { RemoteNativeBackend } from '../../src-main/backends/remote-native.js';
import { Engine } from '../../src-main/engine/index.js';
import { containerName } from './helpers.js';

const ACCOUNT = 'test$lister';
const ACCESS = { accessKey: 'LISTERACCESSKEY00001', secretKey: 'lister-secret-key-0123456789abcdefghij' };
const SWIFT_KEY = 'lister-swift-key';

let dataDir: string;
let app: AppContext;
const backends: Record<string, ObjectBackend> = {};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'coffer-container-summary-'));
  app = await createAppContext({ dataDir, port: 0, host: '127.0.0.1', engine: { noSync: true, expirySweepMs: 0 }, log: () => undefined });
  await app.engine.createAccount({ id: ACCOUNT, keys: [ACCESS], swiftKeys: [{ sub: 'swift', secretKey: SWIFT_KEY }] });
  backends.local = new LocalBackend(app.engine, ACCOUNT);
  backends.s3 = new RemoteS3Backend({ endpoint: app.server.url, region: 'us-east-1', accessKeyId: ACCESS.accessKey, secretAccessKey: ACCESS.secretKey, forcePathStyle: true });
  backends.swift = new RemoteNativeBackend({ authUrl: `${app.server.url}/auth/1.0`, auth: { type: 'v1', user: `${ACCOUNT}:swift`, key: SWIFT_KEY } });
});

afterAll(async () => {
  for (const b of Object.values(backends)) await b.close?.();
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each(['local', 's3', 'swift'])('%s listContainers', (kind) => {
  const summary = async (name: string) => (await backends[kind]!.listContainers()).find((c) => c.name === name)!;

  it('says whether each container is public', async () => {
    const c = containerName('pub');
    await backends[kind]!.createContainer(c);
    expect((await summary(c)).public).toBe(false);
    await backends[kind]!.setPublic(c, undefined, true);
    expect((await summary(c)).public).toBe(true);
    await backends[kind]!.setPublic(c, undefined, false);
    expect((await summary(c)).public).toBe(false);
  });

  it('gives a container quota where one is set, and null where none is', async () => {
    const c = containerName('quota');
    await backends[kind]!.createContainer(c);
    expect((await summary(c)).quota).toBeNull();
    await app.engine.updateContainer(Engine.ref(ACCOUNT, c), { quota: { maxBytes: 5000, maxObjects: -1 } });
    expect((await summary(c)).quota).toEqual({ maxBytes: 5000, maxObjects: null });
    await app.engine.updateContainer(Engine.ref(ACCOUNT, c), { quota: { maxBytes: -1, maxObjects: 7 } });
    expect((await summary(c)).quota).toEqual({ maxBytes: null, maxObjects: 7 });
  });

  it('counts bytes as the quota does where the store tells (each object rounded up to 4 KiB), besides the plain sum', async () => {
    const c = containerName('counted');
    await backends[kind]!.createContainer(c);
    // A container HEAD (where Swift's figure comes from) is only made for containers with a quota.
    await app.engine.updateContainer(Engine.ref(ACCOUNT, c), { quota: { maxBytes: 1 << 20, maxObjects: -1 } });
    for (const [name, size] of [['one', 1], ['page', 4096], ['more', 4097]] as const) {
      await backends[kind]!.upload(c, name, { stream: Readable.from([Buffer.alloc(size, 'x')]) });
    }
    const listed = await summary(c);
    expect(listed.bytes).toBe(1 + 4096 + 4097);
    const account = await backends[kind]!.accountInfo();
    const engineUsage = app.engine.getAccount(ACCOUNT).usage;
    expect(account.usage.bytes).toBe(engineUsage.bytes);
    if (kind === 's3') {
      // S3 tells no usage of its own: nothing to count by.
      expect(listed.quotaBytes).toBeUndefined();
      expect(account.usage.quotaBytes).toBeUndefined();
    } else {
      expect(listed.quotaBytes).toBe(4096 + 4096 + 8192);
      expect(account.usage.quotaBytes).toBe(engineUsage.bytesActual);
      expect(account.usage.quotaBytes).toBeGreaterThan(account.usage.bytes!);
    }
  });
});

// The "public" summaries are the server's own access decision (engine/access.ts), so they cannot
// disagree with what an anonymous client gets: a bucket policy that lets everyone read opens a
// container as surely as a public-read ACL (the local summary used to say private).
describe('a bucket policy that lets everyone read', () => {
  const everyoneReads = (c: string) => JSON.stringify({ Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${c}/*` }] });

  it.each(['local', 's3'])('%s: the container and its objects are public, as anonymous reads are served', async (kind) => {
    const c = containerName('policy');
    await backends.local!.createContainer(c);
    await backends.local!.upload(c, 'o', { stream: Readable.from([Buffer.from('x')]) });
    expect((await fetch(`${app.server.url}/${c}/o`)).status).toBe(403);
    expect((await backends[kind]!.listContainers()).find((x) => x.name === c)!.public).toBe(false);
    await app.engine.updateContainer(Engine.ref(ACCOUNT, c), { policy: everyoneReads(c) });
    expect((await fetch(`${app.server.url}/${c}/o`)).status).toBe(200);
    expect((await backends[kind]!.listContainers()).find((x) => x.name === c)!.public).toBe(true);
    if (kind === 'local') expect((await backends.local!.head(c, 'o')).publicRead).toBe(true);
  });
});
