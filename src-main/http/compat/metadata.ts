import { CofferError } from '../../../src-shared/errors.js';
import type { ChecksumAlgorithm, Checksums, ObjectInfo, StandardHeaders } from '../../engine/index.js';
import { COMMON_HEADERS } from '../../../src-shared/standard-headers.js';
import { headerToText, textToHeader } from '../common/header-text.js';
import type { HeaderValues } from '../common/exchange.js';
import { S3Error } from './errors.js';
import type { RequestHeaders } from './params.js';

const MAX_META_BYTES = 2048;

/**
 * `x-amz-meta-*` headers as user metadata (keys lower-case; shared with the native API's
 * X-Object-Meta-*). AWS caps the UTF-8 bytes of names (without the prefix) and values at 2 KB (§22.4).
 */
export function readUserMeta(headers: RequestHeaders): Record<string, string> {
  const meta: Record<string, string> = {};
  let bytes = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('x-amz-meta-') && typeof value === 'string') {
      const key = name.slice('x-amz-meta-'.length);
      meta[key] = headerToText(value);
      bytes += Buffer.byteLength(key) + Buffer.byteLength(meta[key]);
    }
  }
  if (bytes > MAX_META_BYTES) throw new CofferError('MetadataTooLarge');
  return meta;
}

/**
 * Content-Encoding without the `aws-chunked` token, which only frames the request body (§18.2).
 * Without that token the value is kept exactly as sent (`deflate, gzip` comes back so, as on AWS).
 */
export function storedEncoding(value: string | undefined): string | undefined {
  const tokens = (value ?? '').split(',').map((s) => s.trim());
  if (!tokens.some((e) => e.toLowerCase() === 'aws-chunked')) return value || undefined;
  const rest = tokens.filter((e) => e && e.toLowerCase() !== 'aws-chunked');
  return rest.length ? rest.join(',') : undefined;
}

/** The standard headers S3 keeps (the table's but Swift's X-Robots-Tag), empty ones left out. */
export function readStandard(headers: RequestHeaders): StandardHeaders {
  const out: StandardHeaders = {};
  for (const { field, name } of COMMON_HEADERS) {
    const lower = name.toLowerCase();
    const v = field === 'contentEncoding' ? storedEncoding(headers[lower] as string | undefined) : headers[lower];
    if (typeof v === 'string' && v !== '') out[field] = headerToText(v);
  }
  return out;
}

/** Only STANDARD exists here; the alias names clients send for it are accepted. */
export function checkStorageClass(value: string | undefined): void {
  if (value !== undefined && value !== 'STANDARD') throw new S3Error(400, 'InvalidStorageClass', 'The storage class you specified is not valid');
}

/** Adds `x-amz-checksum-<algorithm>` for each checksum to `headers` (uploads echo them, GET with checksum mode shows them). */
export function addChecksumHeaders(checksums: Checksums | undefined, headers: HeaderValues): HeaderValues {
  for (const alg in checksums) headers[`x-amz-checksum-${alg}`] = checksums[alg as ChecksumAlgorithm];
  return headers;
}

/** GET/HEAD object headers (seed C3, §22.2), with `response-*` overrides applied. */
export function objectHeaders(o: ObjectInfo, overrides: [string, string, string][], checksumMode: boolean): HeaderValues {
  const h: HeaderValues = {
    'Content-Type': o.contentType ? textToHeader(o.contentType) : 'binary/octet-stream',
    ETag: `"${o.etag}"`,
    'Last-Modified': new Date(Math.floor(o.lastModified / 1000) * 1000).toUTCString(),
    'Accept-Ranges': 'bytes',
    'x-amz-storage-class': 'STANDARD',
    'x-amz-object-type': 'Normal',
    'x-rgw-object-type': 'Normal',
  };
  if (o.versionId !== null) h['x-amz-version-id'] = o.versionId;
  for (const { field, name } of COMMON_HEADERS) if (o.headers[field] !== undefined) h[name] = textToHeader(o.headers[field]!);
  for (const [k, v] of Object.entries(o.meta)) h[`x-amz-meta-${k}`] = textToHeader(v);
  if (o.tags?.length) h['x-amz-tagging-count'] = o.tags.length;
  if (checksumMode && Object.keys(o.checksums).length) {
    addChecksumHeaders(o.checksums, h);
    h['x-amz-checksum-type'] = o.checksumType;
  }
  // The table spells the headers as the overrides do (Cache-Control): replaced in place.
  for (const [, name, v] of overrides) h[name] = textToHeader(v);
  return h;
}
