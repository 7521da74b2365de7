// The fuzzer's corpus (valid requests of both APIs) and its mutations. Everything random comes from
// the PRNG it is given, so a seed replays the same requests.
import { createHash } from 'node:crypto';
import { encodePath, signRequest } from '../compat/server.js';
import { serialize } from './raw-socket.js';
import type { TestUser } from './served.js';

export interface Shape {
  api: 'native' | 's3';
  method: string;
  /** Decoded path (encoded when sent) and a raw query string. */
  path: string;
  query: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Headers sent but left out of the S3 signature. */
  unsigned?: string[];
}

export interface FuzzContext {
  port: number;
  user: TestUser;
  /** The native storage path (`/swift/v1/AUTH_…`) and a valid token. */
  storagePath: string;
  token: string;
  rand: () => number;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const DELETE_DOC = '<Delete><Object><Key>a</Key></Object><Object><Key>b/c</Key></Object></Delete>';
const COMPLETE_DOC = '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"x"</ETag></Part></CompleteMultipartUpload>';

/** Valid requests, as shapes. `fz` is the fuzz bucket/container, created beforehand. */
export function corpus(): Shape[] {
  const s3 = (method: string, path: string, query = '', body = '', headers: Record<string, string> = {}): Shape => ({ api: 's3', method, path, query, headers, body: Buffer.from(body) });
  const nat = (method: string, path: string, query = '', body = '', headers: Record<string, string> = {}): Shape => ({ api: 'native', method, path, query, headers, body: Buffer.from(body) });
  return [
    s3('GET', '/'),
    s3('PUT', '/fz/a', '', 'hello', { 'content-type': 'text/plain', 'x-amz-meta-k': 'v' }),
    s3('GET', '/fz/a', 'response-content-type=text%2Fhtml'),
    s3('HEAD', '/fz/a', '', '', { range: 'bytes=0-2' }),
    s3('GET', '/fz', 'list-type=2&prefix=a&delimiter=%2F&max-keys=5'),
    s3('GET', '/fz', 'versions&key-marker=a'),
    s3('GET', '/fz', 'uploads'),
    s3('POST', '/fz', 'delete', DELETE_DOC, { 'content-md5': createHash('md5').update(DELETE_DOC).digest('base64') }),
    s3('POST', '/fz/m', 'uploads'),
    s3('PUT', '/fz/m', 'partNumber=1&uploadId=abc', 'part'),
    s3('POST', '/fz/m', 'uploadId=abc', COMPLETE_DOC),
    s3('PUT', '/fz/copy', '', '', { 'x-amz-copy-source': '/fz/a', 'x-amz-metadata-directive': 'REPLACE' }),
    s3('PUT', '/fz', 'versioning', '<VersioningConfiguration><Status>Suspended</Status></VersioningConfiguration>'),
    s3('PUT', '/fz/a', 'acl', '', { 'x-amz-acl': 'private' }),
    s3('DELETE', '/fz/gone'),
    nat('GET', '/auth/1.0'),
    nat('HEAD', ''),
    nat('GET', '/fz', 'format=json&prefix=a&delimiter=/'),
    nat('PUT', '/fz/n', '', 'native body', { 'x-object-meta-color': 'blue', 'content-type': 'text/plain' }),
    nat('GET', '/fz/n', '', '', { range: 'bytes=1-3', 'if-none-match': '*' }),
    nat('POST', '/fz/n', '', '', { 'x-object-meta-k': 'v', 'x-delete-after': '3600' }),
    nat('COPY', '/fz/n', '', '', { destination: '/fz/n2' }),
    nat('PUT', '/fz/slo', 'multipart-manifest=put', JSON.stringify([{ path: '/fz/n', etag: null, size_bytes: null }])),
    nat('POST', '', 'bulk-delete', '/fz/x\n/fz/y\n', { 'content-type': 'text/plain' }),
    nat('GET', '/fz/n', 'temp_url_sig=abc&temp_url_expires=1'),
    nat('PUT', '/fz/dlo', '', '', { 'x-object-manifest': 'fz/n' }),
  ];
}

const WEIRD = ['..', '../', '%2e%2e%2f', '..%2F', '\0', '\r\n', '%', '%zz', '//', '\\..\\', '\u{1F600}', '\uFFFF', '\ud800', ' ', '?', '#', '*', ';', "'", '"', '<x>', '&amp;', 'A'.repeat(1100)];
const QUERIES = ['uploadId=', 'partNumber=-1', 'partNumber=10001', 'max-keys=abc', 'max-keys=-5', 'limit=99999', 'versionId=null', 'acl', 'delete', 'uploads', 'versioning', 'multipart-manifest=put', 'multipart-manifest=delete', 'temp_url_expires=x', 'format=xml', 'marker=%ff', 'end_marker=', 'path=a', 'list-type=3', 'continuation-token=!!', 'X-Amz-Signature=00', 'X-Amz-Expires=1', 'bulk-delete', 'extract-archive=tar'];
const HEADERS: [string, string][] = [
  ['range', 'bytes=9-1'], ['range', 'bytes=-0'], ['range', 'bytes=a-b'], ['content-length', '-1'], ['content-length', '99999999999'],
  ['x-amz-copy-source', '/../../etc/passwd'], ['x-amz-copy-source', '/fz/%00'], ['destination', '/../../x'], ['destination', 'nocontainer'],
  ['x-copy-from', '../../x'], ['x-object-manifest', '../..'], ['x-delete-at', '-1'], ['x-delete-after', 'abc'], ['if-match', '"'],
  ['if-modified-since', 'yesterday'], ['content-md5', 'zzz'], ['x-amz-content-sha256', 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD'],
  ['x-amz-decoded-content-length', 'x'], ['content-encoding', 'aws-chunked'], ['transfer-encoding', 'chunked'], ['expect', '100-continue'],
  ['x-container-read', '.r:*,,,'], ['x-account-meta-temp-url-key', ''], ['x-amz-acl', 'bogus'], ['authorization', 'AWS4-HMAC-SHA256 Credential=/'],
  ['authorization', 'AWS x:y'], ['x-auth-token', 'AUTH_tk'], ['x-amz-date', '1999'], ['x-amz-meta-' + 'k'.repeat(300), 'v'], ['x-object-meta-a', 'v'.repeat(9000)],
  // Encryption asked for (refused before any handler), a payload hash that is no mode, and a value
  // outside ASCII (signed as UTF-8, sent as one latin1 byte: the canonical request's byte path).
  ['x-amz-server-side-encryption-customer-algorithm', 'AES256'], ['x-amz-copy-source-server-side-encryption-customer-key', 'k'],
  ['x-amz-server-side-encryption', 'aws:kms'], ['x-amz-content-sha256', 'not-a-hash'], ['x-amz-meta-city', 'Z\u00fcrich'],
];

// Names and numbers past their limits: names longer than lmdb's 1978-byte keys in every position
// (path, markers, prefixes, copy sources, manifests, users), and numbers past every range in each
// numeric header and parameter (20+ digits, int32 + 1, 1e400, negatives).
{
  const long = `n${'o'.repeat(2100)}`;
  const huge = '9'.repeat(25);
  WEIRD.push('n'.repeat(2000), 'é'.repeat(1000));
  for (const p of ['prefix', 'marker', 'end_marker', 'path', 'start-after', 'key-marker', 'upload-id-marker', 'version-id-marker', 'versionId', 'uploadId']) QUERIES.push(`${p}=${long}`);
  QUERIES.push(`continuation-token=${Buffer.from(long).toString('base64url')}`);
  for (const p of ['max-keys', 'max-uploads', 'max-parts', 'part-number-marker', 'partNumber', 'limit']) QUERIES.push(`${p}=2147483648`, `${p}=${huge}`, `${p}=1e400`);
  HEADERS.push(
    ['x-delete-at', '99999999999999999999'], ['x-delete-at', '18446744073709551616'], ['x-delete-after', '9'.repeat(40)], ['x-delete-at', '1e400'],
    ['x-delete-after', `-${huge}`], ['x-container-meta-quota-bytes', huge], ['x-container-meta-quota-count', '1e400'], ['range', `bytes=0-${huge}`],
    ['range', `bytes=-${huge}`], ['x-amz-copy-source-range', `bytes=${huge}-`], ['if-unmodified-since', '-1'], ['if-modified-since', 'Sat, 01 Jan 99999 00:00:00 GMT'],
    ['x-copy-from', `/fz/${long}`], ['destination', `/fz/${long}`], ['x-amz-copy-source', `/fz/${long}`], ['x-object-manifest', `fz/${long}`],
    ['x-auth-user', `${'u'.repeat(6000)}:swift`], ['authorization', `AWS ${'K'.repeat(6000)}:c2ln`], ['x-amz-decoded-content-length', huge],
  );
}

// Framing and signing at their edges: Expect values Node would have answered itself, header
// values sent as raw UTF-8 (and broken UTF-8) bytes, and S3 documents past their 1 MiB limit.
{
  const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  HEADERS.push(
    ['expect', 'something-else'], ['expect', ''], ['expect', '100-continue, x'], ['expect', '100-Continue'],
    ['x-amz-meta-city', utf8('Z\u00fcrich \u6771\u4eac')], ['x-object-meta-city', utf8('Z\u00fcrich \u6771\u4eac')], ['x-amz-meta-bad', '\xff\xfe\xc3'],
    ['content-type', utf8('text/plain; name=\u00e9')],
  );
}
const BIG_DOCUMENTS = [
  () => `<Delete>${'<Object><Key>k</Key></Object>'.repeat(40_000)}</Delete>`,
  () => JSON.stringify({ Version: '2012-10-17', Statement: [], Pad: 'p'.repeat(1100 * 1024) }),
  () => `<VersioningConfiguration><Status>Enabled</Status>${' '.repeat(1100 * 1024)}</VersioningConfiguration>`,
];

function mutateString(r: () => number, s: string): string {
  const at = Math.floor(r() * (s.length + 1));
  const ops = [
    () => s.slice(0, at) + pick(r, WEIRD) + s.slice(at),
    () => s.slice(0, at),
    () => s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 5)),
    () => s + pick(r, WEIRD),
    () => pick(r, WEIRD) + s,
  ];
  return pick(r, ops)();
}

