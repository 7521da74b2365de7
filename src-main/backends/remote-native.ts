import type { Readable } from 'node:stream';
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
import type { DownloadOptions, ListFolderOptions, ObjectBackend, PartLayout, UploadResult, UploadSource } from './object-backend.js';
import { SessionCache, type AuthSettings, type EndpointInterface, type SwiftAuth, type SwiftSession } from './swift/auth.js';
import { accountSummary, setContainerPublic } from './swift/account.js';
import { SwiftClient } from './swift/client.js';
import { deleteMany, deleteObject, deleteSegments } from './swift/delete.js';
import { discardSloSegments } from './swift/slo-upload.js';
import { downloadObject } from './swift/download.js';
import { detailsFromHeaders, encodeObjectPath, encodeSegment, objectWriteHeaders, staleStandardHeaders } from './swift/headers.js';
import { header, Http } from './swift/http.js';
import { capabilitiesOf, fetchInfo, SWIFT_NO_CONTAINER_TAGS, SWIFT_NO_LIFECYCLE, type SwiftInfo } from './swift/info.js';
import { listContainers, listFolder } from './swift/listing.js';
import { largeObjectLayout } from './swift/parts.js';
import { accountTempUrlKey, signTempUrl, tempUrlDigest } from './swift/tempurl.js';
import { uploadObject, type SwiftUploadOptions, type UploadTuning } from './swift/upload.js';
import { unlessAborted } from './transfer.js';
import {
  containerOptionHeaders,
  containerVersioning,
  listContainerVersions,
  objectVersions,
  restoreSwiftVersion,
  setContainerVersioning,
  undeleteSwift,
} from './swift/versions.js';

export type { SwiftAuth, SwiftSession } from './swift/auth.js';
export type { SwiftUploadOptions } from './swift/upload.js';

export interface RemoteNativeOptions {
  /** v1: the auth URL; Keystone: the identity URL (with or without `/v3`). Not needed for a token. */
  authUrl?: string;
  auth: SwiftAuth;
  region?: string;
  interface?: EndpointInterface;
  /** A session kept from earlier (token, storage URL, expiry): used until the server rejects it. */
  session?: SwiftSession;
  /** Uploads above this many bytes go as SLO segments. Default 64 MiB. */
  segmentThreshold?: number;
  /** Segment size (raised when the object would need more segments than the server allows). Default 32 MiB. */
  segmentSize?: number;
  /** Segments of one file uploaded at once. Default 4. */
  concurrency?: number;
  /** Idle time before a request counts as unreachable. Default 30 s. */
  timeoutMs?: number;
  /** Attempts for idempotent requests, first included. Default 4. */
  attempts?: number;
  backoffMs?: number;
  progressIntervalMs?: number;
  /** Verify TLS certificates (default true). */
  rejectUnauthorized?: boolean;
}

const MiB = 1024 * 1024;

/** A remote Swift account (Swift, RGW, Coffer's own native API) as an ObjectBackend. */
export class RemoteNativeBackend implements ObjectBackend {
  readonly kind = 'swift' as const;
  /** RGW clamps a container listing to 1,000 (a larger page would take several requests). */
  readonly listPageLimit = 1000;
  private readonly http: Http;
  private readonly client: SwiftClient;
  private readonly tuning: UploadTuning;
  private info: SwiftInfo | undefined;
  private infoLoad: Promise<SwiftInfo | undefined> | undefined;
  private readonly timeoutMs: number;

  constructor(opts: RemoteNativeOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.http = new Http({ rejectUnauthorized: opts.rejectUnauthorized ?? true });
    const settings: AuthSettings = {
      auth: opts.auth,
      timeoutMs: this.timeoutMs,
      ...(opts.authUrl !== undefined ? { authUrl: opts.authUrl } : {}),
      ...(opts.region !== undefined ? { region: opts.region } : {}),
      ...(opts.interface !== undefined ? { interface: opts.interface } : {}),
    };
    const sessions = new SessionCache(this.http, settings, opts.session);
    this.client = new SwiftClient(this.http, sessions, { timeoutMs: this.timeoutMs, attempts: opts.attempts ?? 4, backoffMs: opts.backoffMs ?? 250 });
    this.tuning = {
      segmentThreshold: opts.segmentThreshold ?? 64 * MiB,
      segmentSize: opts.segmentSize ?? 32 * MiB,
      concurrency: Math.max(1, opts.concurrency ?? 4),
      progressIntervalMs: opts.progressIntervalMs ?? 250,
    };
  }

  /** What the backend can do; exact once /info has been read (by `connect()` or any operation). */
  capabilities(): Capabilities {
    return capabilitiesOf(this.info);
  }

  /** Signs in, proves the token on the account and reads /info: checks the settings and makes `capabilities()` exact. */
  async connect(): Promise<Capabilities> {
    await this.client.call({ method: 'HEAD', what: 'Account' });
    await this.loadInfo();
    return this.capabilities();
  }

  /** The current session, for the app to keep between runs. */
  session(): SwiftSession | undefined {
    return this.client.sessions.peek();
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.http.close();
  }

