import type { Engine } from '../../engine/index.js';
import type { Exchange } from '../common/exchange.js';
import { canonicalHeaders, canonicalQuery, canonicalRequest, canonicalUris, EMPTY_SHA256, sameSignature, SIGNED_HASH, signingKey, stringToSign, type HmacKey } from './canonical.js';
import { S3_ERRORS, S3Error } from './errors.js';

const MAX_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGN_S = 604_800;

/** What a verified SigV4 request carries on to the body: the chunk-signature chain needs it. */
export interface SigV4Context {
  account: string;
  key: HmacKey;
  scope: string;
  amzDate: string;
  seedSignature: string;
}

interface Credential {
  accessKey: string;
  date: string;
  region: string;
  service: string;
}

/** How AWS words a fault of the credential, by where the credential came from. */
const HEADER_FAULT = { code: 'AuthorizationHeaderMalformed', prefix: 'The authorization header is malformed; ' };
const QUERY_FAULT = { code: 'AuthorizationQueryParametersError', prefix: 'Error parsing the X-Amz-Credential parameter; ' };

/** The credential scope; any region is accepted (§16.2), the service must be s3. */
function parseCredential(value: string | undefined, fault: typeof HEADER_FAULT): Credential {
  const parts = (value ?? '').split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request' || !parts[0]) {
    throw new S3Error(400, fault.code, `${fault.prefix}the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`);
  }
  const [accessKey, date, region, service] = parts as [string, string, string, string];
  if (service !== 's3') throw new S3Error(400, fault.code, `${fault.prefix}incorrect service "${service}". This endpoint belongs to "s3".`);
  return { accessKey, date, region, service };
}

/** The x-amz-content-sha256 values that name a payload mode instead of hashing the payload (§18.1), as AWS spells them. */
const PAYLOAD_MODES = new Set([
  'UNSIGNED-PAYLOAD',
  'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
  'STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD',
  'STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER',
]);
const BAD_PAYLOAD_HASH = `x-amz-content-sha256 must be ${[...PAYLOAD_MODES].join(', ')} or a valid sha256 value.`;

/**
 * A request that sends no body: a digest in x-amz-content-sha256 must then be the empty string's.
 * Handlers that read no body (GET, DELETE, ...) would never compare it, and AWS refuses it.
 */
function checkEmptyPayload(x: Exchange, payload: string): void {
  if (!SIGNED_HASH.test(payload) || payload.toLowerCase() === EMPTY_SHA256) return;
  const length = x.header('content-length');
  if ((length === undefined || length === '0') && x.header('transfer-encoding') === undefined) {
    const { status, code, message } = S3_ERRORS.ContentSha256Mismatch;
    throw new S3Error(status, code, message, { ClientComputedContentSHA256: payload, S3ComputedContentSHA256: EMPTY_SHA256 });
  }
}

/**
 * AWS refuses a request carrying a header it wants signed that is not: `host` and every `x-amz-*`
 * header (else anyone on the path could add x-amz-meta-*, x-amz-acl or x-amz-copy-source to a
 * signed request). `exempt` is x-amz-content-sha256 on presigned URLs, which AWS lets through;
 * under header auth the seed (5.2.4) has it signed.
 */
function checkSigned(x: Exchange, signed: string[], exempt?: string): void {
  let missing: string[] | undefined;
  if (!signed.includes('host')) missing = ['host'];
  // req.headers has lower-case names, built once per request anyway.
  for (const name in x.req.headers) {
    if (name.startsWith('x-amz-') && name !== exempt && !signed.includes(name)) (missing ??= []).push(name);
  }
  if (missing) throw new S3Error(403, 'AccessDenied', 'There were headers present in the request which were not signed', { HeadersNotSigned: missing.sort().join(', ') });
}

/** `20130524T000000Z` -> epoch ms, or undefined. */
export function parseAmzDate(v: string | undefined): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v ?? '');
  if (!m) return undefined;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

function secretFor(engine: Engine, accessKey: string) {
  const found = engine.findByAccessKey(accessKey);
  if (!found) throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: accessKey });
  return found;
}

/** Checks the signature against every canonical URI candidate; throws SignatureDoesNotMatch. */
function verifySignature(x: Exchange, cred: Credential, secret: string, amzDate: string, signed: string[], payload: string, given: string, omit?: string): HmacKey {
  const key = signingKey(secret, cred.date, cred.region, cred.service);
  const scope = `${cred.date}/${cred.region}/${cred.service}/aws4_request`;
  const query = canonicalQuery(x.rawQuery, omit);
  const headers = canonicalHeaders(x.req, signed);
  let lastCanonical = '';
  for (const uri of canonicalUris(x.rawPath)) {
    lastCanonical = canonicalRequest({ method: x.method, uri, query, headers, signedHeaders: signed.join(';'), payload });
    if (sameSignature(key.hex(stringToSign(amzDate, scope, lastCanonical)), given)) return key;
  }
  throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.', {
    AWSAccessKeyId: cred.accessKey,
    CanonicalRequest: lastCanonical,
  });
}

