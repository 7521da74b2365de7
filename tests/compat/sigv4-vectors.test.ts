// SigV4 building blocks (src-main/http/compat/canonical.ts, aws-chunked.ts) against the
// supplement's Appendix A vectors: header auth (A.1), presigned GET (A.2), aws-chunked signed
// upload (A.3), plus the encoding rules of §16.3 that the vectors do not exercise.
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { decodeAwsChunked } from '../../src-main/http/compat/aws-chunked.js';
import {
  awsEncode,
  canonicalHeaders,
  canonicalQuery,
  canonicalRequest,
  canonicalUris,
  sameSignature,
  HmacKey,
  sha256Hex,
  signingKey,
  stringToSign,
} from '../../src-main/http/compat/canonical.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const DATE = '20130524T000000Z';
const SCOPE = '20130524/us-east-1/s3/aws4_request';
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const KEY = signingKey(SECRET, '20130524', 'us-east-1', 's3');

/** canonicalHeaders only reads `rawHeaders`: names as sent (any case), one entry per occurrence. */
const fakeReq = (h: Record<string, string | string[]>) =>
  ({ rawHeaders: Object.entries(h).flatMap(([k, v]) => ([] as string[]).concat(v).flatMap((one, i) => [i % 2 ? k.toUpperCase() : k, one])) }) as unknown as IncomingMessage;

const sign = (canonical: string) => KEY.hex(stringToSign(DATE, SCOPE, canonical));

describe('A.1 header auth', () => {
  const signed = ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'];
  const headers = canonicalHeaders(fakeReq({ host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY, 'x-amz-date': DATE }), signed);
  const canonical = canonicalRequest({ method: 'GET', uri: canonicalUris('/test.txt')[0]!, query: canonicalQuery(''), headers, signedHeaders: signed.join(';'), payload: EMPTY });

  it('builds the canonical request of the vector', () => {
    expect(canonical).toBe(
      ['GET', '/test.txt', '', 'host:examplebucket.s3.amazonaws.com', 'range:bytes=0-9', `x-amz-content-sha256:${EMPTY}`, `x-amz-date:${DATE}`, '', signed.join(';'), EMPTY].join('\n'),
    );
    expect(sha256Hex(canonical)).toBe('7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972');
  });

  it('builds the string to sign and the signature', () => {
    expect(stringToSign(DATE, SCOPE, canonical)).toBe(`AWS4-HMAC-SHA256\n${DATE}\n${SCOPE}\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972`);
    expect(sign(canonical)).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  });
});

describe('A.2 presigned GET', () => {
  const rawQuery =
    'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
    '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host';

  it('signs the query without X-Amz-Signature, with UNSIGNED-PAYLOAD', () => {
    const withSig = `${rawQuery}&X-Amz-Signature=deadbeef`;
    const query = canonicalQuery(withSig, 'X-Amz-Signature');
    expect(query).toBe(rawQuery);
    const canonical = canonicalRequest({
      method: 'GET',
      uri: '/test.txt',
      query,
      headers: canonicalHeaders(fakeReq({ host: 'examplebucket.s3.amazonaws.com' }), ['host']),
      signedHeaders: 'host',
      payload: 'UNSIGNED-PAYLOAD',
    });
    expect(sign(canonical)).toBe('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404');
  });
});

