// Contract cases: where the parts of an object stored in parts lie (partLayout), so that a
// download can check each of them and the ETag they make: S3 multipart uploads of uneven parts
// (their sizes asked for), of parts of one size (which may be inferred from the first and the
// last), and of uneven parts that add up as parts of one size would (inferred wrongly at first:
// the layout's exact form has them right); a Swift SLO (its manifest's MD5s); an object in one
// piece has none.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PartLayout } from '../../src-main/backends/object-backend.js';
import { requireFixture, type FixtureRef } from './contract.js';
import { containerName, md5, tempFile, uploadInParts } from './helpers.js';

const MiB = 1024 * 1024;

/** The layout is of these parts, in order; their MD5s make `etag`, and a changed one does not. */
function expectLayoutOf(layout: PartLayout | undefined, parts: Buffer[], etag: string, listsMd5s: boolean, sources?: { container: string; name: string }[]): void {
  expect(layout, 'the backend found no parts').toBeDefined();
  let start = 0;
  const expected = parts.map((b, i) => ({ start, end: (start += b.length), ...(listsMd5s ? { md5: md5(b) } : {}), ...(sources ? { source: sources[i] } : {}) }));
  expect(layout!.parts).toEqual(expected);
  const md5s = parts.map(md5);
  expect(layout!.etagOf(md5s)).toBe(etag.toLowerCase());
  expect(layout!.etagOf([md5(Buffer.from('other bytes')), ...md5s.slice(1)])).not.toBe(etag.toLowerCase());
}

/**
 * `key` in `c` is laid out as `parts` (or, where the store cannot say, not at all). `exactly`:
 * the layout as first answered is of those parts; otherwise its exact form is (an inferred one
 * may be wrong).
 */
async function expectLaidOut(get: FixtureRef, c: string, key: string, parts: Buffer[], listsMd5s: boolean, exactly = true, sources?: { container: string; name: string }[]): Promise<void> {
  const f = get();
  const head = await f.backend.head(c, key);
  const layout = await f.backend.partLayout!(c, key, head);
  if (f.noPartLayout) {
    console.info(`no part layout here: ${f.noPartLayout}`);
    expect(layout).toBeUndefined();
    return;
  }
  expect(layout, 'the backend found no parts').toBeDefined();
  if (exactly) expectLayoutOf(layout, parts, head.etag, listsMd5s, sources);
  // The parts asked one by one, where the layout was inferred.
  if (layout!.exact || !exactly) expectLayoutOf(layout!.exact ? await layout!.exact() : layout, parts, head.etag, listsMd5s, sources);
}

/** `key` in `c` made by a multipart upload of these parts, through the fixture's S3 client. */
const multipartObject = (get: FixtureRef, c: string, key: string, parts: Buffer[]) => uploadInParts(get().s3!, c, key, parts);

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
      await multipartObject(get, c, 'big.bin', parts);
      await expectLaidOut(get, c, 'big.bin', parts, false);
      await plainObject(get, c);
    });

    it('lays out uploads in parts of one size, and uneven parts that add up as those would, each where it lies', async (ctx) => {
      const f = get();
      requireFixture(ctx, f.s3, 'no S3 client on this store to make a multipart upload with');
      const c = containerName('even-parts');
      await f.backend.createContainer(c);
      const even = [5 * MiB, 5 * MiB, 5 * MiB, MiB + 3].map((n) => randomBytes(n));
      await multipartObject(get, c, 'even.bin', even);
      await expectLaidOut(get, c, 'even.bin', even, false);
      // First 6 MiB and last 5 MiB, like parts of 6 MiB: the middle two are not.
      const uneven = [6 * MiB, 5 * MiB, 7 * MiB, 5 * MiB].map((n) => randomBytes(n));
      await multipartObject(get, c, 'uneven.bin', uneven);
      await expectLaidOut(get, c, 'uneven.bin', uneven, false, false);
    });

    it('lays out a Static Large Object (where each segment lies, its MD5, the segment object itself, and that they make its ETag), or none where the server cannot tell', async (ctx) => {
      const f = get();
      requireFixture(ctx, f.putSlo, 'no Swift API on this store to make an SLO with');
      const c = containerName('slo-parts');
      await f.backend.createContainer(c);
      const segments = [MiB, 2 * MiB + 3, 5].map((n) => randomBytes(n));
      const placed = await f.putSlo!(c, 'big.bin', segments);
      await expectLaidOut(get, c, 'big.bin', segments, true, true, placed);
      await plainObject(get, c);
    });

    // Also where the server keeps an SLO's manifest to itself (Ceph RGW): the segments are found where those clients put them.
    it('lays out an SLO from where python-swiftclient and Coffer put its segments, the folder of the upload it is, not an earlier one', async (ctx) => {
      const f = get();
      requireFixture(ctx, f.putDlo, 'no Swift API on this store');
      const c = containerName('slo-segments');
      await f.backend.createContainer(c);
      const at = (upload: string, size: number) => ({ container: `${c}_segments`, prefix: `big.bin/slo/${upload}/${size}/${MiB}/` });
      // An earlier upload under the same name, replaced: its segments are still there.
      const earlier = [MiB, 9].map((n) => randomBytes(n));
      await f.putSlo!(c, 'big.bin', earlier, at('1796000000.000000', MiB + 9));
      const segments = [MiB, MiB, 5].map((n) => randomBytes(n));
      const placed = await f.putSlo!(c, 'big.bin', segments, at('1796000100.000000', 2 * MiB + 5));
      const head = await f.backend.head(c, 'big.bin');
      expectLayoutOf(await f.backend.partLayout!(c, 'big.bin', head), segments, head.etag, true, placed);
    });

    it('lays out a Dynamic Large Object from the listing its manifest names, in listing order', async (ctx) => {
      const f = get();
      requireFixture(ctx, f.putDlo, 'no Swift API on this store');
      const c = containerName('dlo-parts');
      await f.backend.createContainer(c);
      const segments = [MiB, 2 * MiB + 3, 5].map((n) => randomBytes(n));
      const placed = await f.putDlo!(c, 'big.bin', segments, { container: `${c}_segments`, prefix: 'big.bin/1796000200.000000/' });
      const head = await f.backend.head(c, 'big.bin');
      expect(head.size).toBe(3 * MiB + 8);
      expectLayoutOf(await f.backend.partLayout!(c, 'big.bin', head), segments, head.etag, true, placed);
    });
  });
}
