import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { CofferError } from '../../src-shared/errors.js';
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
import { type ContainerRef, Engine, multipartEtag, type ObjectInfo } from '../engine/index.js';
import { localLifecycle, localTags, setLocalLifecycle, setLocalTags } from './local-container-settings.js';
import {
  accountSummary,
  containerSummary,
  folderEntry,
  objectDetails,
  publicReadAcl,
} from './local-mapping.js';
import { DEFAULT_PAGE_SIZE, deleteLocalObjects, listLocalVersions } from './local-objects.js';
import { checkLinkLifetime, ShareLinkSigner } from './local-share-links.js';
import { listLocalFolderVersions, localContainerSettings, localVersioning, setLocalVersioning, undeleteLocal } from './local-versions.js';
import { abortLocalUpload, listLocalUploads, LOCAL_PART_SIZE, putLocal, uploadFileResumable } from './local-uploads.js';
import { FOLDER_CONTENT_TYPE, partsOfSizes, type DownloadOptions, type ListFolderOptions, type ObjectBackend, type PartLayout, type UnfinishedUploadEntry, type UploadOptions, type UploadResult, type UploadSource } from './object-backend.js';
import { abortedError, metered, throwIfAborted } from './transfer.js';

export interface LocalBackendOptions {
  /**
   * The URL the embedded server answers on. Share links are presigned S3 URLs against it; without
   * it the store has no address a link could point to, and shareLink is NotSupported.
   */
  endpoint?: string;
  /** Region the server's compatible API reports (it accepts any in signatures). */
  region?: string;
  /** Part size of resumable file uploads (default 64 MiB). */
  uploadPartSize?: number;
}

/**
 * The embedded store of one account, straight through the engine (no HTTP in between).
 * Container public read sets both the S3 flag and the native `.r:*,.rlistings` read ACL, so
 * anonymous reads and listings work the same through both APIs.
 */
