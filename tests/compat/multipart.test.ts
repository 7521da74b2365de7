// Multipart uploads through the AWS SDK v3 (§24): create, upload parts (also by copy with a
// range), list parts and uploads, complete with and without part checksums, abort, the
// md5-of-md5s-N ETag, the 5 MiB minimum, and lib-storage's Upload of a 12 MiB stream.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, bucketName, errorOf, raw, readAll, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('mp'));
});
afterAll(async () => {
  await s?.close();
});

const MiB = 1024 * 1024;
const md5 = (x: Buffer) => createHash('md5').update(x).digest();
/** The multipart ETag: MD5 over the binary part MD5s, then `-N` (§24, A.5). */
const multipartEtag = (parts: Buffer[]) => `"${createHash('md5').update(Buffer.concat(parts.map(md5))).digest('hex')}-${parts.length}"`;

async function create(key: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: key, ...extra }))).UploadId!;
}

async function uploadParts(key: string, uploadId: string, parts: Buffer[], extra: Record<string, unknown> = {}): Promise<CompletedPart[]> {
  const done: CompletedPart[] = [];
  for (const [i, body] of parts.entries()) {
    const r = await c.send(new UploadPartCommand({ Bucket: b, Key: key, UploadId: uploadId, PartNumber: i + 1, Body: body, ...extra }));
    done.push({ PartNumber: i + 1, ETag: r.ETag!, ...(r.ChecksumCRC32 ? { ChecksumCRC32: r.ChecksumCRC32 } : {}) });
  }
  return done;
}

