import type { RequestFields, Tag } from '../../engine/index.js';
import type { ConditionalHeaders } from '../common/conditionals.js';
import { headerOf, type RequestHeaders } from '../common/headers.js';
import { decodeStrict } from '../common/url.js';
import { S3Error, s3 } from './errors.js';
import { checkStorageClass, readStandard, readUserMeta } from './metadata.js';
import type { CopyRange, CopySource } from './operation.js';
import { headerToText } from '../common/header-text.js';

export { headerOf, type RequestHeaders } from '../common/headers.js';

export const MAX_KEYS = 1000;
/** AWS reads these parameters as 32-bit integers: a larger value is InvalidArgument, not capped. */
const INT32_MAX = 2 ** 31 - 1;

/** An integer query parameter within AWS's int32 range, or InvalidArgument in AWS's words. */
export function int32Param(raw: string, name: string): number {
  const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= -INT32_MAX - 1 && n <= INT32_MAX)) throw s3.invalidArgument(`Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: raw });
  return n;
}

/** `max-keys` (§21.1): default 1000, capped at 1000, 0 allowed; anything else is InvalidArgument. */
export function maxKeys(raw: string | undefined, name = 'max-keys'): number {
  if (raw === undefined || raw === '') return MAX_KEYS;
  const n = int32Param(raw, name);
  if (n < 0) throw s3.invalidArgument(`Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: raw });
  return Math.min(n, MAX_KEYS);
}

/** `encoding-type`: only `url` (names go out percent-encoded, as boto3 and aws-cli expect). */
export function encodingType(raw: string | undefined): 'url' | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'url') throw s3.invalidArgument('Invalid Encoding Method specified in Request', { ArgumentName: 'encoding-type', ArgumentValue: raw });
  return 'url';
}

/** `partNumber` of UploadPart and UploadPartCopy: 1 to 10,000. */
export function uploadPartNumber(raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 10000) {
    throw s3.invalidArgument('Part number must be an integer between 1 and 10000, inclusive', { ArgumentName: 'partNumber', ArgumentValue: raw ?? '' });
  }
  return Number(raw);
}

/** `partNumber` of GetObject / HeadObject (§22.2): absent, or 1 to 10,000. */
export function readPartNumber(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 10000) throw new S3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
  return Number(raw);
}

/** Object fields from PutObject / CreateMultipartUpload / CopyObject(REPLACE) headers (the ACL is the operation's `acl`). */
export function objectFields(headers: RequestHeaders): RequestFields {
  checkStorageClass(headerOf(headers, 'x-amz-storage-class'));
  const contentType = headerOf(headers, 'content-type');
  const fields: RequestFields = { meta: readUserMeta(headers), headers: readStandard(headers) };
  // Kept as text, as the native API keeps it (both send it back byte for byte).
  if (contentType) fields.contentType = headerToText(contentType);
  const tagging = headerOf(headers, 'x-amz-tagging');
  if (tagging !== undefined) fields.tags = taggingHeader(tagging);
  return fields;
}

const BAD_TAGGING_HEADER = "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.";

/** `x-amz-tagging`: URL query form (`k1=v1&k2`); a key twice or a broken escape is InvalidArgument, as AWS says. Limits are the engine's. */
export function taggingHeader(value: string): Tag[] {
  const tags: Tag[] = [];
  const seen = new Set<string>();
  for (const pair of value.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [key, val] = [eq < 0 ? pair : pair.slice(0, eq), eq < 0 ? '' : pair.slice(eq + 1)].map((s) => decodeStrict(s.replace(/\+/g, ' ')));
    if (key === undefined || val === undefined || seen.has(key)) throw s3.invalidArgument(BAD_TAGGING_HEADER, { ArgumentName: 'x-amz-tagging', ArgumentValue: value });
    seen.add(key);
    tags.push({ key, value: val });
  }
  return tags;
}

