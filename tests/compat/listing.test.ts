// Object listings through the AWS SDK v3 (§21): ListObjects v1 and V2 with prefix, delimiter,
// marker, start-after, continuation tokens, max-keys, fetch-owner and encoding-type=url over keys
// with awkward characters, checked page by page against a reference computed here; and
// ListObjectVersions with delete markers and paging.
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  ListObjectsCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
  PutBucketVersioningCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/index.js';
import { ALICE, bucketName, errorOf, parseXml, raw, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;

/** Keys with every character class the encoders disagree on; sorted by UTF-8 bytes below. */
const KEYS = [
  'a.txt', 'a/b/c.txt', 'a/b/d.txt', 'a/e.txt', 'a+plus', 'a plus space', 'a%25percent', '100%', 'b/', 'b/x',
  'café/menu.txt', 'café.txt', 'zz/日本/語.txt', 'zz/日本.txt', 'emoji-😀', 'tilde~', 'q?mark', 'hash#tag', 'amp&and=eq', 'x/y/z/deep',
];
const byBytes = (a: string, b2: string) => Buffer.compare(Buffer.from(a), Buffer.from(b2));
const SORTED = [...KEYS].sort(byBytes);

/** What a delimiter listing should return: keys and common prefixes after `prefix`, in order. */
function reference(prefix: string, delimiter?: string): { keys: string[]; prefixes: string[] } {
  const keys: string[] = [];
  const prefixes: string[] = [];
  for (const k of SORTED) {
    if (!k.startsWith(prefix)) continue;
    const at = delimiter ? k.indexOf(delimiter, prefix.length) : -1;
    if (at < 0) keys.push(k);
    else {
      const p = k.slice(0, at + delimiter!.length);
      if (prefixes.at(-1) !== p) prefixes.push(p);
    }
  }
  return { keys, prefixes };
}

beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('list'));
  for (const k of KEYS) await c.send(new PutObjectCommand({ Bucket: b, Key: k, Body: k }));
});
afterAll(async () => {
  await s?.close();
});