export class LocalBackend implements ObjectBackend {
  readonly kind = 'local' as const;
  /** 10,000 entries list, map and serialize in 10-20 ms (1,000-entry pages cost about as much per entry). */
  readonly listPageLimit = 10_000;
  private readonly links: ShareLinkSigner | undefined;
  private readonly partSize: number;
  private readonly endpoint: string | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly accountId: string,
    options: LocalBackendOptions = {},
  ) {
    this.partSize = options.uploadPartSize ?? LOCAL_PART_SIZE;
    this.endpoint = options.endpoint;
    this.links = options.endpoint === undefined ? undefined : new ShareLinkSigner(engine, accountId, options.endpoint, options.region);
  }

  capabilities(): Capabilities {
    return {
      versions: true,
      publicRead: true,
      publicObjects: true,
      shareLinks: this.links !== undefined,
      quota: true,
      serverSideCopy: true,
      bulkDelete: true,
      multipartUpload: true,
      containerQuota: true,
      // S3 Object Lock, as the store's S3 API keeps it (issue 26).
      objectLock: true,
      lifecycle: true,
      containerTags: true,
      why: {},
    };
  }

  private ref(container: string): ContainerRef {
    return Engine.ref(this.accountId, container);
  }

  private details(o: ObjectInfo): ObjectDetails {
    const c = this.engine.getContainer(this.ref(o.container));
    return objectDetails(o, c);
  }

  async accountInfo(): Promise<AccountSummary> {
    return accountSummary(this.engine.getAccount(this.accountId));
  }

  /** No network and no credentials in between: the account only has to exist. */
  async checkAccess(): Promise<void> {
    this.engine.getAccount(this.accountId);
  }

  async listContainers(): Promise<ContainerSummary[]> {
    return this.engine.listContainers(this.accountId).map(containerSummary);
  }

  async createContainer(name: string, options: ContainerOptions = {}): Promise<void> {
    await this.engine.createContainer(this.accountId, name, localContainerSettings(options));
  }

  async deleteContainer(name: string): Promise<void> {
    await this.engine.deleteContainer(this.ref(name));
  }

  async *listFolder(container: string, opts: ListFolderOptions = {}): AsyncIterable<FolderPage> {
    const ref = this.ref(container);
    if (opts.versions) return yield* listLocalFolderVersions(this.engine, ref, opts);
    const delimiter = opts.delimiter ?? '/';
    let marker = opts.marker;
    for (;;) {
      throwIfAborted(opts.signal, 'The listing');
      const page = this.engine.listObjects(ref, {
        ...(opts.prefix ? { prefix: opts.prefix } : {}),
        ...(delimiter ? { delimiter } : {}),
        ...(marker !== undefined ? { marker } : {}),
        limit: opts.pageSize ?? DEFAULT_PAGE_SIZE,
      });
      const nextMarker = page.truncated ? (page.nextMarker ?? null) : null;
      yield { entries: page.entries.map(folderEntry), nextMarker };
      if (nextMarker === null) return;
      marker = nextMarker;
    }
  }

  async head(container: string, name: string, opts: { versionId?: string } = {}): Promise<ObjectDetails> {
    return this.details(this.engine.headObject(this.ref(container), name, opts.versionId));
  }

  /** A multipart object's parts as the store keeps them (a native SLO's segments are other objects: not checked here). */
  async partLayout(container: string, name: string, head: ObjectDetails): Promise<PartLayout | undefined> {
    const info = this.engine.headObject(this.ref(container), name);
    if (!info.partSizes || info.etag !== head.etag || !/-\d+$/.test(info.etag)) return undefined;
    return { parts: partsOfSizes(info.partSizes), etagOf: (md5s) => multipartEtag([...md5s]) };
  }

  async download(container: string, name: string, opts: DownloadOptions = {}) {
    throwIfAborted(opts.signal, 'The download');
    const read = await this.engine.getObject(this.ref(container), name, {
      ...(opts.versionId !== undefined ? { versionId: opts.versionId } : {}),
      ...(opts.range ? { range: opts.range } : {}),
    });
    const details = this.details(read.info);
    return { details, body: metered(read.body, opts, 'The download') };
  }

  async upload(container: string, name: string, source: UploadSource, opts: UploadOptions = {}): Promise<UploadResult> {
    throwIfAborted(opts.signal, 'The upload');
    if ('path' in source && opts.resume) {
      const { size } = await stat(source.path);
      if (size > this.partSize) {
        try {
          const info = await uploadFileResumable(this.engine, this.ref(container), name, { path: source.path, size }, { ...opts, resume: opts.resume }, this.partSize);
          return { ...this.details(info), checked: 'parts' };
        } catch (err) {
          if (opts.signal?.aborted) throw abortedError('The upload');
          throw err;
        }
      }
    }
    return this.details(await putLocal(this.engine, this.ref(container), name, source, opts));
  }

  discardUpload(container: string, name: string, token: string): Promise<void> {
    return abortLocalUpload(this.engine, this.ref(container), name, token);
  }

  async listUnfinishedUploads(container: string): Promise<UnfinishedUploadEntry[]> {
    return listLocalUploads(this.engine, this.ref(container));
  }

  async abortUnfinishedUpload(container: string, name: string, uploadId: string): Promise<void> {
    await this.engine.abortUpload(this.ref(container), name, uploadId);
  }

  async exportToFile(container: string, name: string, path: string): Promise<boolean> {
    if (await this.engine.linkObjectTo(this.ref(container), name, path)) return true;
    const { body } = await this.engine.getObject(this.ref(container), name);
    await pipeline(body, createWriteStream(path));
    return true;
  }

  async copy(from: { container: string; name: string }, to: { container: string; name: string }): Promise<ObjectDetails> {
    const { object } = await this.engine.copyObject(
      { ref: this.ref(from.container), name: from.name },
      { ref: this.ref(to.container), name: to.name },
      { metadata: 'copy' },
    );
    return this.details(object);
  }

  async setMetadata(container: string, name: string, set: MetadataSet): Promise<ObjectDetails> {
    const ref = this.ref(container);
    const current = this.engine.headObject(ref, name);
    const info = await this.engine.updateObjectMeta(ref, name, {
      contentType: set.contentType,
      meta: set.meta,
      // The native-only X-Robots-Tag has no place in the model; an edit there must not drop it.
      headers: { ...set.headers, ...(current.headers.robotsTag !== undefined ? { robotsTag: current.headers.robotsTag } : {}) },
      keepExpiry: true,
    });
    return this.details(info);
  }

  async delete(container: string, name: string, opts: { versionId?: string } = {}): Promise<void> {
    // Deleting what is already gone succeeds, as it does on S3 (the interface's contract).
    await this.engine.deleteObject(this.ref(container), name, { versionId: opts.versionId, missingOk: true });
  }

  async deleteMany(container: string, names: string[]): Promise<DeleteManyResult> {
    return deleteLocalObjects(this.engine, this.ref(container), names);
  }

  async createFolder(container: string, prefix: string): Promise<void> {
    const name = prefix.endsWith('/') ? prefix : `${prefix}/`;
    await this.engine.putObject(this.ref(container), name, '', { contentType: FOLDER_CONTENT_TYPE });
  }

  async setPublic(container: string, name: string | undefined, on: boolean): Promise<void> {
    const ref = this.ref(container);
    if (name === undefined) {
      const current = this.engine.getContainer(ref);
      await this.engine.updateContainer(ref, { publicRead: on, acl: { read: publicReadAcl(current.acl.read, on) } });
      return;
    }
    await this.engine.setObjectAcl(ref, name, undefined, { publicRead: on });
  }

  /** The native API's URL: it names the account, which S3's path style cannot do for a tenant's container. */
  async publicUrl(container: string): Promise<string> {
    if (this.endpoint === undefined) throw new CofferError('NotSupported', 'Public URLs need the local server to be running');
    this.engine.getContainer(this.ref(container));
    return `${this.endpoint}/v1/AUTH_${this.accountId}/${encodeURIComponent(container)}/`;
  }

  async shareLink(container: string, name: string, expiresInSeconds: number): Promise<string> {
    if (!this.links) throw new CofferError('NotSupported', 'Share links need the local server to be running');
    checkLinkLifetime(expiresInSeconds);
    this.engine.headObject(this.ref(container), name);
    return this.links.link(container, name, expiresInSeconds);
  }

  async listVersions(container: string, name: string): Promise<VersionEntry[]> {
    return listLocalVersions(this.engine, this.ref(container), name);
  }

  async restoreVersion(container: string, name: string, versionId: string): Promise<ObjectDetails> {
    const ref = this.ref(container);
    const { object } = await this.engine.copyObject({ ref, name }, { ref, name }, { metadata: 'copy', sourceVersionId: versionId });
    return this.details(object);
  }

  async versioning(container: string): Promise<VersioningStatus> {
    return localVersioning(this.engine, this.ref(container));
  }

  setVersioning(container: string, on: boolean): Promise<VersioningStatus> {
    return setLocalVersioning(this.engine, this.ref(container), on);
  }

  async undelete(container: string, name: string): Promise<ObjectDetails> {
    return this.details(await undeleteLocal(this.engine, this.ref(container), name));
  }

  async lifecycle(container: string): Promise<LifecycleView> {
    return localLifecycle(this.engine, this.ref(container));
  }

  setLifecycle(container: string, basis: string, rules: LifecycleRuleChange[]): Promise<LifecycleView> {
    return setLocalLifecycle(this.engine, this.ref(container), basis, rules);
  }

  async tags(container: string): Promise<TagsView> {
    return localTags(this.engine, this.ref(container));
  }

  setTags(container: string, basis: string, tags: ContainerTag[]): Promise<TagsView> {
    return setLocalTags(this.engine, this.ref(container), basis, tags);
  }

  /** Stops signing (nothing else is held: the engine belongs to the caller). */
  close(): void {
    this.links?.close();
  }
}
