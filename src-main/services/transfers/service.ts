import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EventMap } from '../../src-shared/contract/events.js';
import type { TransferItem, TransfersService } from '../../src-shared/contract/transfers.js';
import type { ObjectBackend } from '../backends/object-backend.js';
import type { ConnectionRegistry } from './connections.js';

type Emit = (event: 'transfer.progress' | 'objects.changed', payload: EventMap['transfer.progress'] | EventMap['objects.changed']) => void;

interface Job {
  item: TransferItem;
  run: (backend: ObjectBackend, signal: AbortSignal, progress: (n: number) => void) => Promise<void>;
  controller?: AbortController;
  /** Called once each run ends, whatever its outcome. */
  onSettled?: (item: TransferItem) => void;
}

const PROGRESS_INTERVAL_MS = 250;

/** Every file under the given paths, with the object name it gets under `prefix` (folders keep their name). */
async function expand(paths: string[], prefix: string): Promise<{ path: string; name: string; size: number }[]> {
  const out: { path: string; name: string; size: number }[] = [];
  for (const p of paths) {
    const st = await stat(p);
    if (st.isFile()) out.push({ path: p, name: prefix + basename(p), size: st.size });
    else if (st.isDirectory()) {
      for (const entry of await readdir(p, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const full = join(entry.parentPath, entry.name);
        const rel = relative(p, full).split(sep).join('/');
        out.push({ path: full, name: `${prefix}${basename(p)}/${rel}`, size: (await stat(full)).size });
      }
    }
  }
  return out;
}

/**
 * The transfer queue: bounded concurrency, progress events throttled per item, cancel (aborts
 * the request; the engine and remote stores leave nothing partial), retry, clear finished.
 */
export class TransferQueue implements TransfersService {
  private readonly jobs = new Map<string, Job>();
  private running = 0;

  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly emit: Emit,
    private readonly concurrency = 3,
  ) {}

  private add(item: Omit<TransferItem, 'id' | 'transferred' | 'state' | 'error'>, run: Job['run']): string {
    const id = randomUUID();
    this.jobs.set(id, { item: { ...item, id, transferred: 0, state: 'queued', error: null }, run });
    this.pump();
    return id;
  }

  private pump(): void {
    for (const job of this.jobs.values()) {
      if (this.running >= this.concurrency) return;
      if (job.item.state === 'queued') void this.start(job);
    }
  }

  private async start(job: Job): Promise<void> {
    this.running++;
    const controller = new AbortController();
    job.controller = controller;
    const item = job.item;
    Object.assign(item, { state: 'running', error: null, transferred: 0 });
    let last = 0;
    const progress = (n: number) => {
      item.transferred = n;
      if (Date.now() - last >= PROGRESS_INTERVAL_MS) {
        last = Date.now();
        this.emit('transfer.progress', { ...item });
      }
    };
    try {
      await job.run(this.registry.backend(item.account), controller.signal, progress);
      Object.assign(item, { state: 'done', transferred: item.size ?? item.transferred });
      if (item.direction === 'upload') this.emit('objects.changed', { account: item.account, container: item.container, names: [item.name] });
    } catch (err) {
      Object.assign(item, controller.signal.aborted ? { state: 'cancelled' } : { state: 'failed', error: (err as Error).message });
    } finally {
      this.running--;
      this.emit('transfer.progress', { ...item });
      job.onSettled?.({ ...item });
      this.pump();
    }
  }

  async uploadFromPaths(a: Parameters<TransfersService['uploadFromPaths']>[0]) {
    const files = await expand(a.paths, a.prefix ?? '');
    const ids = files.map((f) =>
      this.add({ direction: 'upload', account: a.account, container: a.container, name: f.name, path: f.path, size: f.size }, async (b, signal, onProgress) => {
        await b.upload(a.container, f.name, { path: f.path }, { signal, onProgress });
      }),
    );
    return { ids };
  }

  /** The browser build's uploads: the dropped file's bytes arrive as an HTTP stream. */
  uploadStream(target: { account: string; container: string; name: string; size?: number }, body: Readable): Promise<TransferItem> {
    return new Promise((resolve, reject) => {
      let failure: unknown;
      const id = this.add({ direction: 'upload', ...target, path: null, size: target.size ?? null }, async (b, signal, onProgress) => {
        await b.upload(target.container, target.name, { stream: body, ...(target.size !== undefined ? { size: target.size } : {}) }, { signal, onProgress }).catch((err) => {
          failure = err;
          throw err;
        });
      });
      this.jobs.get(id)!.onSettled = (item) => (item.state === 'done' ? resolve(item) : reject(failure ?? new Error(item.error ?? item.state)));
    });
  }

  async downloadToPath(a: Parameters<TransfersService['downloadToPath']>[0]) {
    const id = this.add({ direction: 'download', account: a.account, container: a.container, name: a.name, path: a.path, size: null }, async (b, signal, onProgress) => {
      const { details, body } = await b.download(a.container, a.name, { signal, onProgress });
      this.jobs.get(id)!.item.size = details.size;
      const partial = `${a.path}.coffer-partial`;
      try {
        await pipeline(body, createWriteStream(partial), { signal });
        await rename(partial, a.path);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    });
    return { id };
  }

  async list() {
    return [...this.jobs.values()].map((j) => ({ ...j.item }));
  }

  async cancel(a: { id: string }) {
    const job = this.jobs.get(a.id);
    if (!job) return;
    if (job.item.state === 'queued') job.item.state = 'cancelled';
    job.controller?.abort();
  }

  async retry(a: { id: string }) {
    const job = this.jobs.get(a.id);
    if (job && (job.item.state === 'failed' || job.item.state === 'cancelled')) {
      job.item.state = 'queued';
      this.pump();
    }
  }

  async clearFinished() {
    for (const [id, job] of this.jobs) if (['done', 'failed', 'cancelled'].includes(job.item.state)) this.jobs.delete(id);
  }
}
