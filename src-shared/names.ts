/** Name rules shared by the engine, the front ends and the renderer (pure functions, no I/O). */

export const MAX_OBJECT_NAME_BYTES = 1024;
/** Swift's max_container_name_length (RGW's Swift API stops at 255); S3 bucket names stay within 63 (s3BucketNameProblem). */
export const MAX_CONTAINER_NAME_BYTES = 256;
export const MAX_ACCOUNT_NAME_BYTES = 256;

const TENANT_RE = /^[A-Za-z0-9_]*$/;
/** Account (user) names: printable, no separators that the URL or key grammar uses. */
const ACCOUNT_NAME_RE = /^[A-Za-z0-9_.@+=,-]+$/;
const SUBUSER_RE = /^[A-Za-z0-9_.@+=,-]+$/;

/** Byte length of the UTF-8 encoding of a well-formed string. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** True when the string has no lone surrogates (so it has an exact UTF-8 encoding). */
export function isWellFormedUnicode(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

export interface AccountId {
  tenant: string;
  name: string;
}

/** Parses `<tenant>$<name>` (or a bare `<name>` in the empty tenant); null when malformed. */
export function parseAccountId(id: string): AccountId | null {
  const dollar = id.indexOf('$');
  const tenant = dollar < 0 ? '' : id.slice(0, dollar);
  const name = dollar < 0 ? id : id.slice(dollar + 1);
  if (!TENANT_RE.test(tenant) || !ACCOUNT_NAME_RE.test(name)) return null;
  if (utf8Length(id) > MAX_ACCOUNT_NAME_BYTES) return null;
  return { tenant, name };
}

export function formatAccountId({ tenant, name }: AccountId): string {
  return tenant ? `${tenant}$${name}` : name;
}

export function isValidTenant(tenant: string): boolean {
  return TENANT_RE.test(tenant);
}

export function isValidSubuser(sub: string): boolean {
  return SUBUSER_RE.test(sub);
}

/** Why an object name is invalid, or null when it is valid. */
export function objectNameProblem(name: string): string | null {
  if (name.length === 0) return 'Object name is empty';
  if (!isWellFormedUnicode(name)) return 'Object name is not valid Unicode';
  if (name.includes('\0')) return 'Object name contains a NUL character';
  const n = utf8Length(name);
  if (n > MAX_OBJECT_NAME_BYTES) return `Object name length of ${n} longer than ${MAX_OBJECT_NAME_BYTES}`;
  return null;
}

/**
 * Why a container name is invalid for the store, or null. This is the native API's rule (any
 * UTF-8 without '/', up to 256 bytes, as Swift); the compatible API adds its stricter bucket rule on create.
 */
export function containerNameProblem(name: string): string | null {
  if (name.length === 0) return 'Container name is empty';
  if (!isWellFormedUnicode(name)) return 'Container name is not valid Unicode';
  if (name.includes('/')) return 'Container name contains "/"';
  if (name.includes('\0')) return 'Container name contains a NUL character';
  if (name === '.' || name === '..') return 'Container name cannot be "." or ".."';
  const n = utf8Length(name);
  if (n > MAX_CONTAINER_NAME_BYTES) return `Container name length of ${n} longer than ${MAX_CONTAINER_NAME_BYTES}`;
  return null;
}

const IPV4_RE = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The strict S3 bucket naming rule (AWS and RGW default), or null when valid. */
export function s3BucketNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) return 'Bucket name must be 3 to 63 characters long';
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(name)) {
    return 'Bucket name may contain lower-case letters, digits, "." and "-", and must start and end with a letter or digit';
  }
  if (/\.\.|\.-|-\./.test(name)) return 'Bucket name cannot contain "..", ".-" or "-."';
  if (IPV4_RE.test(name)) return 'Bucket name cannot look like an IP address';
  return null;
}

/** The virtual folder a name belongs to (everything up to and including the last delimiter). */
export function parentFolder(name: string, delimiter = '/'): string {
  const trimmed = name.endsWith(delimiter) ? name.slice(0, -delimiter.length) : name;
  const i = trimmed.lastIndexOf(delimiter);
  return i < 0 ? '' : trimmed.slice(0, i + delimiter.length);
}

/** The last path segment of a name, for display (`a/b/` -> `b/`, `a/b.txt` -> `b.txt`). */
export function baseName(name: string, delimiter = '/'): string {
  return name.slice(parentFolder(name, delimiter).length);
}
