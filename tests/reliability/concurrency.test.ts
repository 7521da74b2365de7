/**
 * Concurrency through both APIs against the real `coffer serve`: many writers to one name leave
 * exactly one complete version; quotas hold exactly under concurrent uploads; listings stay
 * consistent (sorted, no duplicates, nothing that existed throughout missing) while objects change.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Engine } from '../../src-main/engine/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, servedStore, swiftLogin } from './served.js';
import { auditStore } from './store-audit.js';
import { md5, s3ClientFor } from './upload-kinds.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
let store: Awaited<ReturnType<typeof servedStore>>;
let s3: S3Client;
let storageUrl: string;
let token: string;

beforeAll(async () => {
  store = await servedStore('concurrency');
  s3 = s3ClientFor(store.server.url, ALICE);
  ({ storageUrl, token } = await swiftLogin(store.server.url, ALICE));
});
afterAll(async () => {
  s3?.destroy();
  await store?.close();
});

async function native(method: string, path: string, body?: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${storageUrl}${path}`, { method, headers: { 'X-Auth-Token': token, ...headers }, ...(body ? { body: body as BodyInit } : {}) });
  const data = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body: data };
}

/** PUT through the native API (even writers) or the S3 API (odd); true when acknowledged. */
async function put(i: number, bucket: string, name: string, body: Buffer): Promise<{ ok: boolean; status: number }> {
  if (i % 2 === 0) {
    const r = await native('PUT', `/${bucket}/${encodeURIComponent(name)}`, body);
    return { ok: r.status === 201, status: r.status };
  }
  try {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: name, Body: body }));
    return { ok: true, status: 200 };
  } catch (err) {
    return { ok: false, status: (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0 };
  }
}

async function containerUsage(bucket: string): Promise<{ objects: number; bytes: number }> {
  const r = await native('HEAD', `/${bucket}`);
  return { objects: Number(r.headers.get('x-container-object-count')), bytes: Number(r.headers.get('x-container-bytes-used')) };
}

describe('concurrent writes', () => {
  it('32 writers to one name (both APIs, inline and file-backed sizes) leave exactly one complete version', async () => {
    expect((await native('PUT', '/race')).status).toBe(201);
    for (let round = 0; round < 3; round++) {
      // Sizes straddle the inline limit (64 KiB), so index-only and blob-backed writes race each other.
      const bodies = Array.from({ length: 32 }, (_, i) => randomBytes(i % 3 === 0 ? 1000 + i : 70_000 + i * 1000));
      const results = await Promise.all(bodies.map((b, i) => put(i, 'race', 'contended', b)));
      expect(results.map((r) => r.status).filter((s) => s !== 201 && s !== 200), 'every writer is acknowledged').toEqual([]);
      const got = await native('GET', '/race/contended');
      const winner = bodies.findIndex((b) => b.equals(got.body));
      expect(winner, `round ${round}: the stored body is one writer's complete body (${got.body.length} bytes)`).toBeGreaterThanOrEqual(0);
      expect(got.headers.get('etag')).toBe(md5(bodies[winner]!));
      const listing = JSON.parse((await native('GET', '/race?format=json')).body.toString()) as { name: string; bytes: number; hash: string }[];
      expect(listing).toEqual([expect.objectContaining({ name: 'contended', bytes: bodies[winner]!.length, hash: md5(bodies[winner]!) })]);
      expect(await containerUsage('race')).toEqual({ objects: 1, bytes: bodies[winner]!.length });
    }
    // The 95 losing versions left no blob, inline entry or counter behind.
    expect((await auditStore(store.dataDir)).problems).toEqual([]);
  });
});

describe('quotas under concurrent uploads', () => {
  it('a container byte quota admits exactly as many uploads as fit, through both APIs', async () => {
    // 10 objects of 100 KiB (a multiple of 4 KiB, so the rounded size is exact) fit in 1 MiB + a bit.
    expect((await native('PUT', '/bytes-quota', undefined, { 'X-Container-Meta-Quota-Bytes': String(10 * 102_400 + 50_000) })).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 32 }, (_, i) => put(i, 'bytes-quota', `o${i}`, randomBytes(102_400))));
    const accepted = results.filter((r) => r.ok).length;
    expect(results.filter((r) => !r.ok).map((r) => r.status).every((s) => s === 413 || s === 403), 'refusals are quota errors (native 413, S3 403)').toBe(true);
    expect(accepted).toBe(10);
    const usage = await containerUsage('bytes-quota');
    expect(usage).toEqual({ objects: accepted, bytes: accepted * 102_400 });
    const listed = JSON.parse((await native('GET', '/bytes-quota?format=json')).body.toString()) as unknown[];
    expect(listed).toHaveLength(accepted);
  });

  it('an account quota set with `coffer quota set` while the server runs holds exactly (objects and bytes)', async () => {
    expect((await native('PUT', '/acct-quota')).status).toBe(201);
    const before = await native('HEAD', '');
    const used = { objects: Number(before.headers.get('x-account-object-count')), bytes: Number(before.headers.get('x-account-bytes-used')) };
    // Room for exactly 7 more objects; bytes left generous so the count is what binds.
    const maxObjects = used.objects + 7;
    await setAccountObjectQuotaWithCli(maxObjects);
    try {
      await checkAccountQuota(maxObjects, used.bytes);
    } finally {
      // Lifted in-process (what the command does too), which saves a second CLI start.
      const admin = await Engine.open(store.dataDir, { recover: false, expirySweepMs: 0 });
      await admin.setAccountQuota(ALICE.account, { maxObjects: -1 }).finally(() => admin.close());
    }
  });
});

