import type { IncomingHttpHeaders } from 'node:http';
import type { ObjectInfo, StandardHeaders } from '../../engine/types.js';
import { headerToText, textToHeader } from '../common/header-text.js';
import type { HeaderValues } from '../common/exchange.js';
import { S3Error } from './errors.js';

/** `x-amz-meta-*` headers as user metadata (keys lower-case; shared with the native API's X-Object-Meta-*). */
export function readUserMeta(headers: IncomingHttpHeaders): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('x-amz-meta-') && typeof value === 'string') meta[name.slice('x-amz-meta-'.length)] = headerToText(value);
  }
  return meta;
}

const STANDARD: [keyof StandardHeaders, string][] = [
  ['cacheControl', 'cache-control'],
  ['contentDisposition', 'content-disposition'],
  ['contentEncoding', 'content-encoding'],
  ['contentLanguage', 'content-language'],
  ['expires', 'expires'],
];

export function readStandard(headers: IncomingHttpHeaders, contentEncoding: string | undefined): StandardHeaders {
  const out: StandardHeaders = {};
  for (const [field, name] of STANDARD) {
    const v = field === 'contentEncoding' ? contentEncoding : headers[name];
    if (typeof v === 'string' && v !== '') out[field] = headerToText(v);
  }
  return out;
}

/** Only STANDARD exists here; the alias names clients send for it are accepted. */
export function checkStorageClass(value: string | undefined): void {
  if (value !== undefined && value !== 'STANDARD') throw new S3Error(400, 'InvalidStorageClass', 'The storage class you specified is not valid');
}

const OVERRIDES: [string, string][] = [
  ['response-content-type', 'Content-Type'],
  ['response-content-language', 'Content-Language'],
  ['response-expires', 'Expires'],
  ['response-cache-control', 'Cache-Control'],
  ['response-content-disposition', 'Content-Disposition'],
  ['response-content-encoding', 'Content-Encoding'],
];

/** GET/HEAD object headers (seed C3, §22.2), with `response-*` overrides applied. */
export function objectHeaders(o: ObjectInfo, param: (n: string) => string | undefined, checksumMode: boolean): HeaderValues {
  const h: HeaderValues = {
    'Content-Type': o.contentType || 'binary/octet-stream',
    ETag: `"${o.etag}"`,
    'Last-Modified': new Date(Math.floor(o.lastModified / 1000) * 1000).toUTCString(),
    'Accept-Ranges': 'bytes',
    'x-amz-storage-class': 'STANDARD',
    'x-amz-object-type': 'Normal',
    'x-rgw-object-type': 'Normal',
  };
  if (o.versionId !== null) h['x-amz-version-id'] = o.versionId;
  if (o.partsCount) h['x-amz-mp-parts-count'] = o.partsCount;
  for (const [field, name] of STANDARD) if (o.headers[field] !== undefined) h[name] = textToHeader(o.headers[field]!);
  for (const [k, v] of Object.entries(o.meta)) h[`x-amz-meta-${k}`] = textToHeader(v);
  if (checksumMode) for (const [alg, value] of Object.entries(o.checksums)) h[`x-amz-checksum-${alg}`] = value;
  for (const [q, name] of OVERRIDES) {
    const v = param(q);
    if (v !== undefined) {
      delete h[name.toLowerCase()];
      h[name] = textToHeader(v);
    }
  }
  return h;
}

export function hasResponseOverrides(param: (n: string) => string | undefined): boolean {
  return OVERRIDES.some(([q]) => param(q) !== undefined);
}
