// S3 responses -> the app's model, and the few request pieces built from the model.
import type { GetObjectOutput, Grant, HeadObjectOutput, ListObjectsOutput, ListObjectVersionsOutput } from '@aws-sdk/client-s3';
import type { FolderEntry, ObjectDetails, StandardHeaderValues, VersionEntry } from '../../src-shared/model/storage.js';
import { typeFromName } from '../engine/index.js';
import { CofferError } from '../../src-shared/errors.js';

export const unquote = (etag: string | undefined) => (etag ?? '').replace(/^"(.*)"$/, '$1');
export const isoOf = (d: Date | undefined) => (d ?? new Date(0)).toISOString();

const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';

/** Whether an ACL lets anyone read (a READ or FULL_CONTROL grant to AllUsers). */
export function grantsPublicRead(grants: Grant[] | undefined): boolean {
  return (grants ?? []).some((g) => g.Grantee?.URI === ALL_USERS && (g.Permission === 'READ' || g.Permission === 'FULL_CONTROL'));
}

/** The object's size: from Content-Range when the answer was a range, else Content-Length. */
function totalSize(o: HeadObjectOutput | GetObjectOutput): number {
  const range = 'ContentRange' in o ? o.ContentRange : undefined;
  const total = range ? /\/(\d+)$/.exec(range)?.[1] : undefined;
  return total !== undefined ? Number(total) : (o.ContentLength ?? 0);
}

export function headersOf(o: HeadObjectOutput | GetObjectOutput): StandardHeaderValues {
  const h: StandardHeaderValues = {};
  if (o.ContentEncoding) h.contentEncoding = o.ContentEncoding;
  if (o.ContentDisposition) h.contentDisposition = o.ContentDisposition;
  if (o.ContentLanguage) h.contentLanguage = o.ContentLanguage;
  if (o.CacheControl) h.cacheControl = o.CacheControl;
  const expires = o.ExpiresString ?? o.Expires?.toUTCString();
  if (expires) h.expires = expires;
  return h;
}

