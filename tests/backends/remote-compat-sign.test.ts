// The direct requests' SigV4 signer (remote-compat-sign.ts) against the SDK's own signer
// (@smithy/signature-v4, as the S3 client signs: paths not encoded again, UNSIGNED-PAYLOAD):
// the same request at the same time must carry the same headers and the same Authorization,
// across days (the cached signing key is the day's), with and without a session token.
import { SignatureV4 } from '@smithy/signature-v4';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { queryString, s3Encode, signerFor, UNSIGNED_PAYLOAD, type UnsignedRequest } from '../../src-main/backends/remote-compat-sign.js';

const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

async function sdkSigned(request: UnsignedRequest, region: string, when: Date, sessionToken?: string): Promise<Record<string, string>> {
  const signer = new SignatureV4({ credentials: { ...creds, ...(sessionToken ? { sessionToken } : {}) }, region, service: 's3', sha256: new S3Client({ region }).config.sha256, uriEscapePath: false, applyChecksum: false });
  const signed = await signer.sign({ ...request, headers: { ...request.headers, 'x-amz-content-sha256': UNSIGNED_PAYLOAD } }, { signingDate: when });
  return signed.headers;
}

const requests: UnsignedRequest[] = [
  { method: 'GET', protocol: 'http:', hostname: '127.0.0.1', port: 9000, path: `/bucket/${s3Encode('small/a file (1)+é.bin', true)}`, query: { 'x-id': 'GetObject' }, headers: { host: '127.0.0.1:9000' } },
  {
    method: 'PUT',
    protocol: 'https:',
    hostname: 'bucket.s3.example.com',
    path: `/${s3Encode("deep/it's *here*~.txt", true)}`,
    query: { 'x-id': 'PutObject', 'b c': 'd/e' },
    headers: { host: 'bucket.s3.example.com', 'content-md5': '1B2M2Y8AsgTpgAmY7PhCfg==', 'content-type': 'text/plain;  charset=utf-8 ', 'content-length': '0' },
  },
];

describe('the direct requests\' signer', () => {
  it.each([
    ['us-east-1', new Date('2026-11-26T03:38:39.123Z'), undefined],
    ['eu-west-3', new Date('2026-11-26T23:59:59.999Z'), 'session/token+value'],
  ])('signs as the SDK does (%s, %s)', async (region, when, sessionToken) => {
    const sign = signerFor({ ...creds, region, ...(sessionToken ? { sessionToken } : {}) });
    for (const r of requests) {
      expect(sign(r, when)).toEqual(await sdkSigned(r, region, when, sessionToken));
      // The next day: a new signing key, not the cached one.
      const next = new Date(when.getTime() + 86_400_000);
      expect(sign(r, next)).toEqual(await sdkSigned(r, region, next, sessionToken));
    }
    expect(queryString(requests[1]!.query)).toBe('b%20c=d%2Fe&x-id=PutObject');
  });
});
