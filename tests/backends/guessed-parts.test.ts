// The parts of an S3 multipart object as the common clients upload them, guessed from its size
// and ETag alone (guessedMultipartLayout), for servers that cannot say where they lie: the guess
// or one of its alternatives must rebuild the ETag of an object uploaded in any common client's
// part size, and none may for parts no client makes.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PartLayout } from '../../src-main/backends/object-backend.js';
import { guessedMultipartLayout } from '../../src-main/backends/remote-compat-parts.js';
import type { ObjectDetails } from '../../src-shared/model/storage.js';

const MiB = 1024 * 1024;
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
/** S3's ETag of a multipart upload: the MD5 of its parts' MD5s, and their count. */
const s3Etag = (parts: Buffer[]) => `"${md5(Buffer.concat(parts.map((p) => Buffer.from(md5(p), 'hex'))))}-${parts.length}"`;

/** An object of `size` bytes uploaded in parts of `partSize` (the last what is left), as a client would. */
function uploaded(size: number, partSize: number): { bytes: Buffer; head: ObjectDetails } {
  const bytes = randomBytes(size);
  const parts: Buffer[] = [];
  for (let at = 0; at < size; at += partSize) parts.push(bytes.subarray(at, Math.min(size, at + partSize)));
  return { bytes, head: { size, etag: s3Etag(parts) } as ObjectDetails };
}

/** The first of the guess and its alternatives whose parts' MD5s make the ETag, as a download tries them. */
function matching(layout: PartLayout | undefined, bytes: Buffer, etag: string): PartLayout | undefined {
  const bare = etag.replace(/"/g, '');
  return [layout, ...(layout?.alternatives ?? [])].find((l) => l && l.etagOf(l.parts.map((p) => md5(bytes.subarray(p.start, p.end)))) === bare);
}

describe('the parts of a multipart object, guessed', () => {
  it.each([
    ['aws-cli, boto3 and Coffer (8 MiB)', 24 * MiB + 5, 8 * MiB],
    ['rclone (5 MiB)', 12 * MiB, 5 * MiB],
    ['mc (16 MiB)', 40 * MiB, 16 * MiB],
    ['s3cmd (15 MiB), where 16 MiB would make as many parts', 40 * MiB, 15 * MiB],
    ['a whole number of MiB no common client uses', 30 * MiB, 7 * MiB],
    ['one part', 6 * MiB, 6 * MiB],
  ])('rebuilds the ETag of an upload in the parts of %s', (_, size, partSize) => {
    const { bytes, head } = uploaded(size, partSize);
    const layout = guessedMultipartLayout(head);
    expect(layout).toMatchObject({ guessed: true });
    const found = matching(layout, bytes, head.etag);
    expect(found?.parts.at(0)).toEqual({ start: 0, end: partSize });
    expect(found?.parts.at(-1)?.end).toBe(size);
  });

  it('guesses the first part size that makes the count, and rebuilds no ETag from parts of uneven sizes', () => {
    const { bytes, head } = uploaded(24 * MiB, 8 * MiB);
    expect(guessedMultipartLayout(head)!.parts.map((p) => p.end - p.start)).toEqual([8 * MiB, 8 * MiB, 8 * MiB]);
    const uneven = [5 * MiB, 7 * MiB, 3].map((n) => randomBytes(n));
    const all = Buffer.concat(uneven);
    const etag = s3Etag(uneven);
    expect(matching(guessedMultipartLayout({ size: all.length, etag } as ObjectDetails), all, etag)).toBeUndefined();
    // The bytes damaged: no guess makes the ETag either.
    bytes[MiB]! ^= 0xff;
    expect(matching(guessedMultipartLayout(head), bytes, head.etag)).toBeUndefined();
  });

  it('guesses nothing for an ETag that is not a multipart upload', () => {
    expect(guessedMultipartLayout({ size: 9 * MiB, etag: '"d41d8cd98f00b204e9800998ecf8427e"' } as ObjectDetails)).toBeUndefined();
    expect(guessedMultipartLayout({ size: 9 * MiB, etag: 'not-an-etag' } as ObjectDetails)).toBeUndefined();
    expect(guessedMultipartLayout({ size: 2, etag: `${'a'.repeat(32)}-3` } as ObjectDetails)).toBeUndefined();
  });
});
