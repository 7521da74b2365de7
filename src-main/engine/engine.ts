import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BlobStore } from './blobs/blob-store.js';
import { DEFAULT_OPTIONS, EngineContext, type EngineOptions } from './context.js';
import { IndexStore } from './index/store.js';
import * as accounts from './ops/accounts.js';
import { listAccountEntries } from './ops/account-listing.js';
import * as containers from './ops/containers.js';
import { copyObject, updateObjectMeta, type CopyOptions } from './ops/copy-object.js';
import { deleteObject, type DeleteOptions } from './ops/delete-object.js';
import { expireDue } from './ops/expiry.js';
import { runLifecycle } from './ops/lifecycle-sweep.js';
import { listObjects, type ListParams } from './ops/list-objects.js';
import { listVersions, type VersionListParams } from './ops/list-versions.js';
import { listUploads } from './ops/list-uploads.js';
import * as multipart from './ops/multipart.js';
import { linkObjectTo } from './ops/export-object.js';
import type { WriteConditions } from './ops/commit.js';
import { archiveCurrent, archiveDelete } from './ops/legacy-versions.js';
import { putObject, type ObjectFields, type PutOptions } from './ops/put-object.js';
import { setObjectAcl, type AclChange } from './ops/object-acl.js';
import { getObject, headObject, type RangeRequest, type ReadOptions } from './ops/read-object.js';
import type { SegmentReadCheck } from './ops/large-object-read.js';
import { deleteMany, type DeleteCheck, type DeleteTarget } from './ops/bulk-delete.js';
import * as largeObjects from './ops/large-objects.js';
import type { Body, ReceiveOptions } from './ops/receive-body.js';
import { recover, type RecoveryReport } from './ops/recovery.js';
import { requireValidQuota } from './ops/usage.js';
import { getObjectTags, setObjectTags } from './ops/tagging.js';
import { getObjectLock, setLegalHold, setRetention } from './ops/object-lock.js';
import type { ObjectRetention } from './object-lock.js';
import type { AccountAcl, Checksums, ContainerRef, Quota, Tag } from './types.js';
import type { UploadChecksum } from './ops/multipart-checksums.js';

/**
 * The embedded store: accounts, containers, objects, versions, multipart uploads and quotas over
 * one data directory (index in LMDB, bytes in blob files). Protocol-neutral: the HTTP front ends,
 * the local backend and the CLI all call this facade; each operation lives in ops/.
 */
export class Engine {
  readonly events;
  private sweeper: NodeJS.Timeout | undefined;

  private constructor(
    private readonly ctx: EngineContext,
    readonly recovery: RecoveryReport,
    /** A random secret kept in the store, for signing tokens that must survive restarts. */
    readonly secret: Buffer,
  ) {
    this.events = ctx.events;
  }

  static async open(dataDir: string, options: Partial<EngineOptions> = {}): Promise<Engine> {
    const opts = { ...DEFAULT_OPTIONS, ...options };
    mkdirSync(dataDir, { recursive: true });
    const store = new IndexStore(join(dataDir, 'index'), { noSync: opts.noSync });
    const ctx = new EngineContext(store, new BlobStore(dataDir), opts);
    let secret = store.meta.get('secret') as Buffer | undefined;
    if (!secret) {
      const fresh = randomBytes(32);
      secret = await store.write(() => {
        const raced = store.meta.get('secret') as Buffer | undefined;
        if (raced) return raced;
        store.meta.putSync('secret', fresh);
        return fresh;
      });
    }
    const recovery = opts.recover ? await recover(ctx) : { tmpFilesRemoved: 0, uncommittedBlobsRemoved: 0, releasedBlobsRemoved: 0 };
    const engine = new Engine(ctx, recovery, Buffer.from(secret));
    if (opts.expirySweepMs > 0) {
      engine.sweeper = setInterval(() => void engine.sweep().catch(() => undefined), opts.expirySweepMs).unref();
    }
    return engine;
  }

  get options(): Readonly<EngineOptions> {
    return this.ctx.options;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.ctx.store.close();
  }

  /** The container `name` in the namespace of `account`'s tenant. */
  static ref(account: string, container: string): ContainerRef {
    const dollar = account.indexOf('$');
    return { tenant: dollar < 0 ? '' : account.slice(0, dollar), container };
  }