  private loadInfo(): Promise<SwiftInfo | undefined> {
    // A failed sign-in here is reported by the operation itself; /info is tried again next time.
    this.infoLoad ??= this.client
      .storageUrl()
      .then(async (url) => (this.info = await fetchInfo(this.http, url, this.timeoutMs)))
      .catch(() => {
        this.infoLoad = undefined;
        return undefined;
      });
    return this.infoLoad;
  }

  async accountInfo(): Promise<AccountSummary> {
    void this.loadInfo();
    return accountSummary(this.client);
  }

  /** The account's HEAD: signs in if needed, and a token the cluster refuses fails it. */
  async checkAccess(): Promise<void> {
    await this.client.call({ method: 'HEAD', what: 'Account' });
  }

  listContainers(): Promise<ContainerSummary[]> {
    return listContainers(this.client);
  }

  async createContainer(name: string, options: ContainerOptions = {}): Promise<void> {
    const headers = containerOptionHeaders(options);
    if (Object.keys(headers).length > 0 || options.objectLock) {
      // Refused before anything is made; and the PUT that would set them on a container already
      // there must not change it.
      const caps = (await this.loadInfo(), this.capabilities());
      if (options.objectLock) throw new CofferError('NotSupported', caps.why.objectLock ?? 'No object lock here');
      if (options.versioning && !caps.versions) throw new CofferError('NotSupported', caps.why.versions ?? 'No versions here');
      if (headers['X-Container-Meta-Quota-Bytes'] ?? headers['X-Container-Meta-Quota-Count']) {
        if (!caps.containerQuota) throw new CofferError('NotSupported', caps.why.containerQuota ?? 'No container quotas here');
      }
      const there = await this.client.request({ method: 'HEAD', container: name, ok: (st) => st < 300 || st === 404 });
      if (there.status !== 404) throw new CofferError('ContainerOwnedByYou', `Container ${name} already exists; its settings stay as they are`);
    }
    const { 'X-Versions-Enabled': versioning, ...rest } = headers;
    // 202 = it already exists and is ours: creating is idempotent on Swift.
    await this.client.call({ method: 'PUT', container: name, headers: rest, idempotent: true, what: `Creating ${name}` });
    // Apart: Swift 2.30 answers 500 to a PUT that enables versioning in an account not made yet.
    if (versioning) await setContainerVersioning(this.client, name, true);
  }

  async deleteContainer(name: string): Promise<void> {
    await this.client.call({ method: 'DELETE', container: name, what: `Deleting ${name}` });
  }

  async *listFolder(container: string, opts: ListFolderOptions = {}): AsyncIterable<FolderPage> {
    if (!opts.versions) return yield* listFolder(this.client, container, opts);
    await this.requireVersions();
    yield* listContainerVersions(this.client, container, opts);
  }

  /** Versions need Swift's object_versioning; elsewhere a version-id would be ignored, not refused. */
  private async requireVersions(): Promise<void> {
    await this.loadInfo();
    const caps = this.capabilities();
    if (!caps.versions) throw new CofferError('NotSupported', caps.why.versions ?? 'No object versions here');
  }

  async head(container: string, name: string, opts?: { versionId?: string }): Promise<ObjectDetails> {
    if (opts?.versionId) await this.requireVersions();
    const { headers } = await this.client.call({ method: 'HEAD', container, object: name, ...(opts?.versionId ? { query: { 'version-id': opts.versionId } } : {}) });
    return detailsFromHeaders(container, name, headers);
  }

  async download(container: string, name: string, opts: DownloadOptions = {}): Promise<{ details: ObjectDetails; body: Readable }> {
    if (opts.versionId) await this.requireVersions();
    return downloadObject(this.client, container, name, opts, this.tuning.progressIntervalMs);
  }

  partLayout(container: string, name: string, head: ObjectDetails, opts: { signal?: AbortSignal } = {}): Promise<PartLayout | undefined> {
    return largeObjectLayout(this.client, container, name, head, opts.signal);
  }

  async upload(container: string, name: string, source: UploadSource, opts: SwiftUploadOptions = {}): Promise<UploadResult> {
    // A server that does not answer /info must not hold a cancelled upload for its timeout.
    const info = await unlessAborted(this.loadInfo(), opts.signal);
    return uploadObject(this.client, info, this.tuning, container, name, source, opts, () => this.head(container, name));
  }

  async discardUpload(container: string, name: string, token: string): Promise<void> {
    const info = await this.loadInfo();
    await discardSloSegments(this.client, container, name, token, (paths) => deleteSegments(this.client, paths, info));
  }

