import { CofferError } from '../../../src-shared/errors.js';
import { createHmac } from 'node:crypto';
import type { Engine } from '../../engine/index.js';
import type { Exchange } from '../common/exchange.js';
import { S3Error } from './errors.js';
import { sameSignature } from './canonical.js';
import type { S3Address } from './router.js';

const SUB_RESOURCES = new Set(
  (
    'acl cors delete lifecycle location logging notification partNumber policy publicAccessBlock requestPayment restore tagging ' +
    'torrent uploadId uploads versionId versioning versions website object-lock response-cache-control response-content-disposition ' +
    'response-content-encoding response-content-language response-content-type response-expires'
  ).split(' '),
);

/**
 * The CanonicalizedResource (§17.3): `/bucket` for a virtual-host request, then the path as sent,
 * so a bucket-level request is `/bucket/` when addressed by host or sent as `/bucket/`, and
 * `/bucket` when sent so path style (AWS's rule; RGW and Swift's s3api refuse `/bucket/` there).
 */
function canonicalResource(x: Exchange, a: S3Address): string {
  const path = a.style === 'virtual-host' ? `/${a.bucket}${x.rawPath}` : x.rawPath;
  const subs = [...(x.query ?? new Map<string, string>()).entries()]
    .filter(([k]) => SUB_RESOURCES.has(k))
    .sort(([a1], [b1]) => (a1 < b1 ? -1 : 1))
    .map(([k, v]) => (v === '' ? k : `${k}=${v}`));
  return subs.length ? `${path}?${subs.join('&')}` : path;
}

/**
 * The header signature's date: x-amz-date when sent (even empty), else Date. Missing, empty,
 * unreadable or before 1970 is 403 AccessDenied, as AWS and Swift's s3api answer; a readable date
 * outside 15 minutes is RequestTimeTooSkewed.
 */
function checkedDate(x: Exchange): void {
  const amz = x.header('x-amz-date');
  const date = amz ?? x.header('date');
  const when = date ? Date.parse(date) : NaN;
  if (Number.isNaN(when) || when < 0) throw new S3Error(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  if (Math.abs(Date.now() - when) > 15 * 60 * 1000) {
    throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  }
}

function amzHeaders(x: Exchange): string {
  return Object.keys(x.req.headers)
    .filter((h) => h.startsWith('x-amz-'))
    .sort()
    .map((h) => `${h}:${(x.req.headersDistinct[h] ?? []).map((v) => v.trim()).join(',')}\n`)
    .join('');
}

/** SigV2 (§17.3), header `AWS AKID:sig` or query `AWSAccessKeyId`/`Signature`/`Expires`; returns the account. */
export function verifySigV2(x: Exchange, engine: Engine, a: S3Address): string {
  const header = x.header('authorization');
  let accessKey: string;
  let given: string;
  let dateLine: string;
  if (header) {
    const m = /^AWS ([^:]+):(.+)$/.exec(header.trim());
    if (!m) throw new S3Error(400, 'InvalidArgument', 'Malformed AWS authorization header');
    [, accessKey = '', given = ''] = m;
    checkedDate(x);
    dateLine = x.header('x-amz-date') !== undefined ? '' : (x.header('date') ?? '');
  } else {
    accessKey = x.param('AWSAccessKeyId') ?? '';
    given = x.param('Signature') ?? '';
    dateLine = x.param('Expires') ?? '';
    if (Date.now() >= Number(dateLine) * 1000) throw new S3Error(403, 'AccessDenied', 'Request has expired');
  }
  const found = engine.findByAccessKey(accessKey);
  if (!found) throw new CofferError('AuthFailed');
  const toSign = [x.method, x.header('content-md5') ?? '', x.header('content-type') ?? '', dateLine, ''].join('\n') + amzHeaders(x) + canonicalResource(x, a);
  const expected = createHmac('sha1', found.secretKey).update(toSign, 'utf8').digest('base64');
  if (!sameSignature(expected, given)) {
    throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }
  return found.account.id;
}
