// BodyHasher hashes a one-chunk body in one shot and a longer one as it streams: both must give
// the digests a reference implementation gives for the same bytes.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Crc32c } from '@aws-crypto/crc32c';
import { Crc64NvmeJs } from '@aws-sdk/checksums';
import { describe, expect, it } from 'vitest';
import { BodyHasher } from '../../src-main/engine/blobs/hashing.js';
import { combineCrcs, crcOf } from '../../src-main/engine/blobs/crc.js';
import { CHECKSUM_ALGORITHMS } from '../../src-main/engine/types.js';

/** The AWS SDK's own CRC64/NVME (a JS table implementation), as the reference for ours. */
async function sdkCrc64(bytes: Buffer): Promise<string> {
  const h = new Crc64NvmeJs();
  h.update(bytes);
  return Buffer.from(await h.digest()).toString('base64');
}

function reference(bytes: Buffer, crc64nvme: string) {
  const be32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    return b.toString('base64');
  };
  const c = new Crc32c();
  c.update(bytes);
  return {
    md5: createHash('md5').update(bytes).digest('hex'),
    checksums: {
      crc32: be32(crc32(bytes)),
      crc32c: be32(c.digest()),
      crc64nvme,
      sha1: createHash('sha1').update(bytes).digest('base64'),
      sha256: createHash('sha256').update(bytes).digest('base64'),
    },
  };
}

function hashInPieces(bytes: Buffer, cuts: number[]) {
  const h = new BodyHasher(CHECKSUM_ALGORITHMS);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    h.update(bytes.subarray(from, to));
    from = to;
  }
  return { size: h.size, ...h.finish() };
}

describe('BodyHasher', () => {
  const bytes = randomBytes(10_000);

  it('gives the reference digests for a body in one chunk, two chunks and many', async () => {
    const want = reference(bytes, await sdkCrc64(bytes));
    for (const cuts of [[], [1], [4096], [1, 2, 3, 5000, 9999]]) {
      expect(hashInPieces(bytes, cuts), `cut at ${cuts.join(',')}`).toEqual({ size: bytes.length, ...want });
    }
  });

  it('gives the empty body its digests, with or without an empty chunk', async () => {
    const empty = Buffer.alloc(0);
    const want = reference(empty, await sdkCrc64(empty));
    const none = new BodyHasher(CHECKSUM_ALGORITHMS);
    expect(none.finish()).toEqual(want);
    expect(hashInPieces(empty, [])).toEqual({ size: 0, ...want });
  });

  it('combines the CRCs of consecutive pieces into the CRC of the whole, for each CRC', () => {
    const cuts = [0, 1, 777, 4096, 9000, 10_000];
    for (const alg of ['crc32', 'crc32c', 'crc64nvme'] as const) {
      const pieces = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
      const combined = combineCrcs(alg, pieces.map((p) => ({ crc: crcOf(alg, p), size: p.length })));
      expect(combined.toString('hex'), alg).toBe(crcOf(alg, bytes).toString('hex'));
    }
  });

  it('keeps only the checksums asked for', () => {
    const h = new BodyHasher(['crc32']);
    h.update(bytes);
    expect(Object.keys(h.finish().checksums)).toEqual(['crc32']);
  });
});
