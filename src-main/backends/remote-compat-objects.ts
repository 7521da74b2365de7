// The remote S3 backend's operations that page or batch on their own.
import { DeleteObjectsCommand, ListObjectVersionsCommand, type S3Client } from '@aws-sdk/client-s3';
import type { DeleteManyResult, VersionEntry } from '../../src-shared/model/storage.js';
import { codeForS3, type SdkCall } from './remote-compat-errors.js';
import { versionEntries } from './remote-compat-mapping.js';

/** S3 DeleteObjects takes at most 1000 keys a request. */
const DELETE_BATCH = 1000;

export async function deleteObjects(client: S3Client, call: SdkCall, container: string, names: string[]): Promise<DeleteManyResult> {
  const result: DeleteManyResult = { deleted: [], errors: [] };
  for (let i = 0; i < names.length; i += DELETE_BATCH) {
    const batch = names.slice(i, i + DELETE_BATCH);
    const out = await call(() =>
      // Content-MD5 (the SDK's MD5 "checksum"), not its default CRC32: MinIO and older RGW refuse a
      // multi-delete without Content-MD5 (aws-sdk-js-v3#6920); AWS and Coffer accept either.
      client.send(new DeleteObjectsCommand({ Bucket: container, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: false }, ChecksumAlgorithm: 'MD5' })),
    );
    for (const d of out.Deleted ?? []) if (d.Key !== undefined) result.deleted.push(d.Key);
    for (const e of out.Errors ?? []) result.errors.push({ name: e.Key ?? '', code: codeForS3(e.Code), message: e.Message ?? e.Code ?? 'Error' });
  }
  return result;
}

/** Every version and delete marker of one object, newest first. */
export async function listObjectVersions(client: S3Client, call: SdkCall, container: string, name: string): Promise<VersionEntry[]> {
  const out: VersionEntry[] = [];
  let keyMarker: string | undefined;
  let versionIdMarker: string | undefined;
  for (;;) {
    const page = await call(() => client.send(new ListObjectVersionsCommand({ Bucket: container, Prefix: name, KeyMarker: keyMarker, VersionIdMarker: versionIdMarker })));
    // The prefix also matches longer names; only this one's versions and delete markers count.
    out.push(...versionEntries(page, name));
    const pastName = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].some((v) => v.Key !== name);
    if (!page.IsTruncated || pastName) break;
    keyMarker = page.NextKeyMarker;
    versionIdMarker = page.NextVersionIdMarker;
  }
  // The SDK splits versions from delete markers; newest first again (the latest at the top).
  return out.sort((a, b) => Number(b.isLatest) - Number(a.isLatest) || b.lastModified.localeCompare(a.lastModified));
}
