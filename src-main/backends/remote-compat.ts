import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { isCofferError } from '../../src-shared/errors.js';
import type {
  AccountSummary,
  Capabilities,
  ContainerOptions,
  ContainerSummary,
  DeleteManyResult,
  FolderPage,
  MetadataSet,
  ObjectDetails,
  VersionEntry,
  VersioningStatus,
} from '../../src-shared/model/storage.js';
import type { ContainerTag, LifecycleRuleChange, LifecycleView, TagsView } from '../../src-shared/model/container-settings.js';
import { checkLinkLifetime } from './local-share-links.js';
import { FOLDER_CONTENT_TYPE, type DownloadOptions, type ListFolderOptions, type ObjectBackend, type PartLayout, type UploadOptions, type UploadResult, type UploadSource } from './object-backend.js';
import { BucketAccess, S3_NO_BUCKET_QUOTA } from './remote-compat-buckets.js';
import { BucketSettings } from './remote-compat-settings.js';
import { agentsFor, createS3Client, type RemoteS3Config } from './remote-compat-client.js';
import { DirectS3, getOutputOf } from './remote-compat-direct.js';
import { fromS3Error } from './remote-compat-errors.js';
import { copySource, detailsOf, entryName, folderEntries, grantsPublicRead, headerParams } from './remote-compat-mapping.js';
import { deleteObjects, listObjectVersions } from './remote-compat-objects.js';
import { guessedMultipartLayout, multipartLayout } from './remote-compat-parts.js';
import { abortResumable, listUnfinished } from './remote-compat-resume.js';
import { uploadStream } from './remote-compat-upload.js';
import { bucketVersioning, listBucketVersions, setBucketVersioning, undeleteObject } from './remote-compat-versions.js';
import { metered, throwIfAborted } from './transfer.js';

export type { RemoteS3Config } from './remote-compat-client.js';

/**
 * A remote S3 endpoint (AWS, RGW, MinIO, Coffer's own compatible API) through the AWS SDK.
 * Bytes stream both ways (multipart uploads from fixed part buffers, the SDK's response stream for
 * downloads); idempotent requests are retried with backoff; errors become CofferErrors with
 * the server's message. Usage figures the endpoint does not give are null, never zero.
 */
export class RemoteS3Backend implements ObjectBackend {
  readonly kind = 's3' as const;
  /** AWS (and RGW, by default) cap MaxKeys at 1,000. */
  readonly listPageLimit = 1000;
  private readonly client: S3Client;
  private readonly buckets: BucketAccess;
  private readonly settings: BucketSettings;
  /** Whole-object PUTs and GETs of the transfers, without the SDK's per-request cost (remote-compat-direct.ts). */
  private readonly direct: DirectS3;

  constructor(private readonly config: RemoteS3Config) {
    const agents = agentsFor(config);
    this.client = createS3Client({ ...config, httpAgent: agents.http, httpsAgent: agents.https });
    this.direct = new DirectS3(config, agents);
    this.buckets = new BucketAccess(this.client, config, (op) => this.call(op));
    this.settings = new BucketSettings(this.client, (op) => this.call(op));
  }

  capabilities(): Capabilities {
    return {
      versions: true,
      publicRead: true,
      publicObjects: true,
      shareLinks: true,
      quota: true,
      serverSideCopy: true,
      bulkDelete: true,
      multipartUpload: true,
      containerQuota: false,
      // Offered: the server decides, and a bucket it made without the lock is reported.
      objectLock: true,
      // Offered: a server without them answers NotImplemented, shown as it says.
      lifecycle: true,
      containerTags: true,
      why: { containerQuota: S3_NO_BUCKET_QUOTA },
    };
  }