describe('ListObjectsV2', () => {
  it.each([
    ['', undefined, 1000],
    ['', undefined, 3],
    ['', '/', 2],
    ['a', '/', 1],
    ['a/', '/', 2],
    ['zz/', '/', 1],
    ['café', undefined, 1],
    ['nothing', '/', 5],
  ])('pages prefix=%j delimiter=%j with page size %i like the reference', async (prefix, delimiter, pageSize) => {
    const keys: string[] = [];
    const prefixes: string[] = [];
    for await (const page of paginateListObjectsV2({ client: c, pageSize }, { Bucket: b, Prefix: prefix, ...(delimiter ? { Delimiter: delimiter } : {}) })) {
      expect(page.KeyCount).toBe((page.Contents?.length ?? 0) + (page.CommonPrefixes?.length ?? 0));
      expect(page.KeyCount).toBeLessThanOrEqual(pageSize);
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      prefixes.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!));
    }
    expect({ keys, prefixes }).toEqual(reference(prefix, delimiter));
  });

  it('encodes names with encoding-type=url (`+` as %2B, `%` as %25, space as %20) and echoes it', async () => {
    const r = await c.send(new ListObjectsV2Command({ Bucket: b, EncodingType: 'url', Prefix: 'a', Delimiter: '/' }));
    expect(r.EncodingType).toBe('url');
    const encoded = r.Contents!.map((o) => o.Key!);
    expect(encoded).toContain('a%2Bplus');
    expect(encoded).toContain('a%20plus%20space');
    expect(encoded).toContain('a%2525percent');
    expect(encoded.map((k) => decodeURIComponent(k))).toEqual(reference('a', '/').keys);
    const all = await c.send(new ListObjectsV2Command({ Bucket: b, EncodingType: 'url' }));
    expect(all.Contents!.map((o) => decodeURIComponent(o.Key!))).toEqual(SORTED);
    expect((await sdkError(c.send(new ListObjectsV2Command({ Bucket: b, EncodingType: 'base64' as 'url' })))).name).toBe('InvalidArgument');
  });

  it('starts after start-after, and reports the owner only with fetch-owner', async () => {
    const r = await c.send(new ListObjectsV2Command({ Bucket: b, StartAfter: 'b/' }));
    expect(r.StartAfter).toBe('b/');
    expect(r.Contents!.map((o) => o.Key)).toEqual(SORTED.filter((k) => byBytes(k, 'b/') > 0));
    expect(r.Contents![0]!.Owner).toBeUndefined();
    const owned = await c.send(new ListObjectsV2Command({ Bucket: b, FetchOwner: true, MaxKeys: 1 }));
    expect(owned.Contents![0]!.Owner?.ID).toBe(ALICE.account);
    const first = owned.Contents![0]!;
    expect(first).toMatchObject({ Key: SORTED[0], Size: Buffer.byteLength(SORTED[0]!), StorageClass: 'STANDARD' });
    expect(first.ETag).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('answers max-keys=0 with nothing and refuses bad parameters', async () => {
    const zero = await c.send(new ListObjectsV2Command({ Bucket: b, MaxKeys: 0 }));
    expect([zero.KeyCount, zero.IsTruncated, zero.Contents]).toEqual([0, false, undefined]);
    expect(errorOf(await raw(s, 'GET', `/${b}?list-type=2&max-keys=abc`, { as: ALICE })).Code).toBe('InvalidArgument');
    expect(errorOf(await raw(s, 'GET', `/${b}?list-type=2&continuation-token=%21%21`, { as: ALICE })).Code).toBe('InvalidArgument');
  });

  it('caps max-keys at 1000', async () => {
    const big = bucketName('big');
    await c.send(new CreateBucketCommand({ Bucket: big }));
    const ref = Engine.ref(ALICE.account, big);
    for (let i = 0; i < 1005; i++) await s.engine.putObject(ref, `k${String(i).padStart(5, '0')}`, '');
    const r = await c.send(new ListObjectsV2Command({ Bucket: big, MaxKeys: 5000 }));
    expect([r.MaxKeys, r.KeyCount, r.IsTruncated]).toEqual([1000, 1000, true]);
    const rest = await c.send(new ListObjectsV2Command({ Bucket: big, ContinuationToken: r.NextContinuationToken! }));
    expect([rest.KeyCount, rest.IsTruncated, rest.Contents![0]!.Key]).toEqual([5, false, 'k01000']);
    const v1 = await c.send(new ListObjectsCommand({ Bucket: big, MaxKeys: 2000 }));
    expect([v1.MaxKeys, v1.Contents!.length, v1.IsTruncated]).toEqual([1000, 1000, true]);
  });
});

describe('ListObjects (v1)', () => {
  async function allPages(params: { Prefix?: string; Delimiter?: string; MaxKeys: number; EncodingType?: 'url' }) {
    const keys: string[] = [];
    const prefixes: string[] = [];
    let marker: string | undefined;
    for (let i = 0; i < 100; i++) {
      const r = await c.send(new ListObjectsCommand({ Bucket: b, ...params, ...(marker ? { Marker: marker } : {}) }));
      const dec = (k: string) => (params.EncodingType ? decodeURIComponent(k) : k);
      keys.push(...(r.Contents ?? []).map((o) => dec(o.Key!)));
      prefixes.push(...(r.CommonPrefixes ?? []).map((p) => dec(p.Prefix!)));
      if (!r.IsTruncated) return { keys, prefixes };
      // As AWS: NextMarker only with a delimiter; without one the last Key is the next marker.
      if (params.Delimiter) expect(r.NextMarker).toBeDefined();
      else expect(r.NextMarker).toBeUndefined();
      marker = params.Delimiter ? dec(r.NextMarker!) : keys.at(-1);
    }
    throw new Error('listing does not end');
  }

  it.each([
    ['', undefined, 4],
    ['', '/', 3],
    ['a', '/', 2],
    ['zz/', '/', 1],
  ])('pages prefix=%j delimiter=%j with max-keys %i by NextMarker', async (prefix, delimiter, max) => {
    expect(await allPages({ Prefix: prefix, ...(delimiter ? { Delimiter: delimiter } : {}), MaxKeys: max })).toEqual(reference(prefix, delimiter));
    expect(await allPages({ Prefix: prefix, ...(delimiter ? { Delimiter: delimiter } : {}), MaxKeys: max, EncodingType: 'url' })).toEqual(reference(prefix, delimiter));
  });

  it('echoes the request and starts after the marker', async () => {
    const r = await c.send(new ListObjectsCommand({ Bucket: b, Marker: 'a/e.txt', Prefix: 'a', MaxKeys: 50 }));
    expect([r.Name, r.Prefix, r.Marker, r.MaxKeys, r.IsTruncated]).toEqual([b, 'a', 'a/e.txt', 50, false]);
    expect(r.Contents!.map((o) => o.Key)).toEqual(SORTED.filter((k) => k.startsWith('a') && byBytes(k, 'a/e.txt') > 0));
    expect(r.Contents![0]!.Owner?.ID).toBe(ALICE.account);
  });

  it('encodes the echoed marker and delimiter, not the prefix, with encoding-type=url', async () => {
    const r = await raw(s, 'GET', `/${b}?prefix=a%2B&marker=a%20b&delimiter=%2B&encoding-type=url`, { as: ALICE });
    // Prefix comes back as sent: AWS leaves it unencoded in v1 (botocore decodes no v1 Prefix).
    expect(r.text).toContain('<Prefix>a+</Prefix>');
    expect(r.text).toContain('<Marker>a%20b</Marker>');
    expect(r.text).toContain('<Delimiter>%2B</Delimiter>');
  });
});

