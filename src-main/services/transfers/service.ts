import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { TransferItem, TransfersService } from '../../../src-shared/contract/transfers.js';
import { CofferError } from '../../../src-shared/errors.js';
import type { ConnectionRegistry } from '../connections.js';
import { objectsUnder } from '../objects-under.js';
import { leafOf, localPathUnder, resetStaging, stagingRootOf } from './local-paths.js';
import { TransferFile, type JobSpec } from './persisted.js';
import { FileThread } from './file-thread.js';
import { expandPaths, planBatch, resolveNames, type Batch } from './plan.js';
import { copyItem, type Job } from './job.js';
import { JobQueue } from './queue.js';
import { ProgressReports, type Emit } from './reports.js';
import { runDownload, runPathUpload, runStreamUpload } from './runners.js';
import { discardLeftovers, stageNow, STAGE_NOW_BYTES } from './staging.js';

type In<K extends keyof TransfersService> = Parameters<TransfersService[K]>[0];

/** How long closing waits at most for running transfers to stop. */
const STOP_GRACE_MS = 5000;
/** A plan not started within this time is forgotten. */
const BATCH_TTL_MS = 60 * 60 * 1000;

/**
 * The transfer service: plans and starts upload batches (conflicts asked once per batch),
 * downloads, drag-out staging, and the persistent queue the renderer shows.
 */
export class TransferService implements TransfersService {
  private readonly queue: JobQueue;
  private readonly file: TransferFile;
  private readonly batches = new Map<string, Batch>();
  private readonly stagingRoot: string;
  /** Drags staged through the queue, by selection, so the next drag of it finds the files. */
  private readonly staged = new Map<string, { ids: string[]; paths: string[] }>();
  private readonly reports: ProgressReports;
  /** Small files' reads and writes, off the main thread. */
  private readonly files = new FileThread();

  constructor(
    private readonly registry: ConnectionRegistry,
    emit: Emit,
    dataDir: string,
  ) {
    this.reports = new ProgressReports(emit);
    this.stagingRoot = stagingRootOf(dataDir);
    resetStaging(this.stagingRoot);
    this.queue = new JobQueue({
      backend: (account) => registry.backend(account),
      run: (job, ctx) =>
        job.spec.kind === 'path' ? runPathUpload(job as Job & { spec: { kind: 'path' } }, ctx, this.files)
        : job.spec.kind === 'stream' ? runStreamUpload(job, ctx)
        : runDownload(job as Job & { spec: { kind: 'download' } }, ctx, this.files),
      changed: (job, persist) => {
        this.reports.changed(job);
        if (persist) this.file.schedule();
      },
      discard: (job) => discardLeftovers(job, registry),
    });
    this.file = new TransferFile(join(dataDir, 'transfers.json'), () => this.queue.savedJobs(), (saved) => saved, () => this.queue.savedPending());
    const { jobs, pending } = this.file.load();
    for (const saved of jobs) this.queue.restore(saved);
    for (const saved of pending) this.queue.restorePending(saved);
  }

  private job(id: string): Job {
    const job = this.queue.find(id);
    if (!job) throw new CofferError('InvalidArgument', `No transfer ${id}`);
    return job;
  }

  /** `fn` on each of `ids`; without ids, `all` (the whole queue, pending files included). */
  private each(ids: string[] | undefined, fn: (job: Job) => void, all: () => void): void {
    if (!ids) return all();
    for (const job of ids.map((id) => this.job(id))) fn(job);
  }

  private addJob(batchId: string, account: string, container: string, spec: JobSpec, size: number | null): Job {
    const direction = spec.kind === 'download' ? 'download' : 'upload';
    return this.queue.add(spec, {
      batchId,
      direction,
      account,
      container,
      name: spec.name,
      path: spec.kind === 'stream' ? null : spec.path,
      size,
      resumable: spec.kind !== 'stream',
    });
  }

  async planUpload(a: In<'planUpload'>) {
    for (const [id, b] of this.batches) if (Date.now() - b.created > BATCH_TTL_MS) this.batches.delete(id);
    const files = [...(await expandPaths(a.paths ?? [])), ...(a.files ?? []).map((f) => ({ relativePath: f.relativePath, size: f.size }))];
    const batch = await planBatch(this.registry.backend(a.account), { batchId: randomUUID(), account: a.account, container: a.container, prefix: a.prefix ?? '', files });
    this.batches.set(batch.plan.batchId, batch);
    return batch.plan;
  }

