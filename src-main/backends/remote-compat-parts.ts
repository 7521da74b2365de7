// Where the parts of a multipart object lie, for a download that checks them (PartLayout).
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ObjectDetails } from '../../src-shared/model/storage.js';
import { partsOfSizes, type PartLayout } from './object-backend.js';
import { compositeEtag } from './remote-compat-multipart.js';
import { fromS3Error } from './remote-compat-errors.js';

/** HEADs in flight at once while the parts' sizes are asked for. */
const AT_ONCE = 8;
/** S3's most parts in one upload. */
const MOST_PARTS = 10_000;

/**
 * An S3 multipart object's parts from its ETag (`<md5 of the parts' MD5s>-<count>`) and one
 * `HEAD ?partNumber=N` per part (its Content-Length): parts need not be of one size, so their
 * sizes are asked for, not guessed. A server that ignores `partNumber` (Ceph RGW 16.2: every
 * answer the whole object) or refuses it (Swift 2.30's s3api: 405) leaves the object unchecked
 * (undefined), as does any answer that does not add up to the object.
 */
export async function multipartLayout(client: S3Client, bucket: string, key: string, head: ObjectDetails, signal?: AbortSignal): Promise<PartLayout | undefined> {
  const count = Number(/^[0-9a-f]{32}-(\d+)$/.exec(head.etag.toLowerCase())?.[1] ?? 0);
  if (count < 1 || count > MOST_PARTS) return undefined;
  const sizes: number[] = new Array<number>(count).fill(0);
  let next = 1;
  let unusable = false;
  const ask = async () => {
    for (let n = next++; n <= count && !unusable; n = next++) {
      try {
        // If-Match: the parts of the very object `head` describes.
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key, PartNumber: n, IfMatch: `"${head.etag}"` }), signal ? { abortSignal: signal } : {});
        if (out.ContentLength === undefined || (out.PartsCount !== undefined && out.PartsCount !== count)) unusable = true;
        else sizes[n - 1] = out.ContentLength;
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
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, count) }, ask));
  if (unusable || sizes.reduce((a, b) => a + b, 0) !== head.size) return undefined;
  return { parts: partsOfSizes(sizes), etagOf: (md5s) => compositeEtag([...md5s]) };
}
