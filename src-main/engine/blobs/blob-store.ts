import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

const WRITE_BATCH = 1 << 20;
const ID_BYTES = 16;
const POOL_IDS = 256;
let idPool = Buffer.alloc(0);
let idsUsed = POOL_IDS;

/**
 * Object bytes as files. A blob is written under tmp/, fsynced, then renamed into blobs/xx/ and
 * the directory fsynced: a blob in blobs/ is complete. Paths come only from ids made here, never
 * from names a caller chose, so nothing outside the data directory can be reached.
 */
export class BlobStore {
  private readonly blobDir: string;
  private readonly tmpDir: string;

  constructor(dataDir: string) {
    this.blobDir = join(dataDir, 'blobs');
    this.tmpDir = join(dataDir, 'tmp');
    mkdirSync(this.tmpDir, { recursive: true });
    for (let i = 0; i < 256; i++) mkdirSync(join(this.blobDir, i.toString(16).padStart(2, '0')), { recursive: true });
  }

  /** 32 hex digits (128 random bits), cut from random bytes drawn in bulk (one call per id costs more than the id). */
  newId(): string {
    if (idsUsed >= POOL_IDS) {
      idPool = randomBytes(ID_BYTES * POOL_IDS);
      idsUsed = 0;
    }
    const start = ID_BYTES * idsUsed++;
    return idPool.toString('hex', start, start + ID_BYTES);
  }

  path(id: string): string {
    if (!/^[0-9a-f]{32}$/.test(id)) throw new Error(`Invalid blob id ${id}`);
    return join(this.blobDir, id.slice(0, 2), id);
  }

  private tmpPath(id: string): string {
    return join(this.tmpDir, id);
  }

  /** Creates tmp/<id>; write chunks to it, then `finish` (fsync) or `discard`. */
  async create(id: string): Promise<TmpBlob> {
    const fh = await open(this.tmpPath(id), 'wx');
    return new TmpBlob(fh, this.tmpPath(id));
  }

  /** Moves a finished tmp blob into place, durably. */
  async place(id: string): Promise<void> {
    const dir = join(this.blobDir, id.slice(0, 2));
    await rename(this.tmpPath(id), join(dir, id));
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }

  async remove(id: string): Promise<void> {
    await unlink(this.path(id)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  async openRead(id: string): Promise<FileHandle> {
    return open(this.path(id), 'r');
  }

  /** Everything in tmp/ is an unfinished write from before a crash: clear it. */
  clearTmp(): number {
    const names = readdirSync(this.tmpDir);
    for (const n of names) rmSync(join(this.tmpDir, n), { force: true });
    return names.length;
  }
}

/**
 * TEST ONLY: COFFER_TEST_DISK_BYTES=<n> makes blob writes fail with ENOSPC once n bytes were
 * written by this process, so the reliability tests can fill a "disk" without mounting one.
 */
let diskBudget = process.env.COFFER_TEST_DISK_BYTES ? Number(process.env.COFFER_TEST_DISK_BYTES) : Infinity;

function simulateDiskFull(bytes: number): void {
  if (diskBudget === Infinity) return;
  diskBudget -= bytes;
  if (diskBudget < 0) throw Object.assign(new Error('ENOSPC: no space left on device (simulated)'), { code: 'ENOSPC' });
}

export class TmpBlob {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** The write in flight: the next batch is hashed while this one goes to disk. */
  private inflight: Promise<void> = Promise.resolve();
  private done = false;

  constructor(
    private readonly fh: FileHandle,
    private readonly filePath: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < WRITE_BATCH) return;
    await this.inflight;
    this.inflight = this.writeBatch(this.takePending());
  }

  private takePending(): Uint8Array[] {
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return chunks;
  }

  private async writeBatch(chunks: Uint8Array[]): Promise<void> {
    if (chunks.length === 0) return;
    const total = chunks.reduce((n, c) => n + c.length, 0);
    simulateDiskFull(total);
    const { bytesWritten } = await this.fh.writev(chunks);
    if (bytesWritten !== total) throw new Error(`Short write: ${bytesWritten} of ${total} bytes`);
  }

  /** Writes what is buffered, fsyncs and closes. */
  async finish(): Promise<void> {
    await this.inflight;
    await this.writeBatch(this.takePending());
    await this.fh.sync();
    await this.fh.close();
    this.done = true;
  }

  async discard(): Promise<void> {
    await this.inflight.catch(() => undefined);
    if (!this.done) await this.fh.close().catch(() => undefined);
    this.done = true;
    await unlink(this.filePath).catch(() => undefined);
  }
}
