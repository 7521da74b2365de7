/**
 * Disk full during uploads. Mounting a small tmpfs needs privileges the test machines do not have,
 * so the server runs with COFFER_TEST_DISK_BYTES (a test-only fault in the blob store: writes fail
 * with ENOSPC once that many bytes were written). Uploads through both APIs then fail cleanly with
 * 507 and the protocol's error body; everything acknowledged reads back intact, nothing
 * half-written is visible or left on disk, and the server keeps serving.
 */
import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { raw } from '../compat/server.js';
import { ALICE, servedStore, swiftLogin } from './served.js';
import { auditStore } from './store-audit.js';
import { md5, s3ClientFor } from './upload-kinds.js';

const DISK_BYTES = 4 * 1024 * 1024;
let store: Awaited<ReturnType<typeof servedStore>>;

beforeAll(async () => {
  store = await servedStore('disk', [ALICE], { COFFER_TEST_DISK_BYTES: String(DISK_BYTES) });
});
afterAll(async () => {
  await store?.close();
});

it('uploads that hit a full disk fail with 507 and the protocol error body; nothing is corrupted', async () => {
  const { storageUrl, token } = await swiftLogin(store.server.url, ALICE);
  const s3 = s3ClientFor(store.server.url, ALICE);
  expect((await fetch(`${storageUrl}/full`, { method: 'PUT', headers: { 'X-Auth-Token': token } })).status).toBe(201);
  // 24 uploads of 300 KB (file-backed, above the inline limit) through three paths; ~7 MB for a 4 MB "disk".
  const bodies = Array.from({ length: 24 }, () => randomBytes(300_000));
  const results = await Promise.all(
    bodies.map(async (body, i) => {
      const name = `o${i}`;
      if (i % 3 === 0) {
        const res = await fetch(`${storageUrl}/full/${name}`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body });
        return { name, status: res.status, text: await res.text(), type: res.headers.get('content-type') };
      }
      if (i % 3 === 1) {
        const r = await raw({ port: store.server.port }, 'PUT', `/full/${name}`, { as: ALICE, body });
        return { name, status: r.status, text: r.text, type: r.headers['content-type'] ?? null };
      }
      try {
        await s3.send(new PutObjectCommand({ Bucket: 'full', Key: name, Body: body }));
        return { name, status: 200, text: '', type: null };
      } catch (err) {
        const e = err as { name: string; $metadata?: { httpStatusCode?: number } };
        return { name, status: e.$metadata?.httpStatusCode ?? 0, text: e.name, type: null };
      }
    }),
  );
  const ok = results.filter((r) => r.status === 200 || r.status === 201);
  const failed = results.filter((r) => !(r.status === 200 || r.status === 201));
  expect(ok.length, 'some uploads fit').toBeGreaterThan(0);
  expect(failed.length, 'some uploads hit the full disk').toBeGreaterThan(0);
  const xml = new XMLParser();
  for (const [i, r] of results.entries()) {
    if (r.status === 200 || r.status === 201) continue;
    expect(r.status, `${r.name}: ${r.text.slice(0, 200)}`).toBe(507);
    // Swift's page of a 507, as its proxy answers a full drive.
    if (i % 3 === 0) expect([r.type, r.text]).toEqual(['text/html; charset=UTF-8', '<html><h1>Insufficient Storage</h1><p>There was not enough space to save the resource. Drive: unknown</p></html>']);
    if (i % 3 === 1) expect((xml.parse(r.text) as { Error: { Code: string } }).Error.Code).toBe('InsufficientStorage');
    if (i % 3 === 2) expect(r.text).toBe('InsufficientStorage');
  }

  // A multipart part fails the same way and leaves the upload usable for an abort.
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'full', Key: 'mp' }));
  const part = await s3.send(new UploadPartCommand({ Bucket: 'full', Key: 'mp', UploadId, PartNumber: 1, Body: randomBytes(300_000) })).catch((e: { $metadata?: { httpStatusCode?: number } }) => e);
  expect((part as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(507);
  expect((await raw({ port: store.server.port }, 'DELETE', `/full/mp?uploadId=${UploadId}`, { as: ALICE })).status).toBe(204);

  // Acknowledged objects read back intact; refused ones are not there at all.
  for (const [i, r] of results.entries()) {
    const res = await fetch(`${storageUrl}/full/${r.name}`, { headers: { 'X-Auth-Token': token } });
    const got = Buffer.from(await res.arrayBuffer());
    if (r.status === 200 || r.status === 201) expect([r.name, res.status, md5(got)]).toEqual([r.name, 200, md5(bodies[i]!)]);
    else expect([r.name, res.status]).toEqual([r.name, 404]);
  }
  const listed = (await (await fetch(`${storageUrl}/full?format=json`, { headers: { 'X-Auth-Token': token } })).json()) as { name: string }[];
  expect(listed.map((o) => o.name).sort()).toEqual(ok.map((r) => r.name).sort());
  // Small objects live in the index, not in blob files: the server still takes them, and reads everything.
  expect((await fetch(`${storageUrl}/full/small`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: 'still writable' })).status).toBe(201);
  expect((await raw({ port: store.server.port }, 'GET', '/full/small', { as: ALICE })).text).toBe('still writable');
  s3.destroy();
  // No temp files, no orphaned blobs, counters exact.
  expect((await auditStore(store.dataDir)).problems).toEqual([]);
});