  // Accounts and credentials
  createAccount = (input: accounts.CreateAccountInput) => accounts.createAccount(this.ctx, input);
  getAccount = (id: string) => accounts.accountInfo(this.ctx, accounts.requireAccount(this.ctx, id));
  /** Whether the account exists (no usage read: every native request checks this). */
  hasAccount = (id: string) => accounts.findAccountRecord(this.ctx, id) !== undefined;
  findAccount = (id: string) => {
    const rec = accounts.findAccountRecord(this.ctx, id);
    return rec ? accounts.accountInfo(this.ctx, rec) : undefined;
  };
  listAccounts = () => accounts.listAccounts(this.ctx);
  deleteAccount = (id: string) => accounts.deleteAccount(this.ctx, id);
  addAccessKey = (id: string, key?: { accessKey?: string; secretKey?: string }) => accounts.addAccessKey(this.ctx, id, key);
  addSwiftKey = (id: string, sub: string, secretKey?: string) => accounts.addSwiftKey(this.ctx, id, sub, secretKey);
  removeKey = (id: string, accessKeyOrSwiftUser: string) => accounts.removeKey(this.ctx, id, accessKeyOrSwiftUser);
  findByAccessKey = (accessKey: string) => accounts.findByAccessKey(this.ctx, accessKey);
  findBySwiftUser = (user: string) => accounts.findBySwiftUser(this.ctx, user);
  setAccountQuota = async (id: string, quota: Partial<Quota>) => {
    requireValidQuota(quota);
    return accounts.updateAccount(this.ctx, id, (rec) => ({ ...rec, quota: { ...rec.quota, ...quota } }));
  };
  updateAccountMeta = (id: string, patch: containers.MetaPatch) =>
    accounts.updateAccount(this.ctx, id, (rec) => ({ ...rec, meta: containers.applyMetaPatch(rec.meta, patch) }));
  /** The account's ACL (none: undefined); read on every request another identity makes, so no usage is read. */
  accountAcl = (id: string): AccountAcl | undefined => accounts.findAccountRecord(this.ctx, id)?.acl;
  /** Sets the account's ACL as given (Swift shows it back as set), or clears it (undefined, or no key at all). */
  setAccountAcl = (id: string, acl: AccountAcl | undefined) =>
    accounts.updateAccount(this.ctx, id, (rec) => {
      const { acl: _old, ...rest } = rec;
      return acl && Object.keys(acl).length ? { ...rest, acl } : rest;
    });
  setDisplayName = (id: string, displayName: string) => accounts.updateAccount(this.ctx, id, (rec) => ({ ...rec, displayName }));

  // Containers
  createContainer = (account: string, name: string, settings?: containers.ContainerSettings) =>
    containers.createContainer(this.ctx, account, name, settings);
  getContainer = (ref: ContainerRef) => containers.containerInfo(this.ctx, containers.requireContainer(this.ctx, ref));
  /** `getContainer` for one HTTP request: usage is read only if the request asks for it. */
  getContainerForRequest = (ref: ContainerRef) => containers.containerInfoForRequest(this.ctx, containers.requireContainer(this.ctx, ref));
  updateContainer = (ref: ContainerRef, settings: containers.ContainerSettings) => containers.updateContainer(this.ctx, ref, settings);
  deleteContainer = (ref: ContainerRef) => containers.deleteContainer(this.ctx, ref);
  listContainers = (account: string, params?: containers.ContainerListParams) => containers.listContainers(this.ctx, account, params);
  /** The native account listing: containers, with a delimiter rolled up into prefix entries. */
  listAccountEntries = (account: string, params: containers.ContainerListParams & { delimiter?: string }) => listAccountEntries(this.ctx, account, params);
  tenantsWithContainer = (name: string) => containers.tenantsWithContainer(this.ctx, name);

  // Objects
  putObject = (ref: ContainerRef, name: string, body: Body, opts?: PutOptions) => putObject(this.ctx, ref, name, body, opts);
  /** Sets one version's ACL in place (its Last-Modified stays). */
  setObjectAcl = (ref: ContainerRef, name: string, versionId: string | undefined, change: AclChange) => setObjectAcl(this.ctx, ref, name, versionId, change);
  headObject = (ref: ContainerRef, name: string, versionId?: string | null, canRead?: SegmentReadCheck) => headObject(this.ctx, ref, name, versionId, canRead);
  getObject = (ref: ContainerRef, name: string, opts?: Omit<ReadOptions, 'raw'>) =>
    getObject(this.ctx, ref, name, opts);
  deleteObject = (ref: ContainerRef, name: string, opts?: DeleteOptions) => deleteObject(this.ctx, ref, name, opts);
  copyObject = (src: { ref: ContainerRef; name: string }, dst: { ref: ContainerRef; name: string }, opts: CopyOptions) =>
    copyObject(this.ctx, src, dst, opts);
  updateObjectMeta = (ref: ContainerRef, name: string, fields: Parameters<typeof updateObjectMeta>[3]) =>
    updateObjectMeta(this.ctx, ref, name, fields);
  listObjects = (ref: ContainerRef, params?: ListParams) => listObjects(this.ctx, ref, params);
  listVersions = (ref: ContainerRef, params?: VersionListParams) => listVersions(this.ctx, ref, params);
  expireDue = (nowMs?: number) => expireDue(this.ctx, nowMs);
  /** Applies the containers' lifecycle rules as of `nowMs` (the sweep does this by itself). */
  runLifecycle = (nowMs = Date.now()) => runLifecycle(this.ctx, nowMs);
  private lastLifecycle = 0;
  /**
   * The periodic sweep: due X-Delete-At objects every time; lifecycle rules, which count in
   * days, at most hourly (every sweep when a test shortens the day).
   */
  private async sweep(nowMs = Date.now()): Promise<void> {
    await this.expireDue(nowMs);
    if (nowMs - this.lastLifecycle < Math.min(this.ctx.options.lifecycleDayMs, 3_600_000)) return;
    this.lastLifecycle = nowMs;
    await this.runLifecycle(nowMs);
  }