/** SigV4 in the Authorization header (§16). */
export function verifyHeaderAuth(x: Exchange, engine: Engine, authorization: string): SigV4Context {
  const fields = new Map<string, string>();
  for (const part of authorization.slice('AWS4-HMAC-SHA256'.length).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const signature = fields.get('Signature');
  const signedList = fields.get('SignedHeaders');
  if (!signature || !signedList || !fields.get('Credential')) {
    throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed; it must contain Credential, SignedHeaders and Signature.');
  }
  const cred = parseCredential(fields.get('Credential'), HEADER_FAULT);
  const payload = x.header('x-amz-content-sha256');
  if (!payload) throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  if (!SIGNED_HASH.test(payload) && !PAYLOAD_MODES.has(payload)) {
    throw new S3Error(400, 'InvalidArgument', BAD_PAYLOAD_HASH, { ArgumentName: 'x-amz-content-sha256', ArgumentValue: payload });
  }
  // A present x-amz-date is the date, and must parse: Date only stands in when it is absent.
  const amzDate = x.header('x-amz-date');
  const date = x.header('date');
  const when = amzDate !== undefined ? parseAmzDate(amzDate) : date ? Date.parse(date) : undefined;
  if (when === undefined || Number.isNaN(when)) throw new S3Error(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  if (Math.abs(Date.now() - when) > MAX_SKEW_MS) {
    throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', {
      RequestTime: amzDate ?? date ?? '',
      ServerTime: new Date().toISOString(),
      MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
    });
  }
  const dateForSign = amzDate ?? new Date(when).toISOString().replace(/[-:]|\.\d{3}/g, '');
  if (dateForSign.slice(0, 8) !== cred.date) {
    throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed; Invalid credential date. Date is not the same as X-Amz-Date.');
  }
  const signed = signedList.split(';').map((h) => h.trim().toLowerCase());
  checkSigned(x, signed);
  const found = secretFor(engine, cred.accessKey);
  const key = verifySignature(x, cred, found.secretKey, dateForSign, signed, payload, signature);
  checkEmptyPayload(x, payload);
  return { account: found.account.id, key, scope: `${cred.date}/${cred.region}/${cred.service}/aws4_request`, amzDate: dateForSign, seedSignature: signature };
}

/**
 * `X-Amz-Expires` in seconds, refused as AWS refuses it (AuthorizationQueryParametersError, 400):
 * not a number, negative, or over a week. RGW answers 403 AccessDenied for these; AWS decides.
 */
function presignExpiry(raw: string | undefined): number {
  const fault = (message: string) => new S3Error(400, 'AuthorizationQueryParametersError', message);
  if (raw === undefined || !/^-?\d+$/.test(raw)) throw fault('X-Amz-Expires should be a number');
  const expires = Number(raw);
  if (expires < 0) throw fault('X-Amz-Expires must be non-negative');
  if (expires > MAX_PRESIGN_S) throw fault('X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds');
  return expires;
}

/** SigV4 presigned query (§17.1). */
export function verifyPresigned(x: Exchange, engine: Engine): SigV4Context {
  const q = (n: string) => x.param(n);
  if (q('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') throw new S3Error(400, 'AuthorizationQueryParametersError', 'Only AWS4-HMAC-SHA256 is supported.');
  const cred = parseCredential(q('X-Amz-Credential'), QUERY_FAULT);
  const amzDate = q('X-Amz-Date') ?? '';
  const start = parseAmzDate(amzDate);
  const expires = presignExpiry(q('X-Amz-Expires'));
  if (start === undefined) throw new S3Error(400, 'AuthorizationQueryParametersError', 'X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd\'T\'HHmmss\'Z\'"');
  // X-Amz-Expires=0 is a URL that expired as it was made: AWS answers it as any expired one.
  if (Date.now() >= start + expires * 1000) throw new S3Error(403, 'AccessDenied', 'Request has expired');
  if (amzDate.slice(0, 8) !== cred.date) {
    throw new S3Error(400, 'AuthorizationQueryParametersError', `Invalid credential date "${cred.date}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`);
  }
  const signed = (q('X-Amz-SignedHeaders') ?? 'host').split(';').map((h) => h.toLowerCase());
  checkSigned(x, signed, 'x-amz-content-sha256');
  const found = secretFor(engine, cred.accessKey);
  const payload = signed.includes('x-amz-content-sha256') ? (x.header('x-amz-content-sha256') ?? 'UNSIGNED-PAYLOAD') : 'UNSIGNED-PAYLOAD';
  const key = verifySignature(x, cred, found.secretKey, amzDate, signed, payload, q('X-Amz-Signature') ?? '', 'X-Amz-Signature');
  checkEmptyPayload(x, payload);
  return { account: found.account.id, key, scope: `${cred.date}/${cred.region}/${cred.service}/aws4_request`, amzDate, seedSignature: q('X-Amz-Signature') ?? '' };
}
