// The remote S3 backend's versions: a folder listed with its versions and delete markers
// (ListObjectVersions), the bucket's versioning switch, and undelete.
import {
  DeleteObjectCommand,
  GetBucketVersioningCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  type ListObjectVersionsOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import mime from 'mime';
import { CofferError } from '../../src-shared/errors.js';
import type { FolderEntry, FolderPage, VersioningStatus } from '../../src-shared/model/storage.js';
import type { ListFolderOptions } from './object-backend.js';
import type { SdkCall } from './remote-compat-errors.js';
import { isoOf, unquote } from './remote-compat-mapping.js';
import { listObjectVersions } from './remote-compat-objects.js';
import { throwIfAborted } from './transfer.js';
import { decodeVersionMarker, encodeVersionMarker } from './version-marker.js';

export async function bucketVersioning(client: S3Client, call: SdkCall, bucket: string): Promise<VersioningStatus> {
  const out = await call(() => client.send(new GetBucketVersioningCommand({ Bucket: bucket })));
  if (out.Status === 'Enabled') return 'enabled';
  return out.Status === 'Suspended' ? 'suspended' : 'unversioned';
}

export async function setBucketVersioning(client: S3Client, call: SdkCall, bucket: string, on: boolean): Promise<VersioningStatus> {
  // A bucket never versioned has nothing to suspend (and S3 cannot make it unversioned again).
  if (!on && (await bucketVersioning(client, call, bucket)) === 'unversioned') return 'unversioned';
  await call(() => client.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: on ? 'Enabled' : 'Suspended' } })));
  return bucketVersioning(client, call, bucket);
}

type Listed = { key: string; latest: boolean; time: string; entry: FolderEntry };

/**
 * One ListObjectVersions page in S3's order: by name (UTF-8 bytes), each name's versions newest
 * first, folders among them. The SDK hands versions and delete markers over as two lists;
 * they are merged back by time (the latest first).
 */
export function versionPageEntries(out: ListObjectVersionsOutput): FolderEntry[] {
  const listed: Listed[] = [];
  for (const v of out.Versions ?? []) {
    const key = v.Key ?? '';
    const common = { size: v.Size ?? 0, etag: unquote(v.ETag), lastModified: isoOf(v.LastModified), contentType: mime.getType(key) ?? null };
    const versionId = v.VersionId ?? 'null';
    const entry: FolderEntry = v.IsLatest ? { kind: 'object', name: key, ...common, versionId } : { kind: 'version', name: key, versionId, isLatest: false, deleteMarker: false, ...common };
    listed.push({ key, latest: !!v.IsLatest, time: common.lastModified, entry });
  }
  for (const m of out.DeleteMarkers ?? []) {
    const key = m.Key ?? '';
    const lastModified = isoOf(m.LastModified);
    const entry: FolderEntry = { kind: 'version', name: key, versionId: m.VersionId ?? 'null', isLatest: !!m.IsLatest, deleteMarker: true, size: 0, etag: '', lastModified, contentType: null };
    listed.push({ key, latest: !!m.IsLatest, time: lastModified, entry });
  }
  for (const p of out.CommonPrefixes ?? []) listed.push({ key: p.Prefix ?? '', latest: true, time: '', entry: { kind: 'folder', prefix: p.Prefix ?? '' } });
  const bytes = new Map(listed.map((l) => [l.key, Buffer.from(l.key)]));
  listed.sort((a, b) => Buffer.compare(bytes.get(a.key)!, bytes.get(b.key)!) || Number(b.latest) - Number(a.latest) || b.time.localeCompare(a.time));
  return listed.map((l) => l.entry);
}

export async function* listBucketVersions(client: S3Client, call: SdkCall, bucket: string, opts: ListFolderOptions): AsyncIterable<FolderPage> {
  const delimiter = opts.delimiter ?? '/';
  let marker = decodeVersionMarker(opts.marker);
  for (;;) {
    throwIfAborted(opts.signal, 'The listing');
    const out = await call(() =>
      client.send(
        new ListObjectVersionsCommand({
          Bucket: bucket,
          ...(opts.prefix ? { Prefix: opts.prefix } : {}),
          ...(delimiter ? { Delimiter: delimiter } : {}),
          ...(marker ? { KeyMarker: marker.key, ...(marker.versionId !== undefined ? { VersionIdMarker: marker.versionId } : {}) } : {}),
          MaxKeys: opts.pageSize ?? 1000,
        }),
        opts.signal ? { abortSignal: opts.signal } : {},
      ),
    );
    const next = out.IsTruncated && out.NextKeyMarker ? { key: out.NextKeyMarker, ...(out.NextVersionIdMarker ? { versionId: out.NextVersionIdMarker } : {}) } : undefined;
    yield { entries: versionPageEntries(out), nextMarker: next ? encodeVersionMarker(next) : null };
    if (!next) return;
    marker = next;
  }
}

/** Deletes the delete markers above the newest version, which becomes current again (as the AWS console undeletes). */
export async function undeleteObject(client: S3Client, call: SdkCall, bucket: string, name: string): Promise<void> {
  const versions = await listObjectVersions(client, call, bucket, name);
  if (!versions.some((v) => !v.deleteMarker)) throw new CofferError('NoSuchKey', `${name} has no version to bring back`);
  for (const v of versions) {
    if (!v.deleteMarker) break;
    await call(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name, VersionId: v.versionId })));
  }
}
