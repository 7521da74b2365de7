import { createHash, hash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Crc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from './crc.js';
import type { ChecksumAlgorithm, Checksums } from '../types.js';

interface Running {
  update(chunk: Uint8Array): void;
  digest(): Buffer;
}

function hashOf(algorithm: string): Running {
  const h: Hash = createHash(algorithm);
  return { update: (c) => h.update(c), digest: () => h.digest() };
}

function crc32Running(): Running {
  let value = 0;
  return {
    update: (c) => {
      value = crc32(c, value);
    },
    digest: () => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(value >>> 0);
      return b;
    },
  };
}

function crc32cRunning(): Running {
  const h = new Crc32c();
  return {
    update: (c) => {
      h.update(c);
    },
    digest: () => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(h.digest() >>> 0);
      return b;
    },
  };
}

const MAKERS: Record<ChecksumAlgorithm, () => Running> = {
  crc32: crc32Running,
  crc32c: crc32cRunning,
  crc64nvme: () => new Crc64Nvme(),
  sha1: () => hashOf('sha1'),
  sha256: () => hashOf('sha256'),
};

function digestOf(algorithm: ChecksumAlgorithm, bytes: Uint8Array): string {
  if (algorithm === 'sha1' || algorithm === 'sha256') return hash(algorithm, bytes, 'base64');
  const h = MAKERS[algorithm]();
  h.update(bytes);
  return h.digest().toString('base64');
}

const EMPTY = new Uint8Array(0);

/**
 * MD5 (always) plus whichever checksums were asked for, computed over the bytes as they stream.
 * A body that comes as one chunk (most small objects) is hashed in one shot at the end: a
 * streaming hash is a native object per algorithm, which costs more than hashing 4 KiB.
 */
export class BodyHasher {
  private readonly algorithms: ChecksumAlgorithm[];
  private only: Uint8Array | undefined;
  private md5: Hash | undefined;
  private extra: [ChecksumAlgorithm, Running][] = [];
  size = 0;

  constructor(algorithms: Iterable<ChecksumAlgorithm> = []) {
    this.algorithms = [...new Set(algorithms)];
  }

  update(chunk: Uint8Array): void {
    this.size += chunk.length;
    if (!this.md5) {
      if (this.only === undefined) {
        this.only = chunk;
        return;
      }
      this.md5 = createHash('md5');
      this.extra = this.algorithms.map((a) => [a, MAKERS[a]()]);
      this.feed(this.only);
      this.only = undefined;
    }
    this.feed(chunk);
  }

  private feed(chunk: Uint8Array): void {
    this.md5!.update(chunk);
    for (const [, h] of this.extra) h.update(chunk);
  }

  /** Lowercase hex MD5 and base64 checksums. Call once. */
  finish(): { md5: string; checksums: Checksums } {
    const checksums: Checksums = {};
    if (!this.md5) {
      const bytes = this.only ?? EMPTY;
      for (const a of this.algorithms) checksums[a] = digestOf(a, bytes);
      return { md5: hash('md5', bytes, 'hex'), checksums };
    }
    for (const [a, h] of this.extra) checksums[a] = h.digest().toString('base64');
    return { md5: this.md5.digest('hex'), checksums };
  }
}

/** The S3 multipart ETag: MD5 over the concatenated binary part MD5s, then `-N`. */
export function multipartEtag(partMd5s: string[]): string {
  const h = createHash('md5');
  for (const m of partMd5s) h.update(Buffer.from(m, 'hex'));
  return `${h.digest('hex')}-${partMd5s.length}`;
}
