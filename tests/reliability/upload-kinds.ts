// The ways a client can upload an object, through both APIs, each reporting when it begins (with
// the MD5 of the complete body) and when the server acknowledged it. Used by the crash test.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { TestUser } from './served.js';

export type UploadKind = 'native-put' | 's3-put' | 's3-aws-chunked' | 's3-multipart' | 'native-slo';
export const UPLOAD_KINDS: UploadKind[] = ['native-put', 's3-put', 's3-aws-chunked', 's3-multipart', 'native-slo'];

/** One object a client set out to write: its complete body's digest, and whether it was acknowledged. */
export interface Attempt {
  name: string;
  kind: UploadKind | 'slo-segment';
  size: number;
  md5: string;
  acked: boolean;
}

export interface Uploader {
  bucket: string;
  storageUrl: string;
  token: string;
  s3: S3Client;
  /** Called before a request that may create `name` is sent. */
  begin(a: Omit<Attempt, 'acked'>): Attempt;
}

export const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

export function s3ClientFor(url: string, u: TestUser): S3Client {
  return new S3Client({
    endpoint: url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: u.accessKey, secretAccessKey: u.secretKey },
    requestHandler: new NodeHttpHandler({ connectionTimeout: 5000, requestTimeout: 30_000 }),
    maxAttempts: 1,
  });
}

async function nativePut(u: Uploader, name: string, body: Buffer, query = '', kind: Attempt['kind'] = 'native-put'): Promise<string> {
  const a = u.begin({ name, kind, size: body.length, md5: md5(body) });
  const res = await fetch(`${u.storageUrl}/${u.bucket}/${encodeURIComponent(name)}${query}`, {
    method: 'PUT',
    headers: { 'X-Auth-Token': u.token },
    body: body as BodyInit,
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`native PUT ${name}: ${res.status}`);
  a.acked = true;
  return res.headers.get('etag')!;
}

/** Uploads one object of `kind` with random content; sizes are small except the multipart's first part (the 5 MiB minimum). */
export async function upload(u: Uploader, kind: UploadKind, name: string, rand: () => number): Promise<void> {
  const size = (max: number) => 1 + Math.floor(rand() * max);
  switch (kind) {
    case 'native-put':
      await nativePut(u, name, randomBytes(size(200_000) - 1));
      return;
    case 's3-put': {
      const body = randomBytes(size(200_000));
      const a = u.begin({ name, kind, size: body.length, md5: md5(body) });
      await u.s3.send(new PutObjectCommand({ Bucket: u.bucket, Key: name, Body: body }));
      a.acked = true;
      return;
    }
    case 's3-aws-chunked': {
      // A stream body of known length: the SDK sends STREAMING-UNSIGNED-PAYLOAD-TRAILER (aws-chunked with a checksum trailer).
      const body = randomBytes(size(300_000));
      const a = u.begin({ name, kind, size: body.length, md5: md5(body) });
      const chunks = Array.from({ length: Math.ceil(body.length / 16384) }, (_, i) => body.subarray(i * 16384, (i + 1) * 16384));
      await u.s3.send(new PutObjectCommand({ Bucket: u.bucket, Key: name, Body: Readable.from(chunks), ContentLength: body.length }));
      a.acked = true;
      return;
    }
    case 's3-multipart': {
      const parts = [randomBytes(5 * 1024 * 1024), randomBytes(size(100_000))];
      const a = u.begin({ name, kind, size: parts[0]!.length + parts[1]!.length, md5: md5(Buffer.concat(parts)) });
      const { UploadId } = await u.s3.send(new CreateMultipartUploadCommand({ Bucket: u.bucket, Key: name }));
      const etags: string[] = [];
      for (const [i, part] of parts.entries()) {
        const r = await u.s3.send(new UploadPartCommand({ Bucket: u.bucket, Key: name, UploadId, PartNumber: i + 1, Body: part }));
        etags.push(r.ETag!);
      }
      await u.s3.send(
        new CompleteMultipartUploadCommand({ Bucket: u.bucket, Key: name, UploadId, MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) } }),
      );
      a.acked = true;
      return;
    }
    case 'native-slo': {
      const segments = Array.from({ length: 2 + Math.floor(rand() * 2) }, () => randomBytes(size(80_000)));
      const manifest = [];
      for (const [i, seg] of segments.entries()) {
        const segName = `segments/${name}/${i}`;
        const etag = await nativePut(u, segName, seg, '', 'slo-segment');
        manifest.push({ path: `/${u.bucket}/${segName}`, etag, size_bytes: seg.length });
      }
      const whole = Buffer.concat(segments);
      const a = u.begin({ name, kind, size: whole.length, md5: md5(whole) });
      const res = await fetch(`${u.storageUrl}/${u.bucket}/${encodeURIComponent(name)}?multipart-manifest=put`, {
        method: 'PUT',
        headers: { 'X-Auth-Token': u.token, 'Content-Type': 'application/json' },
        body: JSON.stringify(manifest),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`SLO manifest PUT ${name}: ${res.status}`);
      a.acked = true;
      return;
    }
  }
}
