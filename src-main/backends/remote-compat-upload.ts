// Streaming uploads to S3: one PUT for small bodies, parallel multipart parts above the part
// size, never the whole file in memory (partSize x queueSize, see remote-compat-multipart.ts).
import type { S3Client } from '@aws-sdk/client-s3';
import { stat } from 'node:fs/promises';
import { typeFromName } from '../engine/index.js';
import type { ObjectDetails } from '../../src-shared/model/storage.js';
import type { UploadOptions, UploadSource } from './object-backend.js';
import type { DirectS3 } from './remote-compat-direct.js';
import type { RemoteS3Config } from './remote-compat-client.js';
import { fromS3Error } from './remote-compat-errors.js';
import { headerParams } from './remote-compat-mapping.js';
import { MAX_PARTS, putDirect, putInParts } from './remote-compat-multipart.js';
import { putFileResumable } from './remote-compat-resume.js';
import { abortedError, md5HexOf, metered, openUploadSource, throwIfAborted } from './transfer.js';

export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
export const DEFAULT_QUEUE_SIZE = 4;

/** The configured part size, grown when a known size would otherwise need more than 10000 parts. */
export function partSizeFor(size: number | undefined, configured = DEFAULT_PART_SIZE): number {
  if (size === undefined) return configured;
  return Math.max(configured, Math.ceil(size / (MAX_PARTS - 1)));
}

export async function uploadStream(
  client: S3Client,
  config: RemoteS3Config,
  bucket: string,
  key: string,
  source: UploadSource,
  opts: UploadOptions,
  direct?: DirectS3,
): Promise<{ composite: string | undefined; put?: ObjectDetails }> {
  throwIfAborted(opts.signal, 'The upload');
  const partSize = partSizeFor('stream' in source ? source.size : undefined, config.partSize);
  if ('path' in source && opts.resume) {
    const { size } = await stat(source.path);
    if (size > partSize) return uploadFileResumable(client, config, bucket, key, { path: source.path, size }, { ...opts, resume: opts.resume });
  }
  // A small body already in memory, with nothing but a type to send: one direct PUT, no stream read back into a buffer.
  if ('bytes' in source && source.bytes && source.bytes.length <= partSize && direct && !opts.meta && !opts.headers && !opts.onProgress) {
    return sendWhole(direct, objectParams(bucket, key, opts), source.bytes, opts);
  }
  const { stream, size } = await openUploadSource(source);
  // Cancelling stops everything at once: the body (a reader waiting on it fails), and every
  // request in flight; the multipart upload is then aborted, so no part lingers.
  const signal = opts.signal ?? new AbortController().signal;
  const body = metered(stream, { signal, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) }, 'The upload');
  // S3 stores what it is told (binary/octet-stream otherwise); the engine guesses by name too.
  const params = objectParams(bucket, key, opts);
  try {
    return await putInParts(client, params, body, {
      partSize: size === undefined ? partSize : partSizeFor(size, config.partSize),
      queueSize: config.queueSize ?? DEFAULT_QUEUE_SIZE,
      signal,
      // Plain uploads (a type, no metadata or headers: every transfer) go out without the SDK.
      ...(direct && !opts.meta && !opts.headers ? { direct } : {}),
      ...(opts.md5 && /^[0-9a-f]{32}$/.test(opts.md5) ? { md5: opts.md5 } : {}),
    });
  } catch (err) {
    if (opts.signal?.aborted) throw abortedError('The upload');
    throw fromS3Error(err, 'The upload');
  } finally {
    body.destroy();
  }
}

async function sendWhole(direct: DirectS3, params: ReturnType<typeof objectParams>, bytes: Buffer, opts: UploadOptions) {
  const signal = opts.signal ?? new AbortController().signal;
  const contentMd5 = Buffer.from(md5HexOf(bytes, opts.md5), 'hex').toString('base64');
  try {
    return { composite: undefined, put: await putDirect(direct, params, bytes, contentMd5, signal) };
  } catch (err) {
    if (opts.signal?.aborted) throw abortedError('The upload');
    throw fromS3Error(err, 'The upload');
  }
}

function objectParams(bucket: string, key: string, opts: UploadOptions) {
  return {
    Bucket: bucket,
    Key: key,
    ContentType: opts.contentType || typeFromName(key) || 'application/octet-stream',
    ...(opts.meta ? { Metadata: opts.meta } : {}),
    ...headerParams(opts.headers),
  };
}

async function uploadFileResumable(client: S3Client, config: RemoteS3Config, bucket: string, key: string, file: { path: string; size: number }, opts: UploadOptions & { resume: NonNullable<UploadOptions['resume']> }) {
  try {
    const r = await putFileResumable(client, objectParams(bucket, key, opts), file, {
      partSize: partSizeFor(file.size, config.partSize),
      queueSize: config.queueSize ?? DEFAULT_QUEUE_SIZE,
      signal: opts.signal ?? new AbortController().signal,
      resume: opts.resume,
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    return { composite: r.composite };
  } catch (err) {
    if (opts.signal?.aborted) throw abortedError('The upload');
    throw fromS3Error(err, 'The upload');
  }
}