  async copy(from: { container: string; name: string }, to: { container: string; name: string }): Promise<ObjectDetails> {
    const source = `/${encodeSegment(from.container)}/${encodeObjectPath(from.name)}`;
    try {
      await this.client.call({ method: 'PUT', container: to.container, object: to.name, headers: { 'X-Copy-From': source, 'Content-Length': 0 }, idempotent: true, what: `Copy of ${from.container}/${from.name}` });
    } catch (err) {
      // A 404 may mean the source or the destination container: the source's HEAD says which.
      if (err instanceof CofferError && (err.code === 'NoSuchKey' || err.code === 'NoSuchContainer')) {
        await this.head(from.container, from.name);
        throw new CofferError('NoSuchContainer', `Copy of ${from.container}/${from.name}: no container ${to.container}`);
      }
      throw err;
    }
    return this.head(to.container, to.name);
  }

  /**
   * POST replaces all user metadata (§6.4); content type and standard headers are sent again
   * from `set`, and an expiry (X-Delete-At) is carried over so editing metadata does not change it.
   * Ceph RGW keeps the standard headers a POST leaves out: those still there are sent again empty.
   */
  async setMetadata(container: string, name: string, set: MetadataSet): Promise<ObjectDetails> {
    const before = await this.client.call({ method: 'HEAD', container, object: name });
    const deleteAt = header(before.headers, 'x-delete-at');
    const post = (blank: Record<string, string>) =>
      this.client.call({
        method: 'POST',
        container,
        object: name,
        headers: { ...blank, ...objectWriteHeaders(set.contentType, set.meta, set.headers), ...(deleteAt ? { 'X-Delete-At': deleteAt } : {}) },
        idempotent: true,
        what: `Metadata of ${container}/${name}`,
      });
    await post({});
    const after = await this.head(container, name);
    const kept = staleStandardHeaders(after.headers, set.headers);
    if (Object.keys(kept).length === 0) return after;
    await post(kept);
    return this.head(container, name);
  }

  async delete(container: string, name: string, opts?: { versionId?: string }): Promise<void> {
    if (!opts?.versionId) return deleteObject(this.client, container, name);
    await this.requireVersions();
    await this.client.call({ method: 'DELETE', container, object: name, query: { 'version-id': opts.versionId }, ok: (st) => (st >= 200 && st < 300) || st === 404, what: `Deleting a version of ${container}/${name}` });
  }

  async deleteMany(container: string, names: string[]): Promise<DeleteManyResult> {
    return deleteMany(this.client, await this.loadInfo(), container, names);
  }

  async createFolder(container: string, prefix: string): Promise<void> {
    const name = prefix.endsWith('/') ? prefix : `${prefix}/`;
    await this.client.call({
      method: 'PUT',
      container,
      object: name,
      headers: { 'Content-Type': 'application/directory', 'Content-Length': 0 },
      body: '',
      idempotent: true,
      what: `Creating folder ${name}`,
    });
  }

  async setPublic(container: string, name: string | undefined, on: boolean): Promise<void> {
    if (name !== undefined) throw new CofferError('NotSupported', 'Swift makes whole containers public, not single objects');
    await setContainerPublic(this.client, container, on);
  }

  async publicUrl(container: string): Promise<string> {
    return `${(await this.client.storageUrl()).replace(/\/+$/, '')}/${encodeURIComponent(container)}/`;
  }

  async shareLink(container: string, name: string, expiresInSeconds: number): Promise<string> {
    if (!Number.isFinite(expiresInSeconds) || expiresInSeconds < 1) throw new CofferError('InvalidArgument', 'A share link must be valid for at least a second');
    await this.head(container, name);
    const key = await accountTempUrlKey(this.client);
    const expires = Math.floor(Date.now() / 1000) + Math.round(expiresInSeconds);
    const info = await this.loadInfo();
    return signTempUrl(await this.client.storageUrl(), container, name, key, expires, tempUrlDigest(info?.tempurl, info !== undefined));
  }

  async listVersions(container: string, name: string): Promise<VersionEntry[]> {
    await this.requireVersions();
    return objectVersions(this.client, container, name);
  }

  async restoreVersion(container: string, name: string, versionId: string): Promise<ObjectDetails> {
    await this.requireVersions();
    await restoreSwiftVersion(this.client, container, name, versionId);
    return this.head(container, name);
  }

  async versioning(container: string): Promise<VersioningStatus> {
    await this.requireVersions();
    return containerVersioning(this.client, container);
  }

  async setVersioning(container: string, on: boolean): Promise<VersioningStatus> {
    await this.requireVersions();
    return setContainerVersioning(this.client, container, on);
  }

  async undelete(container: string, name: string): Promise<ObjectDetails> {
    await this.requireVersions();
    await undeleteSwift(this.client, container, name);
    return this.head(container, name);
  }

  // S3 bucket settings with no Swift counterpart: capabilities() say so, and why.
  async lifecycle(): Promise<never> {
    throw new CofferError('NotSupported', SWIFT_NO_LIFECYCLE);
  }

  async setLifecycle(): Promise<never> {
    throw new CofferError('NotSupported', SWIFT_NO_LIFECYCLE);
  }

  async tags(): Promise<never> {
    throw new CofferError('NotSupported', SWIFT_NO_CONTAINER_TAGS);
  }

  async setTags(): Promise<never> {
    throw new CofferError('NotSupported', SWIFT_NO_CONTAINER_TAGS);
  }
}
