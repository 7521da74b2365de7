import { crc32 } from 'node:zlib';
import { Crc32c } from '@aws-crypto/crc32c';

/**
 * The CRCs S3's additional checksums use that no installed package computes or combines:
 * CRC64/NVME (the SDKs' default full-object checksum; Node and @aws-crypto have none) and the
 * combination of CRCs of consecutive pieces (a multipart upload's full-object checksum from its
 * parts' CRCs, without reading the bytes again). All three CRCs are reflected, start from all
 * ones and end xor all ones, so crc(A‖B) = shift(crc(A), |B|) ⊕ crc(B), the shift a
 * multiplication by x^(8|B|) modulo the polynomial (the method of zlib's crc32_combine).
 */

/** CRC-64/NVME, reflected polynomial (normal form 0xAD93D23594C93659). */
const NVME_POLY = 0x9a6c9329ac4bc9b5n;

// The byte table as two 32-bit halves: BigInt per byte would be far too slow for object bodies.
const TABLE_HI = new Uint32Array(256);
const TABLE_LO = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let c = BigInt(i);
  for (let k = 0; k < 8; k++) c = c & 1n ? (c >> 1n) ^ NVME_POLY : c >> 1n;
  TABLE_HI[i] = Number(c >> 32n);
  TABLE_LO[i] = Number(c & 0xffffffffn);
}

/** A running CRC-64/NVME; `digest` gives the 8 big-endian bytes S3 sends in base64. */
export class Crc64Nvme {
  private hi = 0xffffffff;
  private lo = 0xffffffff;

  update(bytes: Uint8Array): void {
    let { hi, lo } = this;
    for (let i = 0; i < bytes.length; i++) {
      const idx = (lo ^ bytes[i]!) & 0xff;
      lo = ((lo >>> 8) | (hi << 24)) ^ TABLE_LO[idx]!;
      hi = (hi >>> 8) ^ TABLE_HI[idx]!;
    }
    this.hi = hi >>> 0;
    this.lo = lo >>> 0;
  }

  digest(): Buffer {
    const out = Buffer.alloc(8);
    out.writeUInt32BE(~this.hi >>> 0, 0);
    out.writeUInt32BE(~this.lo >>> 0, 4);
    return out;
  }
}

/** The CRCs a multipart upload may combine into a full-object checksum, by S3's names. */
export type CombinableCrc = 'crc32' | 'crc32c' | 'crc64nvme';

const SHAPES: Record<CombinableCrc, { width: number; poly: bigint }> = {
  crc32: { width: 32, poly: 0xedb88320n },
  crc32c: { width: 32, poly: 0x82f63b78n },
  crc64nvme: { width: 64, poly: NVME_POLY },
};

/** a·b modulo the polynomial, in the reflected representation (bit width-1 is x^0). */
function multModP(a: bigint, b: bigint, width: number, poly: bigint): bigint {
  let m = 1n << BigInt(width - 1);
  let p = 0n;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1n)) === 0n) break;
    }
    m >>= 1n;
    if (m === 0n) break;
    b = b & 1n ? (b >> 1n) ^ poly : b >> 1n;
  }
  return p;
}

const powers = new Map<CombinableCrc, bigint[]>();
/** x^(2^k) modulo the polynomial, for k = 0..63. */
function powersOf(alg: CombinableCrc): bigint[] {
  let table = powers.get(alg);
  if (!table) {
    const { width, poly } = SHAPES[alg];
    table = [1n << BigInt(width - 2)];
    for (let k = 1; k < 64; k++) table.push(multModP(table[k - 1]!, table[k - 1]!, width, poly));
    powers.set(alg, table);
  }
  return table;
}

/** x^(8·bytes) modulo the polynomial. */
function shiftFor(alg: CombinableCrc, bytes: number): bigint {
  const { width, poly } = SHAPES[alg];
  const table = powersOf(alg);
  let p = 1n << BigInt(width - 1);
  let n = BigInt(bytes);
  for (let k = 3; n > 0n; k++, n >>= 1n) if (n & 1n) p = multModP(table[k % 64]!, p, width, poly);
  return p;
}

/** The CRC of pieces laid end to end, from each piece's CRC (big-endian bytes) and length. */
export function combineCrcs(alg: CombinableCrc, pieces: { crc: Buffer; size: number }[]): Buffer {
  const { width, poly } = SHAPES[alg];
  const read = (b: Buffer) => (width === 64 ? b.readBigUInt64BE(0) : BigInt(b.readUInt32BE(0)));
  let crc: bigint | undefined;
  for (const piece of pieces) {
    const next = read(piece.crc);
    crc = crc === undefined ? next : multModP(shiftFor(alg, piece.size), crc, width, poly) ^ next;
  }
  const out = Buffer.alloc(width / 8);
  if (width === 64) out.writeBigUInt64BE(crc ?? 0n);
  else out.writeUInt32BE(Number(crc ?? 0n));
  return out;
}

/** One-shot CRCs, for tests and small bodies. */
export function crcOf(alg: CombinableCrc, bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(alg === 'crc64nvme' ? 8 : 4);
  if (alg === 'crc64nvme') {
    const h = new Crc64Nvme();
    h.update(bytes);
    return h.digest();
  }
  const v = alg === 'crc32' ? crc32(bytes) : new Crc32c().update(bytes).digest();
  out.writeUInt32BE(v >>> 0);
  return out;
}
