// Additional checksums through the AWS SDK v3: CRC64NVME (checked against the SDK's own
// implementation), checksum mode on GET/HEAD with x-amz-checksum-type, multipart uploads with
// COMPOSITE and FULL_OBJECT checksums (per-part checksums in ListParts, the object's on Complete),
// AWS's rules on which algorithm may be which type, and refusals that store nothing; and
// GetObjectAttributes (ETag, Checksum, ObjectParts with its pagination, StorageClass, ObjectSize).
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  PutBucketVersioningCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type ChecksumAlgorithm,
  type ChecksumType,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Crc64Nvme } from '@aws-sdk/checksums';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, bucketName, errorOf, raw, readAll, sdkError, startWithBucket, type S3TestServer } from './server.js';

let s: S3TestServer;
let c: S3Client;
let b: string;
beforeAll(async () => {
  ({ s, c, b } = await startWithBucket('sums'));
});
afterAll(async () => {
  await s?.close();
});

async function sdkCrc64(bytes: Buffer): Promise<string> {
  const h = new Crc64Nvme();
  h.update(bytes);
  return Buffer.from(await h.digest()).toString('base64');
}
const crc32Bytes = (bytes: Buffer) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(bytes) >>> 0);
  return out;
};

const MIB5 = 5 * 1024 * 1024;
const part1 = Buffer.alloc(MIB5, 'a');
const part2 = Buffer.from('the tail of the object');

async function multipart(Key: string, ChecksumAlgorithm: ChecksumAlgorithm, ChecksumType?: ChecksumType) {
  const created = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key, ChecksumAlgorithm, ChecksumType }));
  const UploadId = created.UploadId!;
  const p1 = await c.send(new UploadPartCommand({ Bucket: b, Key, UploadId, PartNumber: 1, Body: part1, ChecksumAlgorithm }));
  const p2 = await c.send(new UploadPartCommand({ Bucket: b, Key, UploadId, PartNumber: 2, Body: part2, ChecksumAlgorithm }));
  return { created, UploadId, p1, p2 };
}

describe('single uploads', () => {
  it('stores the CRC64NVME the SDK sends and shows it with checksum mode, as FULL_OBJECT', async () => {
    const body = Buffer.from('checksummed with crc64nvme');
    const put = await c.send(new PutObjectCommand({ Bucket: b, Key: 'crc64', Body: body, ChecksumAlgorithm: 'CRC64NVME' }));
    const want = await sdkCrc64(body);
    expect(put.ChecksumCRC64NVME).toBe(want);
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'crc64', ChecksumMode: 'ENABLED' }));
    expect([head.ChecksumCRC64NVME, head.ChecksumType]).toEqual([want, 'FULL_OBJECT']);
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'crc64', ChecksumMode: 'ENABLED' }));
    expect(get.ChecksumCRC64NVME).toBe(want);
    expect((await readAll(get.Body)).equals(body)).toBe(true);
    expect((await c.send(new HeadObjectCommand({ Bucket: b, Key: 'crc64' }))).ChecksumCRC64NVME).toBeUndefined();
  });

  it('a wrong CRC64NVME is BadDigest and stores nothing', async () => {
    const r = await raw(s, 'PUT', `/${b}/bad-crc64`, { as: ALICE, body: 'abc', headers: { 'x-amz-checksum-crc64nvme': await sdkCrc64(Buffer.from('abd')) } });
    expect([r.status, errorOf(r).Code]).toEqual([400, 'BadDigest']);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'bad-crc64' })))).status).toBe(404);
  });
});

