// The browse operations that touch many objects at once: deleting objects and whole folders,
// and pasting (copy or move) them into a folder, maybe of another container or account. Both
// report their progress under the caller's operation id, a few times a second at most.
import type { PasteResult } from '../../src-shared/contract/browse.js';
import type { OperationProgress } from '../../src-shared/contract/events.js';
import { CofferError } from '../../src-shared/errors.js';
import type { DeleteManyResult } from '../../src-shared/model/storage.js';
import type { ObjectBackend } from '../backends/object-backend.js';
import { PROGRESS_INTERVAL_MS } from '../backends/transfer.js';
import { objectsUnder } from './objects-under.js';

export type Ref = { account: string; container: string; name: string };

export interface BulkContext {
  backend(account: string): ObjectBackend;
  /** Runs a call on an account's backend, recording whether the connection works. */
  on<T>(account: string, fn: (b: ObjectBackend) => Promise<T>): Promise<T>;
  /** One object from one place to another: server-side within an account, streamed across. */
  copyOne(from: Ref, to: Ref): Promise<unknown>;
  changed(account: string, container: string, names: string[]): void;
  progress(p: OperationProgress): void;
}

/** Names per deleteMany call: the native bulk delete takes up to 10,000, S3 1,000. */
const DELETE_BATCH = 1000;
/** Copies in flight at once: remote copies are round trips, local ones wait on the disk. */
const COPY_CONCURRENCY = 8;
/** Candidates tried for a free "name (copy n)" before giving up. */
const MAX_COPY_SUFFIX = 1000;

/** Progress of one operation, throttled; nothing is sent when the caller gave no id. */
class Progress {
  private done = 0;
  private last = 0;
  constructor(
    private readonly ctx: BulkContext,
    private readonly id: string | undefined,
    private readonly kind: OperationProgress['kind'],
    private total: number | null,
  ) {
    this.send(false);
  }
  add(n: number): void {
    this.done += n;
    if (Date.now() - this.last >= PROGRESS_INTERVAL_MS) this.send(false);
  }
  setTotal(total: number): void {
    this.total = total;
  }
  finish(): void {
    this.send(true);
  }
  private send(finished: boolean): void {
    this.last = Date.now();
    if (this.id) this.ctx.progress({ id: this.id, kind: this.kind, done: this.done, total: finished ? this.done : this.total, finished });
  }
}

/** Every object name under a prefix (flat listing), page by page. */
export async function* namesUnder(backend: ObjectBackend, container: string, prefix: string): AsyncGenerator<string[]> {
  for await (const objects of objectsUnder(backend, container, prefix)) yield objects.map((o) => o.name);
}

export async function deleteEntries(
  ctx: BulkContext,
  a: { account: string; container: string; names: string[]; prefixes: string[]; operationId?: string | undefined },
): Promise<DeleteManyResult> {
  // Whole folders are counted as they are listed; only a list of names has a total up front.
  const progress = new Progress(ctx, a.operationId, 'delete', a.prefixes.length === 0 ? a.names.length : null);
  const result: DeleteManyResult = { deleted: [], errors: [] };
  const batch = async (b: ObjectBackend, names: string[]) => {
    for (let i = 0; i < names.length; i += DELETE_BATCH) {
      const slice = names.slice(i, i + DELETE_BATCH);
      const r = await b.deleteMany(a.container, slice);
      result.deleted.push(...r.deleted);
      result.errors.push(...r.errors);
      progress.add(slice.length);
    }
  };
  try {
    await ctx.on(a.account, async (b) => {
      await batch(b, a.names);
      for (const prefix of a.prefixes) for await (const names of namesUnder(b, a.container, prefix)) await batch(b, names);
    });
  } finally {
    progress.finish();
    ctx.changed(a.account, a.container, [...a.names, ...a.prefixes]);
  }
  return result;
}

/** The last path segment, a folder's with its slash: 'a/b/c.txt' -> 'c.txt', 'a/b/' -> 'b/'. */
export function leafOf(name: string): string {
  const trimmed = name.endsWith('/') ? name.slice(0, -1) : name;
  return name.slice(trimmed.lastIndexOf('/') + 1);
}

/** 'report.pdf' -> 'report (copy).pdf', then 'report (copy 2).pdf'; folders 'docs/' -> 'docs (copy)/'. */
export function copyName(leaf: string, n: number): string {
  const folder = leaf.endsWith('/');
  const base = folder ? leaf.slice(0, -1) : leaf;
  const dot = folder ? -1 : base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  return `${stem} (copy${n > 1 ? ` ${n}` : ''})${ext}${folder ? '/' : ''}`;
}