function setAccountObjectQuotaWithCli(maxObjects: number): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['src-main/bin/coffer.mjs', 'quota', 'set', '--data', store.dataDir, '--uid', ALICE.account, '--max-objects', String(maxObjects)], { cwd: REPO }, (err, _out, stderr) =>
      err ? reject(new Error(stderr)) : resolve(),
    ),
  );
}

async function checkAccountQuota(maxObjects: number, usedBytes: number): Promise<void> {
  const results = await Promise.all(Array.from({ length: 32 }, (_, i) => put(i, 'acct-quota', `q${i}`, randomBytes(5000))));
  expect(results.filter((r) => r.ok)).toHaveLength(7);
  const after = await native('HEAD', '');
  expect(Number(after.headers.get('x-account-object-count'))).toBe(maxObjects);
  expect(Number(after.headers.get('x-account-bytes-used'))).toBe(usedBytes + 7 * 5000);
  // Overwriting an existing name does not grow the count, so it is still accepted at the limit.
  expect((await put(0, 'acct-quota', JSON.parse((await native('GET', '/acct-quota?format=json')).body.toString())[0].name, randomBytes(10))).ok).toBe(true);
  expect((await auditStore(store.dataDir)).problems).toEqual([]);
}

describe('listings while objects change', () => {
  it('paged listings (native and S3) stay sorted, without duplicates, and list every object that existed throughout', async () => {
    expect((await native('PUT', '/churn')).status).toBe(201);
    // Stable names are interleaved with churning ones, so every page boundary sits among changes.
    const stable = Array.from({ length: 120 }, (_, i) => `k${String(i).padStart(3, '0')}-stable`);
    const churn = Array.from({ length: 120 }, (_, i) => `k${String(i).padStart(3, '0')}-churn`);
    for (let i = 0; i < stable.length; i += 20) {
      const made = await Promise.all(stable.slice(i, i + 20).map((n) => native('PUT', `/churn/${n}`, Buffer.from(n))));
      expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    }
    let stop = false;
    const writer = async (w: number) => {
      for (let k = w; !stop; k += 7) {
        const name = churn[k % churn.length]!;
        if (k % 3 === 0) await s3.send(new DeleteObjectCommand({ Bucket: 'churn', Key: name }));
        else await native('PUT', `/churn/${name}`, randomBytes(k % 2 ? 10 : 70_000));
      }
    };
    const nativeList = async (): Promise<string[]> => {
      const names: string[] = [];
      for (let marker = ''; ; ) {
        const page = JSON.parse((await native('GET', `/churn?format=json&limit=17&marker=${encodeURIComponent(marker)}`)).body.toString()) as { name: string }[];
        if (!page.length) return names;
        names.push(...page.map((p) => p.name));
        marker = page.at(-1)!.name;
      }
    };
    const s3List = async (): Promise<string[]> => {
      const names: string[] = [];
      let next: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: 'churn', MaxKeys: 23, ContinuationToken: next }));
        names.push(...(page.Contents ?? []).map((o) => o.Key!));
        next = page.NextContinuationToken;
      } while (next);
      return names;
    };
    const writers = Array.from({ length: 6 }, (_, w) => writer(w));
    const listings: string[][] = [];
    try {
      for (let i = 0; i < 8; i++) listings.push(...(await Promise.all([nativeList(), s3List()])));
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    for (const names of listings) {
      expect(new Set(names).size, 'no duplicates').toBe(names.length);
      expect(names, 'sorted').toEqual([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      expect(stable.filter((n) => !names.includes(n)), 'stable objects missing').toEqual([]);
      expect(names.filter((n) => !n.endsWith('-stable') && !n.endsWith('-churn')), 'names never written').toEqual([]);
    }
    // The churn really happened during the listings: they did not all see the same set.
    expect(new Set(listings.map((l) => l.join('|'))).size).toBeGreaterThan(1);
  });
});