describe('multipart uploads', () => {
  it('COMPOSITE CRC32: per-part checksums in ListParts, the checksum of the part checksums with -2', async () => {
    const { created, UploadId, p1, p2 } = await multipart('composite', 'CRC32');
    expect([created.ChecksumAlgorithm, created.ChecksumType]).toEqual(['CRC32', 'COMPOSITE']);
    const listed = await c.send(new ListPartsCommand({ Bucket: b, Key: 'composite', UploadId }));
    expect(listed.Parts?.map((p) => p.ChecksumCRC32)).toEqual([crc32Bytes(part1).toString('base64'), crc32Bytes(part2).toString('base64')]);
    expect([listed.ChecksumAlgorithm, listed.ChecksumType]).toEqual(['CRC32', 'COMPOSITE']);
    const done = await c.send(
      new CompleteMultipartUploadCommand({
        Bucket: b,
        Key: 'composite',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.ETag, ChecksumCRC32: p1.ChecksumCRC32 }, { PartNumber: 2, ETag: p2.ETag, ChecksumCRC32: p2.ChecksumCRC32 }] },
      }),
    );
    const want = `${crc32Bytes(Buffer.concat([crc32Bytes(part1), crc32Bytes(part2)])).toString('base64')}-2`;
    expect([done.ChecksumCRC32, done.ChecksumType]).toEqual([want, 'COMPOSITE']);
    const head = await c.send(new HeadObjectCommand({ Bucket: b, Key: 'composite', ChecksumMode: 'ENABLED' }));
    expect([head.ChecksumCRC32, head.ChecksumType]).toEqual([want, 'COMPOSITE']);
  });

  it('FULL_OBJECT CRC64NVME (its default type): the CRC of all the bytes, combined from the parts', async () => {
    const { created, UploadId, p1, p2 } = await multipart('full', 'CRC64NVME');
    expect(created.ChecksumType).toBe('FULL_OBJECT');
    const want = await sdkCrc64(Buffer.concat([part1, part2]));
    const done = await c.send(
      new CompleteMultipartUploadCommand({
        Bucket: b,
        Key: 'full',
        UploadId,
        ChecksumCRC64NVME: want,
        ChecksumType: 'FULL_OBJECT',
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.ETag }, { PartNumber: 2, ETag: p2.ETag }] },
      }),
    );
    expect([done.ChecksumCRC64NVME, done.ChecksumType]).toEqual([want, 'FULL_OBJECT']);
    const get = await c.send(new GetObjectCommand({ Bucket: b, Key: 'full', ChecksumMode: 'ENABLED' }));
    expect([get.ChecksumCRC64NVME, get.ChecksumType]).toEqual([want, 'FULL_OBJECT']);
    await readAll(get.Body);
  });

  it('a wrong whole-object checksum on Complete is BadDigest; a wrong part checksum InvalidPart; nothing stored', async () => {
    const { UploadId, p1, p2 } = await multipart('wrong', 'CRC32', 'FULL_OBJECT');
    const parts = [{ PartNumber: 1, ETag: p1.ETag }, { PartNumber: 2, ETag: p2.ETag }];
    const badPart = await sdkError(c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'wrong', UploadId, MultipartUpload: { Parts: [{ ...parts[0]!, ChecksumCRC32: 'AAAAAA==' }, parts[1]!] } })));
    expect([badPart.name, badPart.status]).toEqual(['InvalidPart', 400]);
    const badWhole = await sdkError(c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'wrong', UploadId, ChecksumCRC32: 'AAAAAA==', MultipartUpload: { Parts: parts } })));
    expect([badWhole.name, badWhole.status]).toEqual(['BadDigest', 400]);
    expect((await sdkError(c.send(new HeadObjectCommand({ Bucket: b, Key: 'wrong' })))).status).toBe(404);
    const ok = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'wrong', UploadId, MultipartUpload: { Parts: parts } }));
    expect(ok.ChecksumCRC32).toBe(crc32Bytes(Buffer.concat([part1, part2])).toString('base64'));
  });

  it('refuses the types AWS refuses for an algorithm', async () => {
    for (const [alg, type] of [['SHA256', 'FULL_OBJECT'], ['SHA1', 'FULL_OBJECT'], ['CRC64NVME', 'COMPOSITE']] as const) {
      const err = await sdkError(c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'refused', ChecksumAlgorithm: alg, ChecksumType: type })));
      expect([err.name, err.status], `${alg} ${type}`).toEqual(['InvalidRequest', 400]);
    }
    const typeOnly = await raw(s, 'POST', `/${b}/refused?uploads`, { as: ALICE, headers: { 'x-amz-checksum-type': 'COMPOSITE' } });
    expect([typeOnly.status, errorOf(typeOnly).Code]).toEqual([400, 'InvalidRequest']);
  });

  it('SHA256 COMPOSITE: the SHA-256 of the parts\' SHA-256s', async () => {
    const { UploadId, p1, p2 } = await multipart('sha', 'SHA256');
    const done = await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'sha', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.ETag, ChecksumSHA256: p1.ChecksumSHA256 }, { PartNumber: 2, ETag: p2.ETag, ChecksumSHA256: p2.ChecksumSHA256 }] } }));
    const sha = (x: Buffer) => createHash('sha256').update(x).digest();
    expect(done.ChecksumSHA256).toBe(`${sha(Buffer.concat([sha(part1), sha(part2)])).toString('base64')}-2`);
  });
});

