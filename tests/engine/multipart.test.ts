import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { bytes, codeOf, openStore, readAll, sameBytes, type TestStore } from './helpers.js';

const md5 = (b: Buffer) => createHash('md5').update(b).digest();
let s: TestStore;
const ref = () => Engine.ref(s.account, 'mp');
const MIN = 5 * 1024 * 1024;
const blobFiles = () => readdirSync(join(s.dir, 'blobs'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;

beforeEach(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'mp');
});
afterEach(() => s.close());

describe('multipart uploads', () => {
  it('joins parts into one object with the composite ETag, without copying bytes', async () => {
    const up = await s.engine.createUpload(ref(), 'movie.mp4', { meta: { Origin: 'test' } });
    const p1 = bytes(MIN, 1);
    const p2 = bytes(1234, 2);
    const e2 = await s.engine.uploadPart(ref(), 'movie.mp4', up.uploadId, 2, p2);
    const e1 = await s.engine.uploadPart(ref(), 'movie.mp4', up.uploadId, 1, p1);
    expect(s.engine.listObjects(ref()).entries).toHaveLength(0);
    expect(s.engine.listUploads(ref()).uploads.map((u) => u.name)).toEqual(['movie.mp4']);
    expect(s.engine.listParts(ref(), 'movie.mp4', up.uploadId).parts.map((p) => p.partNumber)).toEqual([1, 2]);
    const done = await s.engine.completeUpload(ref(), 'movie.mp4', up.uploadId, [
      { partNumber: 1, etag: `"${e1.etag}"` },
      { partNumber: 2, etag: e2.etag },
    ]);
    const expected = createHash('md5').update(Buffer.concat([md5(p1), md5(p2)])).digest('hex') + '-2';
    expect(done.etag).toBe(expected);
    expect(done.size).toBe(MIN + 1234);
    expect(done.partsCount).toBe(2);
    expect(done.meta).toEqual({ origin: 'test' });
    expect(done.contentType).toBe('video/mp4');
    expect(sameBytes(await readAll((await s.engine.getObject(ref(), 'movie.mp4')).body), Buffer.concat([p1, p2]))).toBe(true);
    const r = await s.engine.getObject(ref(), 'movie.mp4', { range: { start: MIN - 2, end: MIN + 1 } });
    expect(sameBytes(await readAll(r.body), Buffer.concat([p1, p2]).subarray(MIN - 2, MIN + 2))).toBe(true);
    expect(s.engine.listUploads(ref()).uploads).toHaveLength(0);
    expect(blobFiles()).toBe(2);
  });

  it('checks part order, ETags and the minimum part size; drops unlisted parts', async () => {
    const up = await s.engine.createUpload(ref(), 'x');
    const a = await s.engine.uploadPart(ref(), 'x', up.uploadId, 1, bytes(100, 1));
    const b = await s.engine.uploadPart(ref(), 'x', up.uploadId, 2, bytes(100, 2));
    await s.engine.uploadPart(ref(), 'x', up.uploadId, 3, bytes(100, 3));
    const complete = (parts: { partNumber: number; etag: string }[]) => codeOf(() => s.engine.completeUpload(ref(), 'x', up.uploadId, parts));
    expect(await complete([])).toBe('InvalidPart');
    expect(await complete([{ partNumber: 2, etag: b.etag }, { partNumber: 1, etag: a.etag }])).toBe('InvalidPartOrder');
    expect(await complete([{ partNumber: 1, etag: b.etag }])).toBe('InvalidPart');
    expect(await complete([{ partNumber: 1, etag: a.etag }, { partNumber: 2, etag: b.etag }])).toBe('EntityTooSmall');
    expect(await complete([{ partNumber: 2, etag: b.etag }])).toBe('ok');
    expect(s.engine.headObject(ref(), 'x').size).toBe(100);
    expect(blobFiles()).toBe(1);
  });

  it('re-uploading a part replaces it; abort removes every part', async () => {
    const up = await s.engine.createUpload(ref(), 'y');
    await s.engine.uploadPart(ref(), 'y', up.uploadId, 1, bytes(10, 1));
    const again = await s.engine.uploadPart(ref(), 'y', up.uploadId, 1, bytes(20, 2));
    expect(s.engine.listParts(ref(), 'y', up.uploadId).parts).toEqual([expect.objectContaining({ partNumber: 1, size: 20, etag: again.etag })]);
    expect(blobFiles()).toBe(1);
    await s.engine.abortUpload(ref(), 'y', up.uploadId);
    expect(blobFiles()).toBe(0);
    expect(await codeOf(() => s.engine.uploadPart(ref(), 'y', up.uploadId, 2, 'x'))).toBe('NoSuchUpload');
    expect(await codeOf(() => s.engine.abortUpload(ref(), 'y', 'not-an-id'))).toBe('NoSuchUpload');
    expect(await codeOf(() => s.engine.uploadPart(ref(), 'y', up.uploadId, 10001, 'x'))).toBe('InvalidArgument');
  });

  it('a listing of uploads says where its next page starts, and pages through it visit every upload and prefix once', async () => {
    const made: string[] = [];
    for (const name of ['a', 'a', 'a/x', 'a/y', 'b', 'c/1', 'c/2', 'd', 'd']) made.push(`${name} ${(await s.engine.createUpload(ref(), name)).uploadId}`);
    const first = s.engine.listUploads(ref(), { limit: 2 });
    // Two uploads of 'a': the page ends inside the name, so the upload id says where.
    expect(first).toMatchObject({ truncated: true, nextKeyMarker: 'a', nextUploadIdMarker: first.uploads[1]!.uploadId });
    for (const delimiter of [undefined, '/']) {
      for (const limit of [1, 2, 3, 1000]) {
        const seen: string[] = [];
        let params: { keyMarker?: string; uploadIdMarker?: string } = {};
        for (let pages = 0; ; pages++) {
          expect(pages, `${limit} per page`).toBeLessThan(20);
          const page = s.engine.listUploads(ref(), { limit, ...(delimiter ? { delimiter } : {}), ...params });
          seen.push(...page.uploads.map((u) => `${u.name} ${u.uploadId}`), ...page.prefixes);
          if (!page.truncated) {
            expect(page.nextKeyMarker).toBeUndefined();
            break;
          }
          // After a common prefix, the key marker alone (the prefix's uploads are all behind it).
          expect(page.nextUploadIdMarker === undefined, `after ${page.nextKeyMarker}`).toBe(page.nextKeyMarker!.endsWith('/'));
          params = { keyMarker: page.nextKeyMarker!, ...(page.nextUploadIdMarker ? { uploadIdMarker: page.nextUploadIdMarker } : {}) };
        }
        const expected = delimiter ? [...made.filter((u) => !u.includes('/')), 'a/', 'c/'] : made;
        expect(seen.sort(), `delimiter ${delimiter}, ${limit} per page`).toEqual([...expected].sort());
      }
    }
  });

  it('deleting a container aborts its unfinished uploads', async () => {
    const up = await s.engine.createUpload(ref(), 'z');
    await s.engine.uploadPart(ref(), 'z', up.uploadId, 1, bytes(10, 1));
    await s.engine.deleteContainer(ref());
    expect(blobFiles()).toBe(0);
  });
});
