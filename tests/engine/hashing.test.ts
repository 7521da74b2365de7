// BodyHasher hashes a one-chunk body in one shot and a longer one as it streams: both must give
// the digests a reference implementation gives for the same bytes.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Crc32c } from '@aws-crypto/crc32c';
import { describe, expect, it } from 'vitest';
import { BodyHasher } from '../../src-main/engine/blobs/hashing.js';
import { CHECKSUM_ALGORITHMS } from '../../src-main/engine/types.js';

function reference(bytes: Buffer) {
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

  it('gives the reference digests for a body in one chunk, two chunks and many', () => {
    for (const cuts of [[], [1], [4096], [1, 2, 3, 5000, 9999]]) {
      expect(hashInPieces(bytes, cuts), `cut at ${cuts.join(',')}`).toEqual({ size: bytes.length, ...reference(bytes) });
    }
  });

  it('gives the empty body its digests, with or without an empty chunk', () => {
    const empty = Buffer.alloc(0);
    const none = new BodyHasher(CHECKSUM_ALGORITHMS);
    expect(none.finish()).toEqual(reference(empty));
    expect(hashInPieces(empty, [])).toEqual({ size: 0, ...reference(empty) });
  });

  it('keeps only the checksums asked for', () => {
    const h = new BodyHasher(['crc32']);
    h.update(bytes);
    expect(Object.keys(h.finish().checksums)).toEqual(['crc32']);
  });
});