describe('ListObjectVersions', () => {
  it('lists versions newest first per key, with delete markers, page by page', async () => {
    const vb = bucketName('ver');
    await c.send(new CreateBucketCommand({ Bucket: vb }));
    await c.send(new PutObjectCommand({ Bucket: vb, Key: 'plain', Body: 'before versioning' }));
    await c.send(new PutBucketVersioningCommand({ Bucket: vb, VersioningConfiguration: { Status: 'Enabled' } }));
    const ids: Record<string, string[]> = { k1: [], k2: [] };
    for (const key of ['k1', 'k2', 'k1', 'k1']) ids[key]!.push((await c.send(new PutObjectCommand({ Bucket: vb, Key: key, Body: `${key}-${ids[key]!.length}` }))).VersionId!);
    const marker = await c.send(new DeleteObjectCommand({ Bucket: vb, Key: 'k2' }));
    expect(marker.DeleteMarker).toBe(true);

    // Expected order: by key, newest first; the pre-versioning object is the null version.
    const expected = [
      ['k1', ids.k1![2], true, false], ['k1', ids.k1![1], false, false], ['k1', ids.k1![0], false, false],
      ['k2', marker.VersionId, true, true], ['k2', ids.k2![0], false, false], ['plain', 'null', true, false],
    ];
    // Raw XML keeps the document order of <Version> and <DeleteMarker> (the SDK splits them).
    const seen: (string | boolean | undefined)[][] = [];
    let query = '';
    for (let i = 0; i < 20; i++) {
      const r = await raw(s, 'GET', `/${vb}?versions&max-keys=2${query}`, { as: ALICE });
      const page = [...r.text.matchAll(/<(Version|DeleteMarker)>(.*?)<\/\1>/gs)].map(([, kind, inner]) => {
        const field = (n: string) => new RegExp(`<${n}>(.*?)</${n}>`).exec(inner!)?.[1];
        return [field('Key'), field('VersionId'), field('IsLatest') === 'true', kind === 'DeleteMarker'];
      });
      expect(page.length).toBeLessThanOrEqual(2);
      seen.push(...page);
      const doc = parseXml(r.text).ListVersionsResult as Record<string, string>;
      if (doc.IsTruncated !== 'true') break;
      query = `&key-marker=${encodeURIComponent(doc.NextKeyMarker!)}&version-id-marker=${encodeURIComponent(doc.NextVersionIdMarker!)}`;
    }
    expect(seen).toEqual(expected);
    // The current listing hides k2 (its latest version is a delete marker).
    expect((await c.send(new ListObjectsV2Command({ Bucket: vb }))).Contents!.map((o) => o.Key)).toEqual(['k1', 'plain']);
    const withPrefix = await c.send(new ListObjectVersionsCommand({ Bucket: vb, Prefix: 'k2' }));
    expect(withPrefix.DeleteMarkers!.map((d) => d.VersionId)).toEqual([marker.VersionId]);
    expect(withPrefix.Versions!.map((v) => v.VersionId)).toEqual([ids.k2![0]]);
  });
});