async function exists(b: ObjectBackend, container: string, name: string): Promise<boolean> {
  if (name.endsWith('/')) {
    for await (const page of b.listFolder(container, { prefix: name, delimiter: '', pageSize: 1 })) return page.entries.length > 0;
    return false;
  }
  try {
    await b.head(container, name);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'NoSuchKey') return false;
    throw err;
  }
}

interface PasteArgs {
  from: { account: string; container: string; names: string[]; prefixes: string[] };
  to: { account: string; container: string; prefix: string };
  mode: 'copy' | 'move';
  conflicts: 'ask' | 'keepBoth' | 'replace' | 'skip';
  operationId?: string | undefined;
}

export async function paste(ctx: BulkContext, a: PasteArgs): Promise<PasteResult> {
  const { from, to } = a;
  const prefix = to.prefix === '' || to.prefix.endsWith('/') ? to.prefix : `${to.prefix}/`;
  const samePlace = (source: string, target: string) => from.account === to.account && from.container === to.container && source === target;
  const sources = [...from.names, ...from.prefixes];
  for (const p of from.prefixes) {
    if (from.account === to.account && from.container === to.container && prefix.startsWith(p)) {
      throw new CofferError('InvalidArgument', `The folder ${p} cannot be pasted into itself`);
    }
  }

  // Decide every top-level name before touching anything, so 'ask' can still change nothing.
  const plan: { from: string; to: string }[] = [];
  const taken: string[] = [];
  const skipped: string[] = [];
  // A selection can be thousands of names: ask about them several at a time.
  const clashes = new Map<string, boolean>();
  await eachLimited(sources, COPY_CONCURRENCY, async (source) => {
    clashes.set(source, await ctx.on(to.account, (b) => exists(b, to.container, prefix + leafOf(source))));
  });
  for (const source of sources) {
    const leaf = leafOf(source);
    const wanted = prefix + leaf;
    if (samePlace(source, wanted) && a.mode === 'move') {
      skipped.push(source);
      continue;
    }
    const clash = clashes.get(source)!;
    if (!clash) plan.push({ from: source, to: wanted });
    else if (samePlace(source, wanted) || a.conflicts === 'keepBoth') plan.push({ from: source, to: await freeName(ctx, to, prefix, leaf) });
    else if (a.conflicts === 'replace') plan.push({ from: source, to: wanted });
    else if (a.conflicts === 'skip') skipped.push(source);
    else taken.push(leaf);
  }
  if (taken.length > 0) return { status: 'conflicts', names: taken };

  const progress = new Progress(ctx, a.operationId, a.mode, from.prefixes.length === 0 ? plan.length : null);
  const errors: { name: string; code: string; message: string }[] = [];
  let objects = 0;
  const moveDone: string[] = [];
  const one = async (source: string, dest: string) => {
    try {
      await ctx.copyOne({ account: from.account, container: from.container, name: source }, { account: to.account, container: to.container, name: dest });
      objects++;
      if (a.mode === 'move') moveDone.push(source);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      errors.push({ name: source, code: e.code ?? 'InternalError', message: e.message ?? String(err) });
    }
    progress.add(1);
  };
  const deleteMoved = async () => {
    if (moveDone.length === 0) return;
    const names = moveDone.splice(0);
    const r = await ctx.on(from.account, (b) => b.deleteMany(from.container, names));
    errors.push(...r.errors);
  };
  try {
    const single = plan.filter((p) => !p.from.endsWith('/'));
    for (let i = 0; i < single.length; i += DELETE_BATCH) {
      await eachLimited(single.slice(i, i + DELETE_BATCH), COPY_CONCURRENCY, (item) => one(item.from, item.to));
      await deleteMoved();
    }
    for (const item of plan.filter((p) => p.from.endsWith('/'))) {
      for await (const names of namesUnder(ctx.backend(from.account), from.container, item.from)) {
        await eachLimited(names, COPY_CONCURRENCY, (name) => one(name, item.to + name.slice(item.from.length)));
        // Deleting page by page keeps what was moved out of the listing's way.
        await deleteMoved();
      }
    }
  } finally {
    progress.finish();
    ctx.changed(to.account, to.container, plan.map((p) => p.to));
    if (a.mode === 'move') ctx.changed(from.account, from.container, plan.map((p) => p.from));
  }
  return { status: 'done', pasted: plan, skipped, objects, errors };
}

async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function freeName(ctx: BulkContext, to: { account: string; container: string }, prefix: string, leaf: string): Promise<string> {
  for (let n = 1; n <= MAX_COPY_SUFFIX; n++) {
    const candidate = prefix + copyName(leaf, n);
    if (!(await ctx.on(to.account, (b) => exists(b, to.container, candidate)))) return candidate;
  }
  throw new CofferError('InvalidArgument', `No free name for a copy of ${leaf}`);
}
