// Contract cases: where the parts of an object stored in parts lie (partLayout), so that a
// download can check each of them and the ETag they make: an S3 multipart upload of uneven parts
// (its sizes asked for, not guessed) and a Swift SLO (its manifest's MD5s); an object in one
// piece has none.
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PartLayout } from '../../src-main/backends/object-backend.js';
import { requireFixture, type FixtureRef } from './contract.js';
import { containerName, md5, tempFile } from './helpers.js';

const MiB = 1024 * 1024;

/** The layout is of these parts, in order; their MD5s make `etag`, and a changed one does not. */
function expectLayoutOf(layout: PartLayout | undefined, parts: Buffer[], etag: string, listsMd5s: boolean): void {
  expect(layout, 'the backend found no parts').toBeDefined();
  let start = 0;
  const expected = parts.map((b) => ({ start, end: (start += b.length), ...(listsMd5s ? { md5: md5(b) } : {}) }));
  expect(layout!.parts).toEqual(expected);
  const md5s = parts.map(md5);
  expect(layout!.etagOf(md5s)).toBe(etag.toLowerCase());
  expect(layout!.etagOf([md5(Buffer.from('other bytes')), ...md5s.slice(1)])).not.toBe(etag.toLowerCase());
}

/** `big.bin` in `c` is laid out as `parts` (or, where the store cannot say, not at all), and a plain object is not. */
async function expectBigLaidOut(get: FixtureRef, c: string, parts: Buffer[], listsMd5s: boolean): Promise<void> {
  const f = get();
  const head = await f.backend.head(c, 'big.bin');
  const layout = await f.backend.partLayout!(c, 'big.bin', head);
  if (f.noPartLayout) {
    console.info(`no part layout here: ${f.noPartLayout}`);
    expect(layout).toBeUndefined();
  } else expectLayoutOf(layout, parts, head.etag, listsMd5s);
  await plainObject(get, c);
}

async function plainObject(get: FixtureRef, c: string): Promise<void> {
  const { backend } = get();
  const file = tempFile(randomBytes(1000));
  try {
    await backend.upload(c, 'plain.bin', { path: file.path });
  } finally {
    file.remove();
  }
  expect(await backend.partLayout!(c, 'plain.bin', await backend.head(c, 'plain.bin'))).toBeUndefined();
}

export function partCases(get: FixtureRef): void {
  describe('parts of large objects', () => {
    it('lays out a multipart upload of uneven parts (where each lies, their MD5s make its ETag), or none where the server cannot tell', async (ctx) => {
      const f = get();
      requireFixture(ctx, f.s3, 'no S3 client on this store to make a multipart upload with');
      const c = containerName('parts');
      await f.backend.createContainer(c);
      const parts = [5 * MiB, 6 * MiB, MiB + 7].map((n) => randomBytes(n));
      const { UploadId } = await f.s3!.send(new CreateMultipartUploadCommand({ Bucket: c, Key: 'big.bin' }));
      const done = [];
      for (const [i, Body] of parts.entries()) done.push({ PartNumber: i + 1, ETag: (await f.s3!.send(new UploadPartCommand({ Bucket: c, Key: 'big.bin', UploadId, PartNumber: i + 1, Body }))).ETag! });
      await f.s3!.send(new CompleteMultipartUploadCommand({ Bucket: c, Key: 'big.bin', UploadId, MultipartUpload: { Parts: done } }));
      await expectBigLaidOut(get, c, parts, false);
    });

    it('lays out a Static Large Object (where each segment lies, its MD5, and that they make its ETag), or none where the server cannot tell', async (ctx) => {
      const f = get();
      requireFixture(ctx, f.putSlo, 'no Swift API on this store to make an SLO with');
      const c = containerName('slo-parts');
      await f.backend.createContainer(c);
      const segments = [MiB, 2 * MiB + 3, 5].map((n) => randomBytes(n));
      await f.putSlo!(c, 'big.bin', segments);
      await expectBigLaidOut(get, c, segments, true);
    });
  });
}
