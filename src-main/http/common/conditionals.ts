import { parseHttpDate } from './dates.js';

export interface Validators {
  etag: string;
  lastModified: number;
}

export interface ConditionalHeaders {
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
  ifUnmodifiedSince?: string | undefined;
}

function matches(list: string, etag: string): boolean {
  return list.split(',').some((t) => {
    const v = t.trim().replace(/^W\//, '').replace(/"/g, '');
    return v === '*' || v === etag;
  });
}

/**
 * RFC 9110 conditional evaluation with the AWS precedence rules: If-Match wins over
 * If-Unmodified-Since, If-None-Match over If-Modified-Since. Returns what to answer instead of
 * the representation: 412, 304 (GET/HEAD only; for other methods If-None-Match fails with 412),
 * or 'ok'. Dates compare at one-second resolution; invalid dates are ignored.
 */
export function evaluateConditions(h: ConditionalHeaders, v: Validators, isRead: boolean): 'ok' | 304 | 412 {
  const seconds = Math.floor(v.lastModified / 1000);
  if (h.ifMatch !== undefined) {
    if (!matches(h.ifMatch, v.etag)) return 412;
  } else {
    const since = parseHttpDate(h.ifUnmodifiedSince);
    if (since !== undefined && seconds > Math.floor(since / 1000)) return 412;
  }
  if (h.ifNoneMatch !== undefined) {
    if (matches(h.ifNoneMatch, v.etag)) return isRead ? 304 : 412;
  } else if (isRead) {
    const since = parseHttpDate(h.ifModifiedSince);
    if (since !== undefined && seconds <= Math.floor(since / 1000)) return 304;
  }
  return 'ok';
}
