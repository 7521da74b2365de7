// The seed's C1 (ListObjects) and C2 (PutObject) answers exactly (seed 2.8 and 4.2): the listing
// streamed with chunked transfer encoding and its children in the seed's order, PutObject with
// Accept-Ranges; through the AWS SDK v3, its raw response headers read by a middleware.
import { ListObjectsCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, raw, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;

/** The raw headers of every response the client reads, as the SDK received them. */
function recordResponses(client: S3Client): Record<string, string>[] {
  const seen: Record<string, string>[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      seen.push({ ...(out.response as { headers: Record<string, string> }).headers });
      return out;
    },
    { step: 'deserialize', name: 'recordResponses' },
  );
  return seen;
}

beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('seed'));
  for (const k of ['a.txt', 'dir/x', 'dir/y', 'z.txt']) await c.send(new PutObjectCommand({ Bucket: b, Key: k, Body: k }));
});
afterAll(async () => {
  await s?.close();
});

/** The names of the root's children, in document order. */
function childOrder(xml: string): string[] {
  const body = /<ListBucketResult[^>]*>([\s\S]*)<\/ListBucketResult>/.exec(xml)![1]!;
  const names: string[] = [];
  let depth = 0;
  for (const [, close, name, selfClosing] of body.matchAll(/<(\/?)([A-Za-z]+)[^>]*?(\/?)>/g)) {
    if (close) depth--;
    else {
      if (depth === 0 && names.at(-1) !== name) names.push(name!);
      if (!selfClosing) depth++;
    }
  }
  return names;
}

describe('C1: ListObjects', () => {
  it('answers with chunked transfer encoding, no Content-Length, as application/xml', async () => {
    const lc = s.client();
    const seen = recordResponses(lc);
    const r = await lc.send(new ListObjectsCommand({ Bucket: b, Delimiter: '/' }));
    expect(r.Contents!.map((o) => o.Key)).toEqual(['a.txt', 'z.txt']);
    expect(r.CommonPrefixes!.map((p) => p.Prefix)).toEqual(['dir/']);
    const h = seen.at(-1)!;
    expect(h['transfer-encoding']).toBe('chunked');
    expect(h['content-length']).toBeUndefined();
    expect(h['content-type']).toBe('application/xml');
    await lc.send(new ListObjectsV2Command({ Bucket: b }));
    expect(seen.at(-1)!['transfer-encoding']).toBe('chunked');
  });

  it('orders ListBucketResult as the seed: Tenant, Name, Prefix, MaxKeys, Delimiter, IsTruncated, CommonPrefixes, Contents, Marker', async () => {
    const r = await raw(s, 'GET', `/${b}?delimiter=%2F`, { as: ALICE });
    expect(r.status).toBe(200);
    expect(childOrder(r.text)).toEqual(['Tenant', 'Name', 'Prefix', 'MaxKeys', 'Delimiter', 'IsTruncated', 'CommonPrefixes', 'Contents', 'Marker']);
    const plain = await raw(s, 'GET', `/${b}`, { as: ALICE });
    // Without a delimiter: no Delimiter and no CommonPrefixes (seed C1 rule 1).
    expect(childOrder(plain.text)).toEqual(['Tenant', 'Name', 'Prefix', 'MaxKeys', 'IsTruncated', 'Contents', 'Marker']);
  });

  it('says NextMarker where AWS does: on a truncated page listed with a delimiter, after Marker', async () => {
    const withDelimiter = await raw(s, 'GET', `/${b}?delimiter=%2F&max-keys=2`, { as: ALICE });
    expect(childOrder(withDelimiter.text).slice(-2)).toEqual(['Marker', 'NextMarker']);
    expect(withDelimiter.text).toContain('<NextMarker>dir/</NextMarker>');
    const sdk = await c.send(new ListObjectsCommand({ Bucket: b, MaxKeys: 2 }));
    expect([sdk.IsTruncated, sdk.NextMarker, sdk.Contents!.map((o) => o.Key)]).toEqual([true, undefined, ['a.txt', 'dir/x']]);
  });
});

describe('C2: PutObject', () => {
  it('answers 200 with an empty body, a quoted ETag, Accept-Ranges and a request id', async () => {
    const pc = s.client();
    const seen = recordResponses(pc);
    const put = await pc.send(new PutObjectCommand({ Bucket: b, Key: 'c2.txt', Body: 'hello', ContentType: 'text/plain' }));
    expect(put.ETag).toBe('"5d41402abc4b2a76b9719d911017c592"');
    const h = seen.at(-1)!;
    expect(h['accept-ranges']).toBe('bytes');
    expect(h['content-length']).toBe('0');
    expect(h['x-amz-request-id']).toBeTruthy();
  });
});