describe('parts and the upload\'s algorithm', () => {
  it('UploadPart with a checksum of another algorithm than the upload\'s is InvalidRequest, and stores no part', async () => {
    const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'other-alg', ChecksumAlgorithm: 'SHA256' }));
    // The SDK's default part checksum is CRC32: against a SHA256 upload AWS refuses it.
    const err = await sdkError(c.send(new UploadPartCommand({ Bucket: b, Key: 'other-alg', UploadId, PartNumber: 1, Body: part1, ChecksumAlgorithm: 'CRC32' })));
    expect([err.status, err.name, err.message]).toEqual([400, 'InvalidRequest', 'Checksum Type mismatch occurred, expected checksum Type: sha256, actual checksum Type: crc32']);
    // A header checksum alone (no x-amz-sdk-checksum-algorithm) is judged the same way, before it is checked.
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(part2));
    const rawPart = await raw(s, 'PUT', `/${b}/other-alg?partNumber=1&uploadId=${UploadId}`, { as: ALICE, body: part2, headers: { 'x-amz-checksum-crc32': crc.toString('base64') } });
    expect([rawPart.status, errorOf(rawPart).Code]).toEqual([400, 'InvalidRequest']);
    expect((await c.send(new ListPartsCommand({ Bucket: b, Key: 'other-alg', UploadId }))).Parts ?? []).toEqual([]);
    const ok = await c.send(new UploadPartCommand({ Bucket: b, Key: 'other-alg', UploadId, PartNumber: 1, Body: part1, ChecksumAlgorithm: 'SHA256' }));
    expect(ok.ChecksumSHA256).toBe(createHash('sha256').update(part1).digest('base64'));
  });

  it('UploadPartCopy answers the part\'s checksum of the upload\'s algorithm', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'copy-source', Body: part2 }));
    const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'copied-part', ChecksumAlgorithm: 'CRC32' }));
    const r = await c.send(new UploadPartCopyCommand({ Bucket: b, Key: 'copied-part', UploadId, PartNumber: 1, CopySource: `${b}/copy-source` }));
    const expected = Buffer.alloc(4);
    expected.writeUInt32BE(crc32(part2));
    expect(r.CopyPartResult?.ChecksumCRC32).toBe(expected.toString('base64'));
    const plain = await c.send(new CreateMultipartUploadCommand({ Bucket: b, Key: 'copied-plain' }));
    const none = await c.send(new UploadPartCopyCommand({ Bucket: b, Key: 'copied-plain', UploadId: plain.UploadId, PartNumber: 1, CopySource: `${b}/copy-source` }));
    expect(none.CopyPartResult?.ChecksumCRC32).toBeUndefined();
  });
});