  async startUpload(a: In<'startUpload'>) {
    const batch = this.batches.get(a.batchId);
    if (!batch) throw new CofferError('InvalidArgument', 'This upload was planned too long ago or already started: drop the files again');
    this.batches.delete(a.batchId);
    const files = await resolveNames(batch, a.conflict ?? 'replace');
    const { account, container } = batch;
    // Files by path wait as a folder's pending files (no job each until its turn); a browser's, as jobs waiting for their bytes.
    // A file's final name the plan found free (new, or a "keep both" name) needs no look before writing.
    const onDisk = files.filter((f): f is typeof f & { path: string } => f.path !== undefined).map((f) => ({ ...f, absent: !batch.conflicts.has(f.name) }));
    const pending = this.queue.addPending({ batchId: a.batchId, account, container, kind: 'path' }, onDisk);
    let next = 0;
    const items = files.map((f) => {
      const id = f.path !== undefined ? pending.idOf(next++) : this.addJob(a.batchId, account, container, { kind: 'stream', name: f.name }, f.size).item.id;
      return { id, relativePath: f.relativePath, name: f.name };
    });
    this.queue.pump();
    return { items };
  }

  /** The browser build's bytes for a planned item; resolves when that item settles. */
  async attachStream(id: string, body: Readable): Promise<TransferItem> {
    const job = this.job(id);
    if (job.spec.kind !== 'stream' || job.item.state !== 'queued' || job.stream) {
      throw new CofferError('InvalidArgument', 'This transfer is not waiting for a browser file');
    }
    job.stream = body;
    const settled = this.queue.settled(job);
    this.queue.pump();
    const item = await settled;
    if (item.state === 'paused') throw new CofferError('Aborted', 'The upload was paused; resume sends the file again');
    if (item.state === 'cancelled') throw new CofferError('Aborted', item.error ?? 'The upload was cancelled');
    // Failed: with the failure's own code (a container deleted since the plan is NoSuchContainer).
    if (item.state !== 'done') throw new CofferError(job.errorCode ?? 'InternalError', item.error ?? `The upload was ${item.state}`);
    return item;
  }

  async download(a: In<'download'>) {
    const batchId = randomUUID();
    const backend = this.registry.backend(a.account);
    const ids: string[] = [];
    // The listing's size, where there is one, puts a small file in the queue's wider lane at once.
    const add = (name: string, relative: string, size: number | null) =>
      ids.push(this.addJob(batchId, a.account, a.container, { kind: 'download', name, path: localPathUnder(a.folder, relative) }, size).item.id);
    for (const name of a.names ?? []) add(name, leafOf(name), null);
    for (const prefix of a.prefixes ?? []) {
      const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
      for await (const objects of objectsUnder(backend, a.container, base)) {
        // Zero-byte folder markers become folders by the files under them; empty ones are skipped.
        const files = objects
          .filter((o) => !o.name.endsWith('/'))
          .map((o) => ({ name: o.name, path: localPathUnder(a.folder, `${leafOf(base)}/${o.name.slice(base.length)}`), size: o.size }));
        const pending = this.queue.addPending({ batchId, account: a.account, container: a.container, kind: 'download' }, files);
        for (let i = 0; i < pending.count; i++) ids.push(pending.idOf(i));
        // Each page's objects start downloading while the next page is listed.
        this.queue.pump();
      }
    }
    this.queue.pump();
    return { ids };
  }

  async downloadToPath(a: In<'downloadToPath'>) {
    const job = this.addJob(randomUUID(), a.account, a.container, { kind: 'download', name: a.name, path: a.path }, null);
    this.queue.pump();
    return { id: job.item.id };
  }

