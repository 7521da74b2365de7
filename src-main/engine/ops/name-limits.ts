import { CofferError } from '../../../src-shared/errors.js';
import { MAX_ACCOUNT_NAME_BYTES, MAX_CONTAINER_NAME_BYTES, MAX_OBJECT_NAME_BYTES } from '../../../src-shared/names.js';
import type { ContainerRef } from '../types.js';

/**
 * The name limits as they reach the index. Writes refuse names past them (put-object.ts,
 * containers.ts, accounts.ts), so nothing longer was ever stored, and every key the index builds
 * from a name within them fits (see MAX_KEY_BYTES in keys.ts). A name from a request can be any
 * length, though, and lmdb throws on a key past its maximum (a 500): so reads of a longer name
 * end here, answering as for one that does not exist, and listings clamp their bounds.
 */

/**
 * UTF-8 bytes of `s` when more than `max`, else undefined. A UTF-16 unit takes at most 3 bytes
 * (a surrogate pair 4 for two units), so a short string is not measured at all.
 */
export function bytesOver(s: string, max: number): number | undefined {
  if (s.length * 3 <= max) return undefined;
  const n = Buffer.byteLength(s, 'utf8');
  return n > max ? n : undefined;
}

/** What an error about an over-long object name carries (S3 renders it as KeyTooLongError's Size and MaxSizeAllowed). */
export function tooLongDetails(size: number): { nameBytes: number; maxNameBytes: number } {
  return { nameBytes: size, maxNameBytes: MAX_OBJECT_NAME_BYTES };
}

/** For an operation on an existing object (or upload): a name no object can have is missing. */
export function requireFindableName(name: string, code: 'NoSuchKey' | 'NoSuchUpload' = 'NoSuchKey'): void {
  const size = bytesOver(name, MAX_OBJECT_NAME_BYTES);
  if (size === undefined) return;
  const message = code === 'NoSuchKey' ? 'The specified key does not exist.' : 'The specified multipart upload does not exist.';
  throw new CofferError(code, message, tooLongDetails(size));
}

/** Whether a container of this tenant and name could exist (a tenant is part of an account id). */
export function couldBeContainer(ref: ContainerRef): boolean {
  return bytesOver(ref.container, MAX_CONTAINER_NAME_BYTES) === undefined && bytesOver(ref.tenant, MAX_ACCOUNT_NAME_BYTES) === undefined;
}

/** Whether an account (or a credential naming one) could exist. */
export function couldBeAccount(id: string): boolean {
  return bytesOver(id, MAX_ACCOUNT_NAME_BYTES) === undefined;
}

const L = MAX_OBJECT_NAME_BYTES;

/**
 * The bound for "names after `m`" that fits a key. A name n of at most L bytes is greater than m
 * exactly when it is greater than m's first L bytes: they first differ within n, at the same
 * place in both, and n cannot extend m (it is shorter). The cut may split a character; bounds
 * compare as bytes.
 */
export function afterBound(m: Buffer): Buffer {
  return m.length > L ? m.subarray(0, L) : m;
}

/**
 * The bound for "names before `m`" that fits a key. For n of at most L bytes, n < m exactly when
 * n <= m[0:L], and as names hold no NUL, when n < m[0:L] + 0x00.
 */
export function beforeBound(m: Buffer): Buffer {
  return m.length > L ? Buffer.concat([m.subarray(0, L), Buffer.of(0)]) : m;
}

/** A prefix longer than any name matches none. */
export function prefixCanMatch(prefix: Buffer): boolean {
  return prefix.length <= L;
}
