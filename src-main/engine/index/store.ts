import { open, type Database, type RootDatabase } from 'lmdb';
import { CofferError } from '../../../src-shared/errors.js';
import { listedRecordDecoder, objectRecordEncoder, type ListedRecord } from './object-codec.js';
import type { AccountRecord, ChecksumAlgorithm, ChecksumType, ContainerRecord, InlineRef, ObjectRecord, Usage } from '../types.js';
import { WriteBatcher, type WriteFn } from './write-batch.js';

/**
 * 4: an inline body may keep its last bytes in its record (InlineRef.tail), which a schema 3
 * binary would not read. 3: object records carry a fixed head a listing reads without decoding
 * the rest (see object-codec.ts). 2: records are written as plain msgpack maps (useRecords off).
 * Version 1 wrote msgpackr records with their structure inline in every value, so every read
 * compiled that structure again. Older values stay readable, so older stores are upgraded in
 * place; an older binary refuses a newer store (it could not read what the newer one wrote).
 */
export const SCHEMA_VERSION = 4;
const READABLE_SCHEMAS = new Set([1, 2, 3, 4]);
/**
 * Bytes of an LMDB overflow page taken by its header (lmdb-js's LMDB: 24, not the 16 of LMDB
 * 0.9). A store test checks that a 4 KiB object still takes exactly one page.
 */
const OVERFLOW_HEADER = 24;

/** A blob whose file may exist without an index entry pointing at it (see blobs/ and recovery). */
export interface Intent {
  /**
   * 'put': a blob being written; the commit that makes it visible removes the intent in the same
   * transaction, so a surviving 'put' intent always means an uncommitted blob.
   * 'gc': a blob released by a commit, not yet unlinked.
   */
  kind: 'put' | 'gc';
  created: number;
}

export interface UploadRecord {
  uploadId: string;
  initiated: number;
  contentType: string;
  headers: ObjectRecord['headers'];
  meta: Record<string, string>;
  publicRead?: boolean;
  grants?: ObjectRecord['grants'];
  checksumAlgorithm?: ChecksumAlgorithm;
  checksumType?: ChecksumType;
  tags?: ObjectRecord['tags'];
  /** The Object Lock the completed object gets (its container's default applies at completion otherwise). */
  retention?: ObjectRecord['retention'];
  legalHold?: ObjectRecord['legalHold'];
}

export interface PartRecord {
  partNumber: number;
  size: number;
  etag: string;
  mtime: number;
  blob: string;
  checksums?: ObjectRecord['checksums'];
}

export interface StoredUsage extends Usage {
  containers?: number;
}

/** The LMDB environment and its tables. Every table is opened here, once. */
export class IndexStore {
  readonly root: RootDatabase;
  readonly meta: Database<unknown, string>;
  readonly accounts: Database<AccountRecord, string>;
  /** `s3:<access key>` and `swift:<v1 user>` -> account id */
  readonly credentials: Database<string, string>;
  /** `<tenant>/<name>` -> container */
  readonly containers: Database<ContainerRecord, string>;
  /** `<account id>\0<container name>` (binary) -> container id, for per-account listings */
  readonly accountContainers: Database<number, Buffer>;
  /** cid + name -> the current, visible version */
  readonly objects: Database<ObjectRecord, Buffer>;
  /** The same table read as listings need it (read only). */
  readonly listedObjects: Database<ListedRecord, Buffer>;
  /** cid + name + 0x00 + inverted seq -> non-current versions and delete markers */
  readonly versions: Database<ObjectRecord, Buffer>;
  /** blob id -> bytes of objects small enough to live in the index */
  readonly inline: Database<Buffer, string>;
  /** `a<account>` / `c<cid>` -> usage counters */
  readonly usage: Database<StoredUsage, string>;
  readonly intents: Database<Intent, string>;
  readonly uploads: Database<UploadRecord, Buffer>;
  readonly parts: Database<PartRecord, Buffer>;
  /** delete-at seconds + object key -> nothing; the expiry queue */
  readonly expiry: Database<true, Buffer>;
  private closed = false;
  private readonly batcher: WriteBatcher;
  private inlineScratch = Buffer.allocUnsafeSlow(64 * 1024);
  private readonly pageSize: number;
  /** Last decoded value per table and key, with the stored bytes it came from (see `getShared`). */
  private readonly decoded = new Map<Database<unknown, string>, Map<string, { raw: Buffer; value: unknown }>>();

  constructor(path: string, options: { noSync?: boolean } = {}) {
    this.root = open({
      path,
      maxDbs: 16,
      separateFlushed: true,
      noSync: options.noSync ?? false,
      mapSize: 2 ** 34,
      // Plain maps decoded as objects (see SCHEMA_VERSION).
      useRecords: false,
      mapsAsObjects: true,
    } as Parameters<typeof open>[0]);
    const bin = { keyEncoding: 'binary' as const };
    this.meta = this.root.openDB({ name: 'meta' });
    this.accounts = this.root.openDB({ name: 'accounts' });
    this.credentials = this.root.openDB({ name: 'credentials' });
    this.containers = this.root.openDB({ name: 'containers' });
    this.accountContainers = this.root.openDB({ name: 'account-containers', ...bin });
    // lmdb-js takes a custom encoder (encode/decode) though its typings do not say so.
    const coded = (name: string, encoder: object) => ({ name, ...bin, encoder }) as { name: string; keyEncoding: 'binary' };
    this.objects = this.root.openDB(coded('objects', objectRecordEncoder));
    this.listedObjects = this.root.openDB(coded('objects', listedRecordDecoder));
    this.versions = this.root.openDB(coded('versions', objectRecordEncoder));
    this.inline = this.root.openDB({ name: 'inline', encoding: 'binary' });
    this.usage = this.root.openDB({ name: 'usage' });
    this.intents = this.root.openDB({ name: 'intents' });
    this.uploads = this.root.openDB({ name: 'uploads', ...bin });
    this.parts = this.root.openDB({ name: 'parts', ...bin });
    this.expiry = this.root.openDB({ name: 'expiry', ...bin });
    this.pageSize = (this.root.getStats() as { pageSize: number }).pageSize;
    this.checkSchema();
    this.batcher = new WriteBatcher(this.root);
  }

