/**
 * Binary key layouts of the index. Object names are stored as their UTF-8 bytes after a 4-byte
 * container id, so LMDB's byte order is exactly the listing order (names compare by UTF-8 bytes).
 * Names never contain NUL, so `name + 0x00` sorts before every longer name with that prefix and
 * is the separator for per-name sub-keys (versions, uploads). Valid UTF-8 never contains 0xFF,
 * so `prefix + 0xFF` is an upper bound for every name starting with `prefix`.
 */
import { CofferError } from '../../../src-shared/errors.js';
import { MAX_OBJECT_NAME_BYTES } from '../../../src-shared/names.js';

export const CID_BYTES = 4;
const SEPARATOR = 0x00;
const AFTER_ALL = 0xff;

/**
 * lmdb-js refuses a key longer than this (its default maxKeySize) with an exception, on reads as
 * on writes. Keys built from names within their limits stay well under it: the longest is an
 * upload key, CID_BYTES + 1024 + 1 + 32 (upload id) = 1061 bytes; a version key is 1037, an
 * expiry key 1036, a listing bound (name + 0xFF) 1029; the string keys of containers and
 * accounts hold at most 256 + 1 + 256 bytes. Names from requests are checked against their
 * limits before they get here (ops/name-limits.ts); objectKey refuses one that was not, so a
 * missed check answers 400 instead of lmdb's error.
 */
export const MAX_KEY_BYTES = 1978;

export function cidBytes(cid: number): Buffer {
  const b = Buffer.allocUnsafe(CID_BYTES);
  b.writeUInt32BE(cid);
  return b;
}

export function objectKey(cid: number, name: string | Buffer): Buffer {
  const n = typeof name === 'string' ? Buffer.from(name, 'utf8') : name;
  if (n.length > MAX_OBJECT_NAME_BYTES) {
    throw new CofferError('InvalidObjectName', `Object name length of ${n.length} longer than ${MAX_OBJECT_NAME_BYTES}`);
  }
  const key = Buffer.allocUnsafe(CID_BYTES + n.length);
  key.writeUInt32BE(cid);
  n.copy(key, CID_BYTES);
  return key;
}

/** The name bytes of an object/version/upload key (everything after the container id, up to the separator). */
export function nameBytesOf(key: Buffer): Buffer {
  const sep = key.indexOf(SEPARATOR, CID_BYTES);
  return key.subarray(CID_BYTES, sep < 0 ? key.length : sep);
}

export function nameOf(key: Buffer): string {
  return nameBytesOf(key).toString('utf8');
}

/** First key after every key that starts with `prefix` (prefix given as full key bytes). */
export function afterPrefix(prefixKey: Buffer): Buffer {
  return Buffer.concat([prefixKey, Buffer.of(AFTER_ALL)]);
}

/** Smallest key strictly greater than `key` among keys holding names (names have no NUL). */
export function justAfter(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.of(SEPARATOR)]);
}

/** Version keys: name, separator, then (MAX - seq) so the newest version of a name sorts first. */
const SEQ_MAX = 2n ** 63n;
export function versionKey(cid: number, name: string | Buffer, seq: number): Buffer {
  const base = objectKey(cid, name);
  const key = Buffer.allocUnsafe(base.length + 9);
  base.copy(key);
  key[base.length] = SEPARATOR;
  key.writeBigUInt64BE(SEQ_MAX - BigInt(seq), base.length + 1);
  return key;
}

/** All version keys of one name lie in [versionsOfStart, versionsOfEnd). */
export function versionsOfName(cid: number, name: string | Buffer): { start: Buffer; end: Buffer } {
  const base = objectKey(cid, name);
  return { start: Buffer.concat([base, Buffer.of(SEPARATOR)]), end: Buffer.concat([base, Buffer.of(SEPARATOR + 1)]) };
}

export function uploadKey(cid: number, name: string | Buffer, uploadId: string): Buffer {
  return Buffer.concat([objectKey(cid, name), Buffer.of(SEPARATOR), Buffer.from(uploadId, 'latin1')]);
}

export function uploadIdOf(key: Buffer): string {
  return key.subarray(key.indexOf(SEPARATOR, CID_BYTES) + 1).toString('latin1');
}

export function partKey(uploadId: string, partNumber: number): Buffer {
  const id = Buffer.from(uploadId, 'latin1');
  const key = Buffer.allocUnsafe(id.length + 5);
  id.copy(key);
  key[id.length] = SEPARATOR;
  key.writeUInt32BE(partNumber, id.length + 1);
  return key;
}

export function partsOfUpload(uploadId: string): { start: Buffer; end: Buffer } {
  const id = Buffer.from(uploadId, 'latin1');
  return { start: Buffer.concat([id, Buffer.of(SEPARATOR)]), end: Buffer.concat([id, Buffer.of(SEPARATOR + 1)]) };
}

/** Expiry queue: delete-at seconds first, so a sweep reads only what is due. */
export function expiryKey(deleteAt: number, objKey: Buffer): Buffer {
  // Checked where it is set (checkDeleteAt); BigInt would throw a RangeError (a 500) on a fraction.
  if (!Number.isSafeInteger(deleteAt) || deleteAt < 0) throw new CofferError('InvalidArgument', `Invalid expiry time ${deleteAt}`);
  const key = Buffer.allocUnsafe(8 + objKey.length);
  key.writeBigUInt64BE(BigInt(deleteAt));
  objKey.copy(key, 8);
  return key;
}

export function expiryBound(deleteAt: number): Buffer {
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(BigInt(deleteAt));
  return key;
}

/**
 * The `inline` table's key for the bytes of the version committed with sequence number `seq`:
 * fixed-width hex after `s`, so keys sort in commit order and each new entry lands at the end of
 * the table. Random keys (stores written before this still hold some: 32 hex digits, which sort
 * before `s`) scattered every insert over the table, a page copied and written per object.
 */
export function inlineKey(seq: number): string {
  return `s${seq.toString(16).padStart(13, '0')}`;
}