describe('A.3 aws-chunked signed upload', () => {
  const SEED = '4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9';
  const SIGS = [
    'ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648',
    '0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497',
    'b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9',
  ];

  it('computes the seed signature from the canonical request', () => {
    const signed = ['content-encoding', 'content-length', 'host', 'x-amz-content-sha256', 'x-amz-date', 'x-amz-decoded-content-length', 'x-amz-storage-class'];
    const headers = canonicalHeaders(
      fakeReq({
        'content-encoding': 'aws-chunked',
        'content-length': '66824',
        host: 's3.amazonaws.com',
        'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
        'x-amz-date': DATE,
        'x-amz-decoded-content-length': '66560',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
      }),
      signed,
    );
    const canonical = canonicalRequest({ method: 'PUT', uri: '/examplebucket/chunkObject.txt', query: '', headers, signedHeaders: signed.join(';'), payload: 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' });
    expect(sign(canonical)).toBe(SEED);
  });

  const wire = (sigs: string[]) =>
    Buffer.concat([
      Buffer.from(`10000;chunk-signature=${sigs[0]}\r\n`),
      Buffer.alloc(65536, 'a'),
      Buffer.from(`\r\n400;chunk-signature=${sigs[1]}\r\n`),
      Buffer.alloc(1024, 'a'),
      Buffer.from(`\r\n0;chunk-signature=${sigs[2]}\r\n\r\n`),
    ]);

  async function decode(body: Buffer, pieceSize = 1000): Promise<Buffer> {
    async function* pieces() {
      for (let i = 0; i < body.length; i += pieceSize) yield body.subarray(i, i + pieceSize);
    }
    const out: Buffer[] = [];
    const signing = { account: 'x', key: KEY, scope: SCOPE, amzDate: DATE, seedSignature: SEED };
    for await (const c of decodeAwsChunked(pieces(), { signing, signedTrailer: false, decodedLength: 66560, onTrailer: () => undefined })) out.push(c);
    return Buffer.concat(out);
  }

  it('verifies the chain of chunk signatures (any piece boundaries) and yields the bytes', async () => {
    for (const size of [1, 7, 1000, 70000]) {
      const bytes = await decode(wire(SIGS), size);
      expect(bytes.length).toBe(66560);
      expect(bytes.every((b) => b === 0x61)).toBe(true);
    }
  });

  it('rejects a wrong chunk signature', async () => {
    await expect(decode(wire([SIGS[0]!, SIGS[2]!, SIGS[2]!]))).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
  });

  it('rejects a truncated body', async () => {
    const full = wire(SIGS);
    await expect(decode(full.subarray(0, 40000))).rejects.toMatchObject({ code: 'IncompleteBody' });
  });
});

describe('§16.3 encoding rules', () => {
  it('encodes every byte but unreserved characters, upper-case hex, space as %20', () => {
    expect(awsEncode("a b+c*d!'()~-_.é/x", true)).toBe('a%20b%2Bc%2Ad%21%27%28%29~-_.%C3%A9/x');
    expect(awsEncode('a/b', false)).toBe('a%2Fb');
  });

  it('decodes the path once and re-encodes; keeps slashes and dot segments; falls back to the raw path', () => {
    expect(canonicalUris('/b/a%20b/./c//d')).toEqual(['/b/a%20b/./c//d']);
    expect(canonicalUris('/b/a+b')).toEqual(['/b/a%2Bb', '/b/a+b']);
    expect(canonicalUris('/b/%7Etilde')).toEqual(['/b/~tilde', '/b/%7Etilde']);
    expect(canonicalUris('')).toEqual(['/']);
  });

  it('sorts the query by name then value, keeps + as +, fills empty values', () => {
    expect(canonicalQuery('prefix=a+b&acl&max-keys=2&delimiter=%2F')).toBe('acl=&delimiter=%2F&max-keys=2&prefix=a%2Bb');
    expect(canonicalQuery('b=2&a=2&a=1')).toBe('a=1&a=2&b=2');
  });

  it('hashes a canonical request over the bytes its latin1 string stands for (UTF-8 header values)', () => {
    const value = 'Zürich ✓';
    const canonical = canonicalRequest({ method: 'PUT', uri: '/b/k', query: '', headers: canonicalHeaders(fakeReq({ 'x-amz-meta-city': Buffer.from(value).toString('latin1') }), ['x-amz-meta-city']), signedHeaders: 'x-amz-meta-city', payload: EMPTY });
    const asSigned = ['PUT', '/b/k', '', `x-amz-meta-city:${value}`, '', 'x-amz-meta-city', EMPTY].join('\n');
    expect(stringToSign(DATE, SCOPE, canonical)).toBe(`AWS4-HMAC-SHA256\n${DATE}\n${SCOPE}\n${sha256Hex(Buffer.from(asSigned, 'utf8'))}`);
  });

  it('trims header values, collapses inner spaces and joins repeats with commas', () => {
    expect(canonicalHeaders(fakeReq({ 'x-amz-meta-a': ['  one   two ', 'three'] }), ['x-amz-meta-a'])).toBe('x-amz-meta-a:one two,three\n');
    expect(canonicalHeaders(fakeReq({ 'x-amz-meta-a': ['', 'b'], host: 'h' }), ['host', 'x-amz-meta-a', 'x-amz-meta-z'])).toBe('host:h\nx-amz-meta-a:,b\nx-amz-meta-z:\n');
  });

  it('keeps a path of unreserved characters as it is, and re-encodes any other', () => {
    expect(canonicalUris('/bucket/a-b_c.d~e/f')).toEqual(['/bucket/a-b_c.d~e/f']);
    expect(canonicalUris('')).toEqual(['/']);
    expect(canonicalUris("/bucket/it's%20here")).toEqual(['/bucket/it%27s%20here', "/bucket/it's%20here"]);
  });
});

describe('HmacKey', () => {
  // Messages are latin1 strings of bytes, as Node hands header values over.
  const reference = (key: Buffer, data: string) => createHmac('sha256', key).update(data, 'latin1').digest('hex');
  const utf8Bytes = Buffer.from('é€😀 non-ASCII', 'utf8').toString('latin1');

  it('gives what createHmac gives, for keys shorter than, equal to and longer than the block', () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      const signer = new HmacKey(key);
      for (const data of ['', 'a', 'AWS4-HMAC-SHA256\n20130524T000000Z', utf8Bytes, 'x'.repeat(5000), 'short after long']) {
        expect(signer.hex(data), `key ${keyLength} bytes, message ${data.length} chars`).toBe(reference(key, data));
      }
    }
  });

  it('signs the same message the same way after a longer one', () => {
    const signer = new HmacKey(randomBytes(32));
    const first = signer.hex('abc');
    signer.hex('z'.repeat(3000));
    expect(signer.hex('abc')).toBe(first);
  });
});

describe('sameSignature', () => {
  const a = 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41';
  it('accepts only the identical string', () => {
    expect(sameSignature(a, a.slice())).toBe(true);
    expect(sameSignature(a, `${a.slice(0, -1)}0`)).toBe(false);
    expect(sameSignature(a, `0${a.slice(1)}`)).toBe(false);
    expect(sameSignature(a, a.toUpperCase())).toBe(false);
    expect(sameSignature(a, a.slice(0, -1))).toBe(false);
    expect(sameSignature(a, '')).toBe(false);
  });
});