/** The four conditional headers, under a prefix (`x-amz-copy-source-` for a copy's source). */
export function conditions(headers: RequestHeaders, prefix = ''): ConditionalHeaders {
  const h = (n: string) => headerOf(headers, `${prefix}${n}`);
  return { ifMatch: h('if-match'), ifNoneMatch: h('if-none-match'), ifModifiedSince: h('if-modified-since'), ifUnmodifiedSince: h('if-unmodified-since') };
}

/** What a write may be conditional on (PutObject, CompleteMultipartUpload): the current version's ETag, or that there is none. */
export interface WriteConditions {
  ifMatch: string | undefined;
  ifNoneMatch: '*' | undefined;
}

const NOT_IMPLEMENTED_HEADER = 'A header you provided implies functionality that is not implemented';

/**
 * If-Match / If-None-Match on a write, as AWS takes them: If-None-Match only as `*` (an ETag there
 * is 501 NotImplemented, AWS's answer), and not both at once (501 too). An empty value is no
 * condition.
 */
export function writeConditions(headers: RequestHeaders): WriteConditions {
  const ifMatch = headerOf(headers, 'if-match')?.trim() || undefined;
  const ifNoneMatch = headerOf(headers, 'if-none-match')?.trim() || undefined;
  if (ifNoneMatch !== undefined && ifNoneMatch !== '*') throw new S3Error(501, 'NotImplemented', NOT_IMPLEMENTED_HEADER, { Header: 'If-None-Match' });
  if (ifMatch !== undefined && ifNoneMatch !== undefined) throw new S3Error(501, 'NotImplemented', NOT_IMPLEMENTED_HEADER, { Header: 'If-Match' });
  return { ifMatch, ifNoneMatch };
}

/** `x-amz-copy-source`: URL-encoded `bucket/key[?versionId=v]`, leading `/` optional, `tenant:bucket` allowed. */
export function copySource(raw: string | undefined): CopySource {
  const value = raw ?? '';
  const q = value.indexOf('?');
  const path = decodeStrict(q < 0 ? value : value.slice(0, q));
  const query = q < 0 ? '' : value.slice(q + 1);
  const m = /^\/?([^/]+)\/(.+)$/s.exec(path ?? '');
  if (!m) throw s3.invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey', { ArgumentName: 'x-amz-copy-source' });
  const [, bucketPart = '', key = ''] = m;
  const colon = bucketPart.indexOf(':');
  const version = /(?:^|&)versionId=([^&]*)/.exec(query)?.[1];
  return {
    tenant: colon < 0 ? undefined : bucketPart.slice(0, colon),
    bucket: colon < 0 ? bucketPart : bucketPart.slice(colon + 1),
    key,
    versionId: version !== undefined ? (decodeStrict(version) ?? version) : undefined,
  };
}

/**
 * `x-amz-copy-source-range`: undefined when absent; otherwise exactly `bytes=first-last` (one
 * range, both ends given), or malformed: AWS refuses suffix, open-ended and multiple ranges here,
 * which a GET's Range would take.
 */
export function copyRange(raw: string | undefined): CopyRange | undefined {
  if (raw === undefined) return undefined;
  const m = /^bytes=(\d+)-(\d+)$/.exec(raw.trim());
  if (!m) return { malformed: raw };
  return { start: Number(m[1]), end: Number(m[2]) };
}

const OVERRIDES: [string, string][] = [
  ['response-content-type', 'Content-Type'],
  ['response-content-language', 'Content-Language'],
  ['response-expires', 'Expires'],
  ['response-cache-control', 'Cache-Control'],
  ['response-content-disposition', 'Content-Disposition'],
  ['response-content-encoding', 'Content-Encoding'],
];

/** `response-*` overrides of GetObject as [parameter, header, value]; a control character cannot go in a header. */
export function responseOverrides(query: Map<string, string>): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const [q, name] of OVERRIDES) {
    const v = query.get(q);
    if (v === undefined) continue;
    // A CR, LF or other control character cannot be sent in a header: the client's mistake, not a 500.
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(v)) throw new S3Error(400, 'InvalidArgument', `Invalid value for ${q}`);
    out.push([q, name, v]);
  }
  return out;
}
