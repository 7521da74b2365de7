// Where the parts of a multipart object lie, for a download that checks them (PartLayout).
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ObjectDetails } from '../../src-shared/model/storage.js';
import { partsOfSizes, type PartLayout } from './object-backend.js';
import { compositeEtag } from './remote-compat-multipart.js';
import { fromS3Error } from './remote-compat-errors.js';
import { unquote } from './remote-compat-mapping.js';

/** HEADs in flight at once while the parts' sizes are asked for. */
const AT_ONCE = 8;
/** S3's most parts in one upload. */
const MOST_PARTS = 10_000;

const etagOf = (md5s: readonly string[]) => compositeEtag([...md5s]);
/** How many parts an S3 multipart ETag (`<md5>-N`) says its object has; 0 for any other ETag or an impossible count. */
const partCountOf = (etag: string) => {
  const count = Number(/^[0-9a-f]{32}-(\d+)$/.exec(unquote(etag).toLowerCase())?.[1] ?? 0);
  return count <= MOST_PARTS ? count : 0;
};
/** `count` parts of `size`, the last `last`. */
const evenSizes = (count: number, size: number, last: number) => Array.from({ length: count }, (_, i) => (i === count - 1 ? last : size));
const sum = (sizes: readonly number[]) => sizes.reduce((a, b) => a + b, 0);

/**
 * An S3 multipart object's parts from its ETag (`<md5 of the parts' MD5s>-<count>`) and `HEAD
 * ?partNumber=N` (the part's Content-Length). The first and the last part are asked first: when
 * the others can all be the first's size (every common client uploads so), they are taken to be,
 * and the layout carries `exact`, the question asked of every part, for the rare object whose
 * parts only add up the same way (a download that finds the ETag not made asks it then). Any
 * other object has every part asked at once. A server that ignores `partNumber` (Ceph RGW 16.2:
 * every answer the whole object) or refuses it (Swift 2.30's s3api: 405) leaves the object
 * unchecked (undefined), as does any answer that does not add up to the object.
 */
export async function multipartLayout(client: S3Client, bucket: string, key: string, head: ObjectDetails, signal?: AbortSignal): Promise<PartLayout | undefined> {
  const count = partCountOf(head.etag);
  if (count < 1) return undefined;
  const ask = (numbers: number[]) => partSizes(client, bucket, key, head.etag, count, numbers, signal);
  const exact = async (): Promise<PartLayout | undefined> => {
    const sizes = await ask(Array.from({ length: count }, (_, i) => i + 1));
    return sizes && sum(sizes) === head.size ? { parts: partsOfSizes(sizes), etagOf } : undefined;
  };
  if (count <= 2) return exact();
  const ends = await ask([1, count]);
  if (!ends) return undefined;
  const [first, last] = ends as [number, number];
  // Two parts larger than the object: the server answered the whole object (it ignores partNumber).
  if (first + last > head.size) return undefined;
  const even = evenSizes(count, first, last);
  if (last > first || sum(even) !== head.size) return exact();
  return { parts: partsOfSizes(even), etagOf, exact };
}

const MiB = 1024 * 1024;
/** The part sizes of the common clients' uploads: aws-cli, boto3 and Coffer 8 MiB; rclone and the AWS SDKs' upload helpers 5; MinIO's mc 16; s3cmd 15. */
const COMMON_PART_BYTES = [8, 5, 16, 15].map((n) => n * MiB);
/** Whole numbers of MiB tried from the least that fits (a client's own setting): each a hash of the file again when the others miss. */
const WHOLE_MIB_TRIES = 3;

/**
 * Where an S3 multipart object's parts lie if it was uploaded in parts of one size, as every
 * common client uploads: for a server that cannot say (Ceph RGW 16.2 ignores `partNumber`,
 * Swift 2.30's s3api refuses it). Only sizes that make exactly the ETag's count of parts: a
 * common client's first, then whole numbers of MiB from the least that fits, then the least size
 * that fits (a client that spread a very large file over its 10,000 parts); after the first,
 * the others that fit are alternatives.
 */
export function guessedMultipartLayout(head: ObjectDetails): PartLayout | undefined {
  const count = partCountOf(head.etag);
  if (count < 1 || head.size < count) return undefined;
  const least = Math.ceil(head.size / count);
  const wholeMiB = Array.from({ length: WHOLE_MIB_TRIES }, (_, i) => (Math.ceil(least / MiB) + i) * MiB);
  const candidates = [...COMMON_PART_BYTES, ...wholeMiB, least].filter((size) => Math.ceil(head.size / size) === count);
  const layouts = [...new Set(candidates)].map((size): PartLayout => {
    return { parts: partsOfSizes(evenSizes(count, size, head.size - size * (count - 1))), etagOf, guessed: true };
  });
  const [first, ...alternatives] = layouts;
  return first && { ...first, ...(alternatives.length ? { alternatives } : {}) };
}

/**
 * The sizes of parts `numbers` (1-based), asked AT_ONCE at a time with If-Match (the parts of the
 * very object the HEAD described), or undefined when the server cannot tell.
 */
async function partSizes(client: S3Client, bucket: string, key: string, etag: string, count: number, numbers: number[], signal?: AbortSignal): Promise<number[] | undefined> {
  const sizes = new Array<number>(numbers.length).fill(0);
  let next = 0;
  let unusable = false;
  const worker = async () => {
    for (let i = next++; i < numbers.length && !unusable; i = next++) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key, PartNumber: numbers[i], IfMatch: `"${etag}"` }), signal ? { abortSignal: signal } : {});
        if (out.ContentLength === undefined || (out.PartsCount !== undefined && out.PartsCount !== count)) unusable = true;
        else sizes[i] = out.ContentLength;
      } catch (err) {
        const e = fromS3Error(err, `Parts of ${bucket}/${key}`);
        // Refused (Swift 2.30's s3api: 405 MethodNotAllowed; AWS past the last part: 416): no
        // layout, the download goes on checked by length. Gone (404) or changed (412) is the download's failure.
        const status = Number(e.details.status);
        if ((status >= 400 && status < 500 && status !== 404 && status !== 412) || status === 501) unusable = true;
        else throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, numbers.length) }, worker));
  return unusable ? undefined : sizes;
}