/** A structured mutation: the request still parses as HTTP, but its parts are odd. */
export function mutateShape(r: () => number, base: Shape): Shape {
  const m: Shape = { ...base, headers: { ...base.headers } };
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) {
    switch (Math.floor(r() * 8)) {
      case 0:
        m.method = pick(r, ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'COPY', 'OPTIONS', 'PATCH', 'PROPFIND', 'TRACE']);
        break;
      case 1:
        m.path = mutateString(r, m.path);
        break;
      case 2:
        m.query = [m.query, pick(r, QUERIES)].filter(Boolean).join('&');
        break;
      case 3: {
        const [k, v] = pick(r, HEADERS);
        m.headers[k] = v;
        break;
      }
      case 4:
        m.body = Buffer.from(mutateString(r, m.body.toString('latin1')), 'latin1');
        break;
      case 6:
        // Past a document's limit (rarely: each is over 1 MiB), or an x-amz-* header left unsigned.
        if (r() < 0.15) m.body = Buffer.from(pick(r, BIG_DOCUMENTS)());
        else {
          const name = pick(r, ['x-amz-meta-unsigned', 'x-amz-acl', 'x-amz-copy-source', 'x-amz-date', 'x-amz-content-sha256', 'host']);
          m.headers[name] ??= name === 'x-amz-acl' ? 'public-read' : name === 'x-amz-copy-source' ? '/fz/a' : 'x';
          m.unsigned = [...(m.unsigned ?? []), name];
        }
        break;
      case 5:
        m.path = pick(r, ['/fz/../../sibling/x', '/../sibling', '/fz/..%2f..%2fsibling%2fx', '/fz/' + '../'.repeat(8) + 'tmp/escape', '/fz/%2e%2e/%2e%2e/escape']);
        break;
      default:
        delete m.headers[pick(r, Object.keys(m.headers).concat('content-type'))];
    }
  }
  return m;
}