export function detailsOf(container: string, name: string, o: HeadObjectOutput | GetObjectOutput, publicRead: boolean | null): ObjectDetails {
  const details: ObjectDetails = {
    container,
    name,
    size: totalSize(o),
    etag: unquote(o.ETag),
    lastModified: isoOf(o.LastModified),
    contentType: o.ContentType ?? 'application/octet-stream',
    meta: Object.fromEntries(Object.entries(o.Metadata ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    headers: headersOf(o),
    // 'null' is the null version of a bucket whose versioning is suspended: the model says null.
    versionId: o.VersionId && o.VersionId !== 'null' ? o.VersionId : null,
    storageClass: o.StorageClass ?? 'STANDARD',
    publicRead,
  };
  // Object Lock, where the server keeps it (the headers come only to callers allowed to read them).
  const mode = o.ObjectLockMode;
  if ((mode === 'GOVERNANCE' || mode === 'COMPLIANCE') && o.ObjectLockRetainUntilDate) details.retention = { mode, until: isoOf(o.ObjectLockRetainUntilDate) };
  if (o.ObjectLockLegalHoldStatus) details.legalHold = o.ObjectLockLegalHoldStatus === 'ON';
  // Only where asked for (x-amz-checksum-mode); a COMPOSITE one ends in -<parts> and is no CRC of the bytes.
  if (o.ChecksumCRC32 && o.ChecksumType !== 'COMPOSITE' && !o.ChecksumCRC32.includes('-')) details.crc32 = o.ChecksumCRC32;
  return details;
}

export function entryName(e: FolderEntry): string {
  return e.kind === 'folder' ? e.prefix : e.name;
}

/** A ListObjects page as one list in S3's name order (UTF-8 bytes), folders among the objects. */
export function folderEntries(out: ListObjectsOutput): FolderEntry[] {
  const objects: FolderEntry[] = (out.Contents ?? []).map((o) => ({
    kind: 'object',
    name: o.Key ?? '',
    size: o.Size ?? 0,
    etag: unquote(o.ETag),
    lastModified: isoOf(o.LastModified),
    // S3 listings carry no content type: guessed from the name, as a file manager shows a kind
    // (and as the local store chose it at upload); the object's own is in its details.
    contentType: typeFromName(o.Key ?? '') ?? null,
  }));
  const folders: FolderEntry[] = (out.CommonPrefixes ?? []).map((p) => ({ kind: 'folder', prefix: p.Prefix ?? '' }));
  return [...objects, ...folders].sort((a, b) => Buffer.compare(Buffer.from(entryName(a)), Buffer.from(entryName(b))));
}

/** The versions and delete markers of exactly `name` in a ListObjectVersions page. */
export function versionEntries(page: ListObjectVersionsOutput, name: string): VersionEntry[] {
  const out: VersionEntry[] = [];
  for (const v of page.Versions ?? []) {
    if (v.Key !== name) continue;
    out.push({ versionId: v.VersionId ?? 'null', isLatest: !!v.IsLatest, deleteMarker: false, size: v.Size ?? 0, etag: unquote(v.ETag), lastModified: isoOf(v.LastModified) });
  }
  for (const m of page.DeleteMarkers ?? []) {
    if (m.Key !== name) continue;
    out.push({ versionId: m.VersionId ?? 'null', isLatest: !!m.IsLatest, deleteMarker: true, size: 0, etag: '', lastModified: isoOf(m.LastModified) });
  }
  return out;
}

/** The standard headers as PutObject/CopyObject parameters. */
export function headerParams(h: StandardHeaderValues | undefined) {
  if (!h) return {};
  let expires: Date | undefined;
  if (h.expires !== undefined) {
    expires = new Date(h.expires);
    if (Number.isNaN(expires.getTime())) throw new CofferError('InvalidArgument', `Expires must be an HTTP date, not "${h.expires}"`);
  }
  return {
    ...(h.contentEncoding ? { ContentEncoding: h.contentEncoding } : {}),
    ...(h.contentDisposition ? { ContentDisposition: h.contentDisposition } : {}),
    ...(h.contentLanguage ? { ContentLanguage: h.contentLanguage } : {}),
    ...(h.cacheControl ? { CacheControl: h.cacheControl } : {}),
    ...(expires ? { Expires: expires } : {}),
  };
}

/** `bucket/key[?versionId=v]` as x-amz-copy-source wants it: URL-encoded, `/` in the key kept. */
export function copySource(bucket: string, key: string, versionId?: string): string {
  const path = `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
  return versionId === undefined ? path : `${path}?versionId=${encodeURIComponent(versionId)}`;
}

/** The statement Coffer adds to a bucket policy for public object reads (found again by its Sid). */
export const PUBLIC_READ_SID = 'CofferPublicRead';

interface PolicyDocument {
  Version?: string;
  Statement?: unknown[] | unknown;
}

/**
 * The bucket policy with Coffer's public-read statement added or removed; other statements stay.
 * Returns null when nothing would remain (the policy is then deleted). A bucket ACL alone cannot
 * do this: on AWS, RGW and Coffer, bucket READ permits listing, not reading objects (§26.4).
 */
export function policyWithPublicRead(current: string | undefined, bucket: string, on: boolean): string | null {
  let doc: PolicyDocument = { Version: '2012-10-17', Statement: [] };
  if (current) {
    try {
      doc = JSON.parse(current) as PolicyDocument;
    } catch {
      throw new CofferError('InvalidArgument', `The bucket policy of ${bucket} is not valid JSON; fix it before changing public access`);
    }
  }
  const others = ([] as unknown[]).concat(doc.Statement ?? []).filter((s) => (s as { Sid?: string }).Sid !== PUBLIC_READ_SID);
  const statements = on
    ? [...others, { Sid: PUBLIC_READ_SID, Effect: 'Allow', Principal: '*', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${bucket}/*`] }]
    : others;
  if (statements.length === 0) return null;
  return JSON.stringify({ ...doc, Version: doc.Version ?? '2012-10-17', Statement: statements });
}