  /** Runs one SDK call and turns its failure into a CofferError. */
  private async call<T>(op: () => Promise<T>, what?: string): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw fromS3Error(err, what);
    }
  }

  accountInfo(): Promise<AccountSummary> {
    return this.buckets.accountInfo();
  }

  checkAccess(): Promise<void> {
    return this.buckets.checkAccess();
  }

  listContainers(): Promise<ContainerSummary[]> {
    return this.buckets.listContainers();
  }

  createContainer(name: string, options: ContainerOptions = {}): Promise<void> {
    return this.buckets.create(name, options);
  }

  async deleteContainer(name: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteBucketCommand({ Bucket: name })));
  }

  /**
   * ListObjects (v1): its marker is a name, as the other backends' are, so a page's nextMarker
   * can be handed back by anyone; the server's NextMarker also skips a rolled-up folder whole.
   */
  async *listFolder(container: string, opts: ListFolderOptions = {}): AsyncIterable<FolderPage> {
    if (opts.versions) return yield* listBucketVersions(this.client, (op) => this.call(op), container, opts);
    const delimiter = opts.delimiter ?? '/';
    let marker = opts.marker;
    for (;;) {
      throwIfAborted(opts.signal, 'The listing');
      const out = await this.call(() =>
        this.client.send(
          new ListObjectsCommand({
            Bucket: container,
            ...(opts.prefix ? { Prefix: opts.prefix } : {}),
            ...(delimiter ? { Delimiter: delimiter } : {}),
            ...(marker ? { Marker: marker } : {}),
            MaxKeys: opts.pageSize ?? 1000,
          }),
          opts.signal ? { abortSignal: opts.signal } : {},
        ),
      );
      const entries = folderEntries(out);
      const last = entries.at(-1);
      const nextMarker = out.IsTruncated ? (out.NextMarker ?? (last ? entryName(last) : null)) : null;
      yield { entries, nextMarker };
      if (!nextMarker) return;
      marker = nextMarker;
    }
  }

  async head(container: string, name: string, opts: { versionId?: string } = {}): Promise<ObjectDetails> {
    const version = opts.versionId !== undefined ? { VersionId: opts.versionId } : {};
    const [head, acl] = await Promise.all([
      this.call(() => this.client.send(new HeadObjectCommand({ Bucket: container, Key: name, ChecksumMode: 'ENABLED', ...version }))).catch((err: unknown) =>
        this.explainNotFound(container, err),
      ),
      // Whether anyone may read it; unknown (null) when the ACL cannot be read.
      this.client.send(new GetObjectAclCommand({ Bucket: container, Key: name, ...version })).then(
        (r) => grantsPublicRead(r.Grants),
        () => null,
      ),
    ]);
    return detailsOf(container, name, head, acl);
  }

  /** A HEAD 404 does not say whether the bucket or the key is missing: ask the bucket. */
  private async explainNotFound(container: string, err: unknown): Promise<never> {
    if (isCofferError(err, 'NoSuchKey')) await this.buckets.requireBucket(container);
    throw err;
  }

  async download(container: string, name: string, opts: DownloadOptions = {}) {
    throwIfAborted(opts.signal, 'The download');
    if (opts.versionId === undefined) {
      // A whole object or a range of it, as the transfer queue and exports read them: the direct GET.
      const reply = await this.call(() => this.direct.getObject(container, name, opts.signal, opts.range));
      // A connection dropped mid-body is the network's failure (Unreachable): the queue tries again.
      return { details: detailsOf(container, name, getOutputOf(reply.headers), null), body: metered(reply.body, opts, 'The download', (err) => fromS3Error(err, 'The download')) };
    }
    const range = opts.range ? { Range: `bytes=${opts.range.start}-${opts.range.end ?? ''}` } : {};
    const out = await this.call(() =>
      this.client.send(
        new GetObjectCommand({ Bucket: container, Key: name, ...range, VersionId: opts.versionId }),
        opts.signal ? { abortSignal: opts.signal } : {},
      ),
    );
    const body = out.Body as Readable;
    return { details: detailsOf(container, name, out, null), body: metered(body, opts, 'The download') };
  }

  partLayout(container: string, name: string, head: ObjectDetails, opts: { signal?: AbortSignal } = {}): Promise<PartLayout | undefined> {
    return multipartLayout(this.client, container, name, head, opts.signal);
  }

  guessPartLayout(head: ObjectDetails): PartLayout | undefined {
    return guessedMultipartLayout(head);
  }

  async upload(container: string, name: string, source: UploadSource, opts: UploadOptions = {}): Promise<UploadResult> {
    const { composite, put } = await uploadStream(this.client, this.config, container, name, source, opts, this.direct);
    // The direct PUT's answer says what was stored (its ETag, which the caller compares with the
    // MD5 of what it read); no HEAD: for a folder of small files that would be a third request per file.
    if (put) return put;
    // A HEAD for what the server stored; not its ACL (a fresh object's is the bucket's default):
    // for 1,000 small files that request would be a third of the traffic.
    const head = await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: container, Key: name })));
    const details = detailsOf(container, name, head, null);
    // Multipart: every part's MD5 was checked by the server; the stored ETag proves their order.
    return composite !== undefined && details.etag === composite ? { ...details, checked: 'parts' } : details;
  }

  discardUpload(container: string, name: string, token: string): Promise<void> {
    return abortResumable(this.client, container, name, token);
  }

  listUnfinishedUploads(container: string) {
    return this.call(() => listUnfinished(this.client, container));
  }

  async abortUnfinishedUpload(container: string, name: string, uploadId: string): Promise<void> {
    await this.call(() => this.client.send(new AbortMultipartUploadCommand({ Bucket: container, Key: name, UploadId: uploadId })));
  }

  async copy(from: { container: string; name: string }, to: { container: string; name: string }): Promise<ObjectDetails> {
    await this.call(() =>
      this.client.send(new CopyObjectCommand({ Bucket: to.container, Key: to.name, CopySource: copySource(from.container, from.name), MetadataDirective: 'COPY' })),
    );
    return this.head(to.container, to.name);
  }

  /**
   * CopyObject onto itself with MetadataDirective REPLACE: the only way S3 changes metadata.
   * The bytes (and, for a single-part object, the ETag) stay; a public object stays public
   * (a copy would otherwise reset its ACL to private).
   */
  async setMetadata(container: string, name: string, set: MetadataSet): Promise<ObjectDetails> {
    const before = await this.head(container, name);
    await this.call(() =>
      this.client.send(
        new CopyObjectCommand({
          Bucket: container,
          Key: name,
          CopySource: copySource(container, name),
          MetadataDirective: 'REPLACE',
          ContentType: set.contentType,
          Metadata: set.meta,
          ...headerParams(set.headers),
          ...(before.publicRead ? { ACL: 'public-read' as const } : {}),
          ...(before.storageClass && before.storageClass !== 'STANDARD' ? { StorageClass: before.storageClass as never } : {}),
        }),
      ),
    );
    return this.head(container, name);
  }

  async delete(container: string, name: string, opts: { versionId?: string } = {}): Promise<void> {
    await this.call(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: container, Key: name, ...(opts.versionId !== undefined ? { VersionId: opts.versionId } : {}) })),
    );
  }

  deleteMany(container: string, names: string[]): Promise<DeleteManyResult> {
    return deleteObjects(this.client, (op) => this.call(op), container, names);
  }

  async createFolder(container: string, prefix: string): Promise<void> {
    const key = prefix.endsWith('/') ? prefix : `${prefix}/`;
    await this.call(() => this.client.send(new PutObjectCommand({ Bucket: container, Key: key, Body: new Uint8Array(0), ContentLength: 0, ContentType: FOLDER_CONTENT_TYPE })));
  }

  async setPublic(container: string, name: string | undefined, on: boolean): Promise<void> {
    if (name === undefined) return this.buckets.setBucketPublic(container, on);
    await this.call(() => this.client.send(new PutObjectAclCommand({ Bucket: container, Key: name, ACL: on ? 'public-read' : 'private' })));
  }

  /** Path style (`endpoint/bucket/`) or virtual host (`bucket.host/`), as the connection addresses buckets. */
  async publicUrl(container: string): Promise<string> {
    const url = new URL(this.config.endpoint);
    const path = url.pathname.replace(/\/+$/, '');
    if (this.config.forcePathStyle) return `${url.origin}${path}/${encodeURIComponent(container)}/`;
    return `${url.protocol}//${container}.${url.host}${path}/`;
  }

  async shareLink(container: string, name: string, expiresInSeconds: number): Promise<string> {
    checkLinkLifetime(expiresInSeconds);
    return this.call(() => getSignedUrl(this.client, new GetObjectCommand({ Bucket: container, Key: name }), { expiresIn: expiresInSeconds }));
  }

  listVersions(container: string, name: string): Promise<VersionEntry[]> {
    return listObjectVersions(this.client, (op) => this.call(op), container, name);
  }

  async restoreVersion(container: string, name: string, versionId: string): Promise<ObjectDetails> {
    await this.call(() => this.client.send(new CopyObjectCommand({ Bucket: container, Key: name, CopySource: copySource(container, name, versionId) })));
    return this.head(container, name);
  }

  versioning(container: string): Promise<VersioningStatus> {
    return bucketVersioning(this.client, (op) => this.call(op), container);
  }

  setVersioning(container: string, on: boolean): Promise<VersioningStatus> {
    return setBucketVersioning(this.client, (op) => this.call(op), container, on);
  }

  async undelete(container: string, name: string): Promise<ObjectDetails> {
    await undeleteObject(this.client, (op) => this.call(op), container, name);
    return this.head(container, name);
  }

  lifecycle(container: string): Promise<LifecycleView> {
    return this.settings.lifecycle(container);
  }

  setLifecycle(container: string, basis: string, rules: LifecycleRuleChange[]): Promise<LifecycleView> {
    return this.settings.setLifecycle(container, basis, rules);
  }

  tags(container: string): Promise<TagsView> {
    return this.settings.tags(container);
  }

  setTags(container: string, basis: string, tags: ContainerTag[]): Promise<TagsView> {
    return this.settings.setTags(container, basis, tags);
  }

  close(): void {
    this.client.destroy();
  }
}