describe('GetObjectAttributes', () => {
  it('answers what is asked of a single upload, for the current or a given version', async () => {
    const vb = bucketName('attrs');
    await c.send(new CreateBucketCommand({ Bucket: vb }));
    await c.send(new PutBucketVersioningCommand({ Bucket: vb, VersioningConfiguration: { Status: 'Enabled' } }));
    const body = Buffer.from('attributes of a small object');
    const v1 = await c.send(new PutObjectCommand({ Bucket: vb, Key: 'o', Body: body, ChecksumAlgorithm: 'CRC32' }));
    await c.send(new PutObjectCommand({ Bucket: vb, Key: 'o', Body: 'newer' }));
    const r = await c.send(new GetObjectAttributesCommand({ Bucket: vb, Key: 'o', VersionId: v1.VersionId, ObjectAttributes: ['ETag', 'Checksum', 'ObjectParts', 'StorageClass', 'ObjectSize'] }));
    expect(r.ETag).toBe(v1.ETag!.replace(/"/g, ''));
    expect(r.Checksum).toEqual({ ChecksumCRC32: crc32Bytes(body).toString('base64'), ChecksumType: 'FULL_OBJECT' });
    expect([r.ObjectParts, r.StorageClass, r.ObjectSize, r.VersionId]).toEqual([undefined, 'STANDARD', body.length, v1.VersionId]);
    expect(r.LastModified).toBeInstanceOf(Date);
    const current = await c.send(new GetObjectAttributesCommand({ Bucket: vb, Key: 'o', ObjectAttributes: ['ObjectSize', 'Checksum'] }));
    expect([current.ObjectSize, current.ETag, current.StorageClass]).toEqual([5, undefined, undefined]);
  });

  it('pages the parts of a multipart object with their checksums', async () => {
    const { UploadId, p1, p2 } = await multipart('attr-mp', 'CRC32C');
    await c.send(new CompleteMultipartUploadCommand({ Bucket: b, Key: 'attr-mp', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.ETag }, { PartNumber: 2, ETag: p2.ETag }] } }));
    const first = await c.send(new GetObjectAttributesCommand({ Bucket: b, Key: 'attr-mp', ObjectAttributes: ['ObjectParts', 'Checksum'], MaxParts: 1 }));
    expect(first.ObjectParts).toMatchObject({ TotalPartsCount: 2, MaxParts: 1, IsTruncated: true, NextPartNumberMarker: '1' });
    expect(first.ObjectParts?.Parts).toEqual([{ PartNumber: 1, Size: MIB5, ChecksumCRC32C: p1.ChecksumCRC32C }]);
    expect(first.Checksum?.ChecksumType).toBe('COMPOSITE');
    expect(first.Checksum?.ChecksumCRC32C).toMatch(/-2$/);
    const next = await c.send(new GetObjectAttributesCommand({ Bucket: b, Key: 'attr-mp', ObjectAttributes: ['ObjectParts'], MaxParts: 1, PartNumberMarker: '1' }));
    expect(next.ObjectParts).toMatchObject({ IsTruncated: false, Parts: [{ PartNumber: 2, Size: part2.length, ChecksumCRC32C: p2.ChecksumCRC32C }] });
  });

  it('refuses a missing or unknown attribute name, and a missing key is NoSuchKey', async () => {
    await c.send(new PutObjectCommand({ Bucket: b, Key: 'plain-attrs', Body: 'x' }));
    for (const headers of [{}, { 'x-amz-object-attributes': 'ETag,Colour' }] as Record<string, string>[]) {
      const r = await raw(s, 'GET', `/${b}/plain-attrs?attributes`, { as: ALICE, headers });
      expect([r.status, errorOf(r).Code]).toEqual([400, 'InvalidArgument']);
    }
    expect((await sdkError(c.send(new GetObjectAttributesCommand({ Bucket: b, Key: 'nope', ObjectAttributes: ['ETag'] })))).name).toBe('NoSuchKey');
  });
});
