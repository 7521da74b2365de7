// What SigV4 refuses although the signature itself checks out (seed 5.2, §16), and header values
// sent as UTF-8 bytes, which must verify. Requests are signed by @smithy/signature-v4 (server.ts);
// after each refusal the test looks that nothing was stored.
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { ALICE, bucketName, errorOf, raw, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  s = await startS3Server();
  c = s.client();
  b = bucketName('strict');
  await c.send(new CreateBucketCommand({ Bucket: b }));
  await c.send(new PutObjectCommand({ Bucket: b, Key: 'kept.txt', Body: 'kept' }));
});
afterAll(async () => {
  await s?.close();
});

const status = (r: { status: number; text: string }) => [r.status, errorOf(r as never).Code];
const exists = async (key: string) => (await raw(s, 'HEAD', `/${b}/${key}`, { as: ALICE })).status === 200;

describe('header bytes outside ASCII', () => {
  it('a UTF-8 x-amz-meta value is signed over the bytes sent, stored as text and returned as the same bytes', async () => {
    const value = 'Zürich – 東京 ✓';
    const asSent = Buffer.from(value, 'utf8').toString('latin1');
    // Signed over the UTF-8 text by the SDK's signer; Node sends the header string's latin1 bytes, i.e. that UTF-8.
    const r = await raw(s, 'PUT', `/${b}/utf8-meta`, { as: ALICE, body: 'x', headers: { 'x-amz-meta-city': value }, tamper: (h) => (h['x-amz-meta-city'] = asSent) });
    expect(status(r)).toEqual([200, undefined]);
    expect(s.engine.headObject(Engine.ref(ALICE.account, b), 'utf8-meta').meta).toEqual({ city: value });
    const head = await raw(s, 'HEAD', `/${b}/utf8-meta`, { as: ALICE });
    expect(Buffer.from(head.headers['x-amz-meta-city'] as string, 'latin1').toString('utf8')).toBe(value);
    // A byte changed after signing still fails.
    const forged = await raw(s, 'PUT', `/${b}/utf8-forged`, { as: ALICE, body: 'x', headers: { 'x-amz-meta-city': value }, tamper: (h) => (h['x-amz-meta-city'] = asSent.replace('\u00bc', '\u00bd')) });
    expect(status(forged)).toEqual([403, 'SignatureDoesNotMatch']);
    expect(await exists('utf8-forged')).toBe(false);
  });
});
