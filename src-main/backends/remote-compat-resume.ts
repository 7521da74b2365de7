// Resumable multipart upload of a file: parts are read by range (so they go in parallel and
// any of them can be checked again later), the upload id is handed to the caller at once, and a
// failure leaves the parts in place for the next attempt, even after an app restart.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { CofferError } from '../../src-shared/errors.js';
import { compositeEtag, crc32Base64, FULL_OBJECT_CRC32, type ObjectParams } from './remote-compat-multipart.js';
import { md5OfRange, parseResumeToken, ProgressMeter } from './transfer.js';

/** Parts the server already holds for the upload (none if the upload is gone). */
async function partsOnServer(client: S3Client, Bucket: string, Key: string, UploadId: string, signal: AbortSignal) {
  const have = new Map<number, { size: number; etag: string; crc32: string | undefined }>();
  try {
    let marker: string | undefined;
    do {
      const page = await client.send(new ListPartsCommand({ Bucket, Key, UploadId, ...(marker ? { PartNumberMarker: marker } : {}) }), { abortSignal: signal });
      for (const p of page.Parts ?? []) have.set(p.PartNumber!, { size: p.Size ?? -1, etag: (p.ETag ?? '').replace(/"/g, ''), crc32: p.ChecksumCRC32 });
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    return have;
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchUpload') return undefined;
    throw err;
  }
}

export async function putFileResumable(
  client: S3Client,
  params: ObjectParams,
  file: { path: string; size: number },
  opts: {
    partSize: number;
    queueSize: number;
    signal: AbortSignal;
    resume: { token: string | null; save: (token: string) => void };
    onProgress?: (bytes: number) => void;
  },
): Promise<{ composite: string }> {
  const { Bucket, Key } = params;
  const send = { abortSignal: opts.signal };
  let token = parseResumeToken(opts.resume.token);
  let have = token ? await partsOnServer(client, Bucket, Key, token.uploadId, opts.signal) : undefined;
  if (!token || !have) {
    // Not cancelled by the signal (as in remote-compat-multipart.ts): the id is saved first, so a
    // cancel meanwhile aborts this upload rather than leaving one nobody knows.
    const created = await client.send(new CreateMultipartUploadCommand({ ...params, ...FULL_OBJECT_CRC32 }));
    if (!created.UploadId) throw new CofferError('RemoteError', 'The server started a multipart upload without an upload id');
    token = { uploadId: created.UploadId, partSize: opts.partSize, ...(created.ChecksumAlgorithm === 'CRC32' ? { crc32: true as const } : {}) };
    have = new Map();
    opts.resume.save(JSON.stringify(token));
  }
  const { uploadId: UploadId, partSize } = token;
  const withCrc = token.crc32 === true;
  const count = Math.max(1, Math.ceil(file.size / partSize));
  const md5s: string[] = new Array<string>(count);
  /** Each part's CRC32 (base64), where the upload keeps them. */
  const crcs: string[] = new Array<string>(count);
  const meter = new ProgressMeter(opts.onProgress);
  const fh = await open(file.path, 'r');
  try {
    let next = 0;
    const worker = async () => {
      const buf = Buffer.allocUnsafe(partSize);
      while (next < count) {
        const index = next++;
        const start = index * partSize;
        const length = Math.min(partSize, file.size - start);
        const old = have!.get(index + 1);
        if (old && old.size === length && (!withCrc || old.crc32) && (await md5OfRange(file.path, start, start + length - 1, opts.signal)) === old.etag) {
          md5s[index] = old.etag;
          if (withCrc) crcs[index] = old.crc32!;
          meter.add(length);
          continue;
        }
        const { bytesRead } = await fh.read(buf, 0, length, start);
        if (bytesRead !== length) throw new CofferError('IncompleteBody', `${file.path} changed while it was uploaded`);
        const data = buf.subarray(0, length);
        const md5 = createHash('md5').update(data).digest();
        const crc = withCrc ? { ChecksumCRC32: crc32Base64(data) } : {};
        await client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: index + 1, Body: data, ContentLength: length, ContentMD5: md5.toString('base64'), ...crc }), send);
        md5s[index] = md5.toString('hex');
        if (withCrc) crcs[index] = crc.ChecksumCRC32!;
        meter.add(length);
      }
    };
    const guarded = () =>
      worker().catch((err: unknown) => {
        next = count;
        throw err;
      });
    await Promise.all(Array.from({ length: Math.min(opts.queueSize, count) }, guarded));
  } finally {
    await fh.close();
  }
  const parts: CompletedPart[] = md5s.map((m, i) => ({ PartNumber: i + 1, ETag: `"${m}"`, ...(withCrc ? { ChecksumCRC32: crcs[i] } : {}) }));
  await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }), send);
  meter.finish();
  // Every part was checked by the server against its Content-MD5; the composite proves the order.
  return { composite: compositeEtag(md5s) };
}

export async function abortResumable(client: S3Client, Bucket: string, Key: string, token: string): Promise<void> {
  const t = parseResumeToken(token);
  if (t) await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: t.uploadId })).catch(() => undefined);
}

/** Multipart uploads never completed or aborted, oldest first as S3 lists them (key order). */
export async function listUnfinished(client: S3Client, Bucket: string): Promise<{ name: string; uploadId: string; initiated: string | null }[]> {
  const out: { name: string; uploadId: string; initiated: string | null }[] = [];
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  for (let page = 0; page < 100; page++) {
    const r = await client.send(new ListMultipartUploadsCommand({ Bucket, ...(KeyMarker ? { KeyMarker } : {}), ...(UploadIdMarker ? { UploadIdMarker } : {}) }));
    for (const u of r.Uploads ?? []) out.push({ name: u.Key ?? '', uploadId: u.UploadId ?? '', initiated: u.Initiated ? u.Initiated.toISOString() : null });
    if (!r.IsTruncated) break;
    KeyMarker = r.NextKeyMarker;
    UploadIdMarker = r.NextUploadIdMarker;
  }
  return out;
}