  private checkSchema(): void {
    const found = this.meta.get('schema');
    if (found === undefined || (found !== SCHEMA_VERSION && READABLE_SCHEMAS.has(found as number))) this.meta.putSync('schema', SCHEMA_VERSION);
    else if (found !== SCHEMA_VERSION) {
      throw new CofferError('InternalError', `Index schema ${String(found)} is not supported (expected ${SCHEMA_VERSION})`);
    }
  }

  /**
   * Runs `fn` atomically in the next batched write transaction and resolves once the commit is
   * durable. An error `fn` throws undoes its own writes only (other writes batched into the same
   * commit are unaffected) and rejects this call. `fn` may run twice when another write of its
   * batch fails (see WriteBatcher.run), so it must change nothing but the index.
   */
  async write<T>(fn: WriteFn<T>): Promise<T> {
    if (this.closed) throw new CofferError('Closed', 'The store is closed');
    return this.batcher.write(fn);
  }

  /** A usage record as the running write sees it (read once per batch; see BatchCache). */
  getUsage(key: string): StoredUsage | undefined {
    return this.readBatched(this.usage, key);
  }

  /** Sets (or with `undefined` removes) a usage record; inside a write, at the end of its batch. */
  setUsage(key: string, value: StoredUsage | undefined): void {
    this.writeBatched(this.usage, key, value);
  }

  /** Through the running batch's cache inside a write, straight from the table outside one. */
  private readBatched<V>(table: Database<V, string>, key: string): V | undefined {
    const batch = this.batcher.current;
    return batch ? batch.read(table, key) : table.get(key);
  }

  private writeBatched<V>(table: Database<V, string>, key: string, value: V | undefined): void {
    const batch = this.batcher.current;
    if (batch) batch.set(table, key, value);
    else if (value === undefined) table.removeSync(key);
    else table.putSync(key, value);
  }

  /**
   * A record of a small, hot table (accounts, containers) without decoding it again when its
   * stored bytes have not changed: every request looks its account and container up two or three
   * times. The bytes are read each time (in the current transaction's view), so a hit is always
   * what `get` would return. The value is shared between callers: records are never mutated
   * in place anywhere (updates build new objects), and must not be.
   */
  getShared<V>(table: Database<V, string>, key: string): V | undefined {
    // lmdb-js's reusable read buffer, valid until the next read: compared without copying it.
    const fast = table.getBinaryFast(key);
    if (fast === undefined) return undefined;
    const raw = fast.subarray(0, (table as unknown as { lastSize: number }).lastSize);
    let perTable = this.decoded.get(table as Database<unknown, string>);
    if (!perTable) this.decoded.set(table as Database<unknown, string>, (perTable = new Map()));
    const hit = perTable.get(key);
    if (hit && hit.raw.equals(raw)) return hit.value as V;
    const copy = Buffer.from(raw);
    const value = table.get(key);
    if (perTable.size >= 10_000) perTable.clear();
    perTable.set(key, { raw: copy, value });
    return value;
  }

  /**
   * Stores an inline object's bytes under `id` and returns where they are. A value too big for a
   * leaf gets pages of its own after a header (OVERFLOW_HEADER), so a body of a whole number of
   * pages (4 KiB, 8 KiB, ...: common sizes) would take one more page for its last few bytes:
   * those stay in the record instead. That halves what a 4 KiB object writes and syncs.
   * lmdb-js looks up the native address of each new buffer's memory, which costs more than
   * copying a small body, so the bytes go through one reused buffer (putSync copies them into
   * the database before it returns).
   */
  putInline(id: string, bytes: Uint8Array): InlineRef {
    const room = Math.ceil(bytes.length / this.pageSize) * this.pageSize - OVERFLOW_HEADER;
    const stored = Math.min(bytes.length, room);
    if (this.inlineScratch.length < stored) this.inlineScratch = Buffer.allocUnsafeSlow(Math.max(stored, 64 * 1024));
    this.inlineScratch.set(bytes.subarray(0, stored));
    this.inline.putSync(id, this.inlineScratch.subarray(0, stored));
    return stored < bytes.length ? { inline: id, tail: Buffer.from(bytes.subarray(stored)) } : { inline: id };
  }

  /** An inline object's bytes (undefined when the entry is gone). */
  getInline(ref: InlineRef): Buffer | undefined {
    if (!ref.tail) return this.inline.get(ref.inline);
    // lmdb-js's reusable read buffer: copied once, together with the tail.
    const head = this.inline.getBinaryFast(ref.inline);
    if (head === undefined) return undefined;
    const size = (this.inline as unknown as { lastSize: number }).lastSize;
    return Buffer.concat([head.subarray(0, size), ref.tail], size + ref.tail.length);
  }

  /** Next value of a named counter, inside a write transaction. */
  nextCounter(name: 'seq' | 'cid'): number {
    const next = ((this.readBatched(this.meta, name) as number | undefined) ?? 0) + 1;
    this.writeBatched(this.meta, name, next);
    return next;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.batcher.drain();
    await this.root.flushed;
    await this.root.close();
  }
}