  async stageForDrag(a: In<'stageForDrag'>) {
    const names = a.names ?? [];
    const prefixes = (a.prefixes ?? []).map((p) => (p.endsWith('/') ? p : `${p}/`));
    const key = JSON.stringify([a.account, a.container, names, prefixes]);
    const earlier = this.staged.get(key);
    const states = earlier?.ids.map((id) => this.queue.jobs.get(id)?.item.state);
    if (earlier && states!.every((s) => s === 'done')) return { ready: true as const, paths: earlier.paths };
    if (earlier && states!.every((s) => s === 'queued' || s === 'running')) return { ready: false as const, ids: earlier.ids };
    const backend = this.registry.backend(a.account);
    const dir = join(this.stagingRoot, randomUUID());
    const targets = await Promise.all(
      names.map(async (name) => ({ name, path: localPathUnder(dir, leafOf(name)), size: (await backend.head(a.container, name)).size })),
    );
    for (const prefix of prefixes) {
      for await (const objects of objectsUnder(backend, a.container, prefix)) {
        for (const o of objects) {
          if (!o.name.endsWith('/')) targets.push({ name: o.name, path: localPathUnder(dir, `${leafOf(prefix)}/${o.name.slice(prefix.length)}`), size: o.size });
        }
      }
    }
    // What the drag carries: each object's file, and each folder's local folder.
    const paths = [...targets.slice(0, names.length).map((t) => t.path), ...prefixes.map((p) => localPathUnder(dir, leafOf(p)))];
    await Promise.all(prefixes.map((p) => mkdir(localPathUnder(dir, leafOf(p)), { recursive: true })));
    if (backend.kind === 'local' || targets.reduce((n, t) => n + t.size, 0) <= STAGE_NOW_BYTES) {
      await stageNow(backend, a.container, targets);
      return { ready: true as const, paths };
    }
    const batchId = randomUUID();
    const ids = targets.map((t) => this.addJob(batchId, a.account, a.container, { kind: 'download', name: t.name, path: t.path }, t.size).item.id);
    this.staged.set(key, { ids, paths });
    this.queue.pump();
    return { ready: false as const, ids };
  }

  async list() {
    return { items: [...this.queue.items()].map(copyItem), concurrency: this.queue.concurrency };
  }

  async pause(a: In<'pause'>) {
    this.each(a.ids, (j) => this.queue.pause(j), () => this.queue.pauseAll());
  }

  async resume(a: In<'resume'>) {
    this.each(a.ids, (j) => this.queue.resume(j), () => this.queue.resumeAll());
  }

  async cancel(a: In<'cancel'>) {
    this.each(a.ids, (j) => this.queue.cancel(j), () => this.queue.cancelAll());
  }

  async retry(a: In<'retry'>) {
    this.each(a.ids, (j) => this.queue.retry(j), () => this.queue.retryAll());
  }

  async clearFinished() {
    this.queue.clearFinished();
    this.file.schedule();
  }

  async setConcurrency(a: In<'setConcurrency'>) {
    this.queue.concurrency = a.concurrency;
    this.queue.pump();
  }

  async listUnfinished(a: In<'listUnfinished'>) {
    const backend = this.registry.backend(a.account);
    if (!backend.listUnfinishedUploads) throw new CofferError('NotSupported', 'This store has no multipart uploads to list');
    return backend.listUnfinishedUploads(a.container);
  }

  async abortUnfinished(a: In<'abortUnfinished'>) {
    const backend = this.registry.backend(a.account);
    if (!backend.abortUnfinishedUpload) throw new CofferError('NotSupported', 'This store has no multipart uploads to abort');
    await backend.abortUnfinishedUpload(a.container, a.name, a.uploadId);
  }

  /** Stops what runs (it comes back paused at the next start) and writes the queue down. */
  async close(): Promise<void> {
    // Waits for the aborted attempts to settle (each records its progress as it stops), but not
    // for ever: a call that ignored its signal must not keep the app from quitting.
    let giveUp: NodeJS.Timeout | undefined;
    await Promise.race([this.queue.stopAll(), new Promise((r) => (giveUp = setTimeout(r, STOP_GRACE_MS)))]);
    clearTimeout(giveUp);
    this.reports.stop();
    await this.files.close();
    for (const job of this.queue.jobs.values()) {
      if (job.item.state !== 'running' && job.item.state !== 'queued') continue;
      job.item.state = 'paused';
    }
    await this.file.flush();
  }
}