  // Swift's legacy versioned writes (a container's archive): called before an overwrite or a delete.
  archiveCurrent = (ref: ContainerRef, name: string) => archiveCurrent(this.ctx, ref, name);
  /** True when the delete is done (stack mode put the previous version back). */
  archiveDelete = (ref: ContainerRef, name: string) => archiveDelete(this.ctx, ref, name);

  // S3 tagging: an object version's tags change in place; a container's are one of its settings.
  getObjectTags = (ref: ContainerRef, name: string, versionId?: string) => getObjectTags(this.ctx, ref, name, versionId);
  /** Replaces a version's tags (null: removes them); returns the version's id. */
  setObjectTags = (ref: ContainerRef, name: string, versionId: string | undefined, tags: Tag[] | null) => setObjectTags(this.ctx, ref, name, versionId, tags);

  // S3 Object Lock: a version's retention and legal hold change in place; a container's lock is one of its settings.
  getObjectLock = (ref: ContainerRef, name: string, versionId?: string) => getObjectLock(this.ctx, ref, name, versionId);
  /** Sets or (null) removes a version's retention; `bypass`: a governance bypass the caller may use. Returns the version's id. */
  setObjectRetention = (ref: ContainerRef, name: string, versionId: string | undefined, retention: ObjectRetention | null, bypass = false) =>
    setRetention(this.ctx, ref, name, versionId, retention, bypass);
  setObjectLegalHold = (ref: ContainerRef, name: string, versionId: string | undefined, on: boolean) => setLegalHold(this.ctx, ref, name, versionId, on);

  // Large objects (Swift SLO/DLO; getObject assembles them) and bulk deletes
  putStaticLargeObject = (ref: ContainerRef, name: string, segments: largeObjects.SloSegmentSpec[], opts?: largeObjects.SloPutOptions) =>
    largeObjects.putStaticLargeObject(this.ctx, ref, name, segments, opts);
  putDynamicLargeObject = (ref: ContainerRef, name: string, body: Body, target: { container: string; prefix: string }, opts?: PutOptions) =>
    largeObjects.putDynamicLargeObject(this.ctx, ref, name, body, target, opts);
  getStaticManifest = (ref: ContainerRef, name: string) => largeObjects.getStaticManifest(this.ctx, ref, name);
  /** A manifest's own stored bytes (a DLO manifest's body), not the assembled object. */
  getManifestBytes = (ref: ContainerRef, name: string, range?: RangeRequest) => getObject(this.ctx, ref, name, { raw: true, ...(range ? { range } : {}) });
  deleteStaticLargeObject = (ref: ContainerRef, name: string, canDelete?: DeleteCheck) =>
    largeObjects.deleteStaticLargeObject(this.ctx, ref, name, canDelete);
  deleteMany = (tenant: string, targets: DeleteTarget[], canDelete?: DeleteCheck) => deleteMany(this.ctx, tenant, targets, canDelete);

  // Multipart uploads
  createUpload = (ref: ContainerRef, name: string, fields?: ObjectFields, checksum?: UploadChecksum) => multipart.createUpload(this.ctx, ref, name, fields, checksum);
  uploadPart = (ref: ContainerRef, name: string, uploadId: string, partNumber: number, body: Body, opts?: ReceiveOptions) =>
    multipart.uploadPart(this.ctx, ref, name, uploadId, partNumber, body, opts);
  uploadLock = (ref: ContainerRef, name: string, uploadId: string) => multipart.uploadLock(this.ctx, ref, name, uploadId);
  listParts = (ref: ContainerRef, name: string, uploadId: string, p?: { partNumberMarker?: number; maxParts?: number }) =>
    multipart.listParts(this.ctx, ref, name, uploadId, p);
  completeUpload = (
    ref: ContainerRef,
    name: string,
    uploadId: string,
    parts: multipart.CompletedPart[],
    expected?: Checksums,
    conditions?: WriteConditions,
  ) => multipart.completeUpload(this.ctx, ref, name, uploadId, parts, expected, conditions);
  abortUpload = (ref: ContainerRef, name: string, uploadId: string) => multipart.abortUpload(this.ctx, ref, name, uploadId);
  listUploads = (ref: ContainerRef, p?: Parameters<typeof listUploads>[2]) => listUploads(this.ctx, ref, p);

  /** Hard-links an object's stored file to a local path when it is one blob (drag-out without a copy). */
  linkObjectTo = (ref: ContainerRef, name: string, dest: string) => linkObjectTo(this.ctx, ref, name, dest);
}