/** The bytes of a shape: S3 ones signed (so mutations reach past authentication), native ones with the token. */
export async function render(ctx: FuzzContext, shape: Shape, sign: boolean): Promise<Buffer> {
  const target = (p: string) => `${p}${shape.query ? `?${shape.query}` : ''}`;
  if (shape.api === 'native') {
    const full = shape.path.startsWith('/auth') ? shape.path : `${ctx.storagePath}${shape.path}`;
    const headers: [string, string][] = [['host', `127.0.0.1:${ctx.port}`], ...Object.entries(shape.headers)];
    if (shape.path.startsWith('/auth')) headers.push(['x-auth-user', ctx.user.swiftUser], ['x-auth-key', ctx.user.swiftKey]);
    else if (sign) headers.push(['x-auth-token', ctx.token]);
    if (!shape.headers['content-length'] && !shape.headers['transfer-encoding']) headers.push(['content-length', String(shape.body.length)]);
    return serialize(shape.method, target(ctx.rand() < 0.5 ? encodePath(full) : full.replace(/[\r\n ]/g, encodeURIComponent)), headers, shape.body);
  }
  const { headers, body } = await signRequest({ port: ctx.port }, shape.method, target(shape.path), {
    ...(sign ? { as: ctx.user } : {}),
    ...(shape.unsigned ? { unsigned: shape.unsigned } : {}),
    headers: shape.headers,
    body: shape.body,
  });
  return serialize(shape.method, target(encodePath(shape.path)), Object.entries(headers), body);
}

/** A byte-level mutation of a rendered request: flips, inserts, cuts, duplicated or broken lines. */
export function mutateBytes(r: () => number, data: Buffer): Buffer {
  let b = Buffer.from(data);
  for (let n = 1 + Math.floor(r() * 4); n > 0; n--) {
    const at = Math.floor(r() * b.length);
    switch (Math.floor(r() * 6)) {
      case 0:
        b[at] = Math.floor(r() * 256);
        break;
      case 1:
        b = Buffer.concat([b.subarray(0, at), Buffer.from(pick(r, ['\r\n', '\n', '\r', '\0', ':', ' ', '\r\n\r\n', 'Transfer-Encoding: chunked\r\n', 'Content-Length: 5\r\n'])), b.subarray(at)]);
        break;
      case 2:
        b = b.subarray(0, at);
        break;
      case 3:
        b = Buffer.concat([b.subarray(0, at), b.subarray(at, at + 40), b.subarray(at)]);
        break;
      case 4:
        b = Buffer.concat([b, Buffer.from(pick(r, ['GET / HTTP/1.1\r\n\r\n', '0\r\n\r\n', 'garbage'])) ]);
        break;
      default:
        b = Buffer.from(b.toString('latin1').replace(/HTTP\/1\.1/, pick(r, ['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', 'HTTP/9'])), 'latin1');
    }
  }
  return b;
}
