// The largest object is one rule, the engine's: both APIs refuse past it in their own terms, and
// /info publishes it. A store opened with a 1,000-byte limit shows it without 5 GiB uploads.
import { CreateMultipartUploadCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALICE, errorOf, raw, startS3Server, type S3TestServer } from './server.js';

let s: S3TestServer;
let token: string;
const ACCT = `/v1/AUTH_${ALICE.account}`;

beforeAll(async () => {
  s = await startS3Server({ users: [ALICE], engine: { maxObjectSize: 1000 } });
  const auth = await fetch(`${s.url}/auth/1.0`, { headers: { 'X-Auth-User': `${ALICE.account}:swift`, 'X-Auth-Key': ALICE.swiftKey } });
  token = auth.headers.get('x-auth-token')!;
  expect((await raw(s, 'PUT', '/limits', { as: ALICE })).status).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

it('native: /info says the engine\'s limit, and a PUT past it is 413 whether its length is declared or not', async () => {
  const info = (await (await fetch(`${s.url}/info`)).json()) as { swift: { max_file_size: number } };
  expect(info.swift.max_file_size).toBe(1000);
  const declared = await fetch(`${s.url}${ACCT}/limits/big`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: 'x'.repeat(1001) });
  expect(declared.status).toBe(413);
  const streamed = await fetch(`${s.url}${ACCT}/limits/big`, {
    method: 'PUT',
    headers: { 'X-Auth-Token': token },
    body: new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('x'.repeat(1500))), c.close()) }),
    duplex: 'half',
  } as RequestInit);
  expect(streamed.status).toBe(413);
  expect((await fetch(`${s.url}${ACCT}/limits/ok`, { method: 'PUT', headers: { 'X-Auth-Token': token }, body: 'x'.repeat(1000) })).status).toBe(201);
});

it('S3: PutObject and UploadPart past it are EntityTooLarge, in AWS\'s words', async () => {
  const put = await raw(s, 'PUT', '/limits/big', { as: ALICE, body: 'x'.repeat(1001) });
  expect([put.status, errorOf(put).Code, errorOf(put).Message]).toEqual([400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed object size.']);
  const { UploadId } = await s.client().send(new CreateMultipartUploadCommand({ Bucket: 'limits', Key: 'mp' }));
  const part = await raw(s, 'PUT', `/limits/mp?partNumber=1&uploadId=${UploadId}`, { as: ALICE, body: 'x'.repeat(1001) });
  expect([part.status, errorOf(part).Code]).toEqual([400, 'EntityTooLarge']);
});