describe('multipart upload', () => {
  it('assembles the parts with metadata from Create; ETag is md5-of-md5s-N; parts stay invisible until Complete', async () => {
    const parts = [Buffer.alloc(5 * MiB, 'a'), Buffer.from('b')];
    const id = await create('big.bin', { ContentType: 'application/x-big', Metadata: { stage: 'multi' } });
    const done = await uploadParts('big.bin', id, parts);
    expect(done[0]!.ETag).toBe(`"${md5(parts[0]!).toString('hex')}"`);
    expect((await c.send(new ListObjectsV2Command({ Bucket: b, Prefix: 'big.bin' }))).KeyCount).toBe(0);
    const listed = await c.send(new ListPartsCommand({ Bucket: b, Key: 'big.bin', UploadId: id }));
    expect(listed.Parts!.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual([
      [1, 5 * MiB, done[0]!.ETag],
      [2, 1, done[1]!.ETag],
    ]);
    const r = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'big.bin', UploadId: id, MultipartUpload: { Parts: done } }));
    expect(r.ETag).toBe(multipartEtag(parts));
    expect(r.ETag).toBe('"e5a8c5272b26fc10581a21089559b006-2"');
    expect([r.Bucket, r.Key]).toEqual([b, 'big.bin']);
    // RGW names the tenant in Location: `…/{tenant}:{bucket}/{key}`.
    expect(r.Location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/test:${b}/big\\.bin$`));
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'big.bin' }));
    expect([head.ContentLength, head.ContentType, head.Metadata, head.ETag]).toEqual([5 * MiB + 1, 'application/x-big', { stage: 'multi' }, r.ETag]);
    const tail = await c.send(new GetObjectCommand({ Bucket: b, Key: 'big.bin', Range: `bytes=${5 * MiB - 2}-` }));
    expect((await readAll(tail.Body)).toString()).toBe('aab');
    expect((await sdkError(c.send(new ListPartsCommand({ Bucket: b, Key: 'big.bin', UploadId: id })))).name).toBe('NoSuchUpload');
    // Part boundaries are kept: part 1 is the first 5 MiB, and the parts count comes with it.
    const p1 = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'big.bin', PartNumber: 1 }));
    expect([p1.$metadata.httpStatusCode, p1.ContentLength, p1.PartsCount, head.PartsCount]).toEqual([206, 5 * MiB, 2, undefined]);
    expect((await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key: 'big.bin', PartNumber: 3 })))).status).toBe(416);
  });

  it('completes with part checksums (CRC32) as current SDKs send them', async () => {
    const parts = [Buffer.alloc(5 * MiB, 'c'), Buffer.from('tail')];
    const id = await create('summed.bin', { ChecksumAlgorithm: 'CRC32' });
    const done = await uploadParts('summed.bin', id, parts, { ChecksumAlgorithm: 'CRC32' });
    expect(done.every((p) => p.ChecksumCRC32)).toBe(true);
    const r = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'summed.bin', UploadId: id, MultipartUpload: { Parts: done } }));
    expect(r.ETag).toBe(multipartEtag(parts));
    // A whole-object GET in checksum mode must not carry a wrong checksum (the SDK would fail the read).
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'summed.bin', ChecksumMode: 'ENABLED' }));
    expect((await readAll(get.Body)).length).toBe(5 * MiB + 4);
  });

  it('refuses small non-final parts (EntityTooSmall), wrong ETags (InvalidPart) and disorder (InvalidPartOrder)', async () => {
    const id = await create('small.bin');
    const done = await uploadParts('small.bin', id, [Buffer.from('tiny'), Buffer.from('tail')]);
    expect((await sdkError(c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'small.bin', UploadId: id, MultipartUpload: { Parts: done } })))).name).toBe('EntityTooSmall');
    const wrong = [{ PartNumber: 1, ETag: '"00000000000000000000000000000000"' }];
    expect((await sdkError(c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'small.bin', UploadId: id, MultipartUpload: { Parts: wrong } })))).name).toBe('InvalidPart');
    const reversed = [...done].reverse();
    expect((await sdkError(c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'small.bin', UploadId: id, MultipartUpload: { Parts: reversed } })))).name).toBe('InvalidPartOrder');
    // A single small part is a valid (last) part.
    const one = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'small.bin', UploadId: id, MultipartUpload: { Parts: [done[0]!] } }));
    expect(one.ETag).toBe(multipartEtag([Buffer.from('tiny')]));
  });

  it('accepts a part sent as a stream (aws-chunked with a CRC32 trailer)', async () => {
    const id = await create('streamed-part');
    const body = Buffer.alloc(300_000, 's');
    const r = await c.send(new UploadPartCommand({ Bucket: b, Key: 'streamed-part', UploadId: id, PartNumber: 1, Body: Readable.from([body.subarray(0, 100_000), body.subarray(100_000)]), ContentLength: body.length }));
    expect(r.ETag).toBe(`"${md5(body).toString('hex')}"`);
    expect(r.ChecksumCRC32).toBeTruthy();
    await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'streamed-part', UploadId: id, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: r.ETag!, ChecksumCRC32: r.ChecksumCRC32! }] } }));
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'streamed-part' }))).ContentLength).toBe(body.length);
  });

  it('aborts an upload (204), after which it is gone', async () => {
    const id = await create('aborted.bin');
    await uploadParts('aborted.bin', id, [Buffer.from('x')]);
    const r = await c.send(new AbortMultipartUploadCommand({ Bucket: b, Key: 'aborted.bin', UploadId: id }));
    expect(r.$metadata.httpStatusCode).toBe(204);
    expect((await sdkError(c.send(new UploadPartCommand({ Bucket: b, Key: 'aborted.bin', UploadId: id, PartNumber: 2, Body: 'y' })))).name).toBe('NoSuchUpload');
    expect((await sdkError(c.send(new AbortMultipartUploadCommand({ Bucket: b, Key: 'aborted.bin', UploadId: id })))).name).toBe('NoSuchUpload');
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'aborted.bin' })))).status).toBe(404);
  });

  it('refuses part numbers outside 1..10000', async () => {
    const id = await create('pn.bin');
    for (const n of [0, 10001]) {
      const r = await raw(s, 'PUT', `/${b}/pn.bin?partNumber=${n}&uploadId=${id}`, { as: ALICE, body: 'x' });
      expect([r.status, errorOf(r).Code]).toEqual([400, 'InvalidArgument']);
    }
  });

  it('lists uploads in progress (and paginates parts)', async () => {
    const lb = bucketName('uploads');
    await c.send(new CreateBucketCommand({ Bucket: lb }));
    const ids = [];
    for (const key of ['u/one', 'u/two', 'u/two', 'v/three']) ids.push((await c.send(new CreateMultipartUploadCommand({ Bucket: lb, Key: key }))).UploadId!);
    const all = await c.send(new ListMultipartUploadsCommand({ Bucket: lb }));
    expect(all.Uploads!.map((u) => u.Key)).toEqual(['u/one', 'u/two', 'u/two', 'v/three']);
    expect(all.Uploads![0]!.Initiated).toBeInstanceOf(Date);
    const prefixed = await c.send(new ListMultipartUploadsCommand({ Bucket: lb, Prefix: 'u/' }));
    expect(prefixed.Uploads).toHaveLength(3);
    const first = await c.send(new ListMultipartUploadsCommand({ Bucket: lb, MaxUploads: 2 }));
    expect([first.Uploads!.length, first.IsTruncated]).toEqual([2, true]);
    const next = await c.send(new ListMultipartUploadsCommand({ Bucket: lb, KeyMarker: first.NextKeyMarker!, UploadIdMarker: first.NextUploadIdMarker! }));
    expect(next.Uploads!.map((u) => u.Key)).toEqual(['u/two', 'v/three']);
    // The last page names its last upload too (as RGW and Swift's s3api); a page of none names nothing.
    expect([next.IsTruncated, next.NextKeyMarker, next.NextUploadIdMarker]).toEqual([false, 'v/three', ids[3]]);
    const none = await c.send(new ListMultipartUploadsCommand({ Bucket: lb, Prefix: 'nothing/' }));
    expect([none.Uploads, none.NextKeyMarker, none.NextUploadIdMarker]).toEqual([undefined, undefined, undefined]);
    const noParts = await c.send(new ListPartsCommand({ Bucket: lb, Key: 'v/three', UploadId: ids[3]! }));
    expect([noParts.Parts, noParts.PartNumberMarker, noParts.NextPartNumberMarker]).toEqual([undefined, '0', '0']);
    expect((await sdkError(s.client(BOB).send(new ListMultipartUploadsCommand({ Bucket: lb })))).name).toBe('AccessDenied');

    const key = 'u/one';
    const uploadId = ids[0]!;
    for (let n = 1; n <= 3; n++) await c.send(new UploadPartCommand({ Bucket: lb, Key: key, UploadId: uploadId, PartNumber: n, Body: `p${n}` }));
    const page = await c.send(new ListPartsCommand({ Bucket: lb, Key: key, UploadId: uploadId, MaxParts: 2 }));
    expect([page.Parts!.map((p) => p.PartNumber), page.IsTruncated, page.NextPartNumberMarker]).toEqual([[1, 2], true, '2']);
    const rest = await c.send(new ListPartsCommand({ Bucket: lb, Key: key, UploadId: uploadId, PartNumberMarker: page.NextPartNumberMarker! }));
    expect([rest.Parts!.map((p) => p.PartNumber), rest.IsTruncated]).toEqual([[3], false]);
  });

  it('copies parts from an object, whole and by range', async () => {
    const source = Buffer.concat([Buffer.alloc(5 * MiB, 'x'), Buffer.from('0123456789')]);
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'copy-src', Body: source }));
    const id = await create('from-copy');
    const p1 = await c.send(new UploadPartCopyCommand({ Bucket: b, Key: 'from-copy', UploadId: id, PartNumber: 1, CopySource: `${b}/copy-src` }));
    const p2 = await c.send(new UploadPartCopyCommand({ Bucket: b, Key: 'from-copy', UploadId: id, PartNumber: 2, CopySource: `${b}/copy-src`, CopySourceRange: `bytes=${5 * MiB + 2}-${5 * MiB + 5}` }));
    expect(p1.CopyPartResult?.ETag).toBe(`"${md5(source).toString('hex')}"`);
    expect(p2.CopyPartResult?.ETag).toBe(`"${md5(Buffer.from('2345')).toString('hex')}"`);
    const bad = await sdkError(c.send(new UploadPartCopyCommand({ Bucket: b, Key: 'from-copy', UploadId: id, PartNumber: 3, CopySource: `${b}/copy-src`, CopySourceRange: `bytes=0-${6 * MiB}` })));
    // A range the source cannot satisfy: InvalidRange, as AWS and RGW answer (not the malformed value's InvalidArgument).
    expect([bad.name, bad.status]).toEqual(['InvalidRange', 416]);
    const parts = [
      { PartNumber: 1, ETag: p1.CopyPartResult!.ETag! },
      { PartNumber: 2, ETag: p2.CopyPartResult!.ETag! },
    ];
    await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'from-copy', UploadId: id, MultipartUpload: { Parts: parts } }));
    const tail = await c.send(new GetObjectCommand({ Bucket: b, Key: 'from-copy', Range: 'bytes=-8' }));
    expect((await readAll(tail.Body)).toString()).toBe('67892345');
  });

  it('uploads a 12 MiB stream with lib-storage (parts in parallel)', async () => {
    const chunk = Buffer.alloc(256 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 7) % 251;
    const pieces = Array.from({ length: 48 }, () => chunk);
    const whole = Buffer.concat(pieces);
    const upload = new Upload({ client: c, params: { Bucket: b, Key: 'lib-storage.bin', Body: Readable.from(pieces), ContentType: 'application/x-lib' }, partSize: 5 * MiB, queueSize: 3 });
    const r = await upload.done();
    const expectedEtag = multipartEtag([whole.subarray(0, 5 * MiB), whole.subarray(5 * MiB, 10 * MiB), whole.subarray(10 * MiB)]);
    expect(r.ETag).toBe(expectedEtag);
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'lib-storage.bin' }));
    expect([get.ContentLength, get.ContentType]).toEqual([12 * MiB, 'application/x-lib']);
    expect(md5(await readAll(get.Body)).equals(md5(whole))).toBe(true);
  });
});

describe('ListMultipartUploads with a delimiter', () => {
  it('rolls unfinished uploads up into common prefixes and pages through them', async () => {
    const bucket = bucketName('mpd');
    await c.send(new CreateBucketCommand({ Bucket: bucket }));
    const keys = ['top.bin', 'photos/a.jpg', 'photos/b.jpg', 'videos/2024/x.mp4', 'zz.bin'];
    const ids = new Map<string, string>();
    for (const Key of keys) ids.set(Key, (await c.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key }))).UploadId!);
    const all = await c.send(new ListMultipartUploadsCommand({ Bucket: bucket, Delimiter: '/' }));
    expect(all.Uploads?.map((u) => u.Key)).toEqual(['top.bin', 'zz.bin']);
    expect(all.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['photos/', 'videos/']);
    const inPhotos = await c.send(new ListMultipartUploadsCommand({ Bucket: bucket, Delimiter: '/', Prefix: 'photos/' }));
    expect(inPhotos.Uploads?.map((u) => u.Key)).toEqual(['photos/a.jpg', 'photos/b.jpg']);
    const first = await c.send(new ListMultipartUploadsCommand({ Bucket: bucket, Delimiter: '/', MaxUploads: 2 }));
    expect(first.IsTruncated).toBe(true);
    expect(first.NextKeyMarker).toBe('top.bin');
    const rest = await c.send(new ListMultipartUploadsCommand({ Bucket: bucket, Delimiter: '/', KeyMarker: first.NextKeyMarker, UploadIdMarker: first.NextUploadIdMarker }));
    expect([...(rest.CommonPrefixes ?? []).map((p) => p.Prefix), ...(rest.Uploads ?? []).map((u) => u.Key)]).toEqual(['videos/', 'zz.bin']);
    for (const [Key, UploadId] of ids) await c.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId }));
  });
});

describe('GetObject by part number', () => {
  it('returns each part of a multipart object with the parts count, and the whole of a plain one as part 1', async () => {
    const Key = 'by-part.bin';
    const p1 = Buffer.alloc(5 * MiB, 1);
    const p2 = Buffer.alloc(1234, 2);
    const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key }));
    const parts: CompletedPart[] = [];
    for (const [i, Body] of [p1, p2].entries()) {
      const r = await c.send(new UploadPartCommand({ Bucket: b, Key, UploadId, PartNumber: i + 1, Body }));
      parts.push({ PartNumber: i + 1, ETag: r.ETag! });
    }
    await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key, UploadId, MultipartUpload: { Parts: parts } }));
    const second = await c.send(new GetObjectCommand({ Bucket: b, Key, PartNumber: 2 }));
    expect(second.PartsCount).toBe(2);
    expect(second.ContentRange).toBe(`bytes ${5 * MiB}-${5 * MiB + 1233}/${5 * MiB + 1234}`);
    expect((await readAll(second.Body as Readable)).equals(p2)).toBe(true);
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key, PartNumber: 1 }));
    expect(head.ContentLength).toBe(5 * MiB);
    expect(await sdkError(c.send(new GetObjectCommand({ Bucket: b, Key, PartNumber: 3 })))).toMatchObject({ status: 416 });
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'plain.txt', Body: 'plain' }));
    const plain = await c.send(new GetObjectCommand({ Bucket: b, Key: 'plain.txt', PartNumber: 1 }));
    expect(await readAll(plain.Body as Readable)).toEqual(Buffer.from('plain'));
  });

  it('answers HEAD of a part with the headers GET of that part answers, no body', async () => {
    const Key = 'head-part.bin';
    const body = [Buffer.alloc(5 * MiB, 3), Buffer.alloc(777, 4)];
    const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key, ContentType: 'application/x-parted', Metadata: { kind: 'parted' } }));
    const Parts = await uploadParts(Key, UploadId!, body);
    await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key, UploadId, MultipartUpload: { Parts } }));
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'head-plain.txt', Body: 'plain' }));
    const without = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'x-amz-request-id', 'x-amz-id-2', 'connection', 'keep-alive'].includes(k)));
    for (const [key, n] of [[Key, 1], [Key, 2], ['head-plain.txt', 1]] as const) {
      const head = await raw(s, 'HEAD', `/${b}/${key}?partNumber=${n}`, { as: ALICE });
      const get = await raw(s, 'GET', `/${b}/${key}?partNumber=${n}`, { as: ALICE });
      expect([head.status, head.body.length]).toEqual([206, 0]);
      expect(without(head.headers)).toEqual(without(get.headers));
    }
  });
});
