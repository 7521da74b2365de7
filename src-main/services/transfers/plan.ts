import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { ConflictPolicy, UploadPlan } from '../../../src-shared/contract/transfers.js';
import { CofferError } from '../../../src-shared/errors.js';
import type { ObjectBackend } from '../../backends/object-backend.js';
import { roundUp4k } from '../../engine/index.js';
import { objectsUnder } from '../objects-under.js';

export interface PlannedFile {
  relativePath: string;
  size: number;
  /** Desktop uploads: the file main reads. Browser uploads have none. */
  path?: string;
}

const STAT_BATCH = 64;

/** Every file under the given paths, relative to where they were picked (folders keep their name). */
export async function expandPaths(paths: string[]): Promise<PlannedFile[]> {
  const out: PlannedFile[] = [];
  for (const p of paths) {
    const st = await stat(p).catch((err: Error) => {
      throw new CofferError('InvalidArgument', `Cannot read ${p}: ${err.message}`);
    });
    if (st.isFile()) out.push({ path: p, relativePath: basename(p), size: st.size });
    else if (st.isDirectory()) {
      const files = (await readdir(p, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
      // Sizes STAT_BATCH at a time: one after the other, 10,000 files waited about a second for theirs.
      for (let i = 0; i < files.length; i += STAT_BATCH) {
        const batch = files.slice(i, i + STAT_BATCH);
        const sizes = await Promise.all(batch.map(async (full) => (await stat(full)).size));
        batch.forEach((full, j) => out.push({ path: full, relativePath: `${basename(p)}/${relative(p, full).split(sep).join('/')}`, size: sizes[j]! }));
      }
    }
  }
  return out;
}

/** Up to this many names are checked one HEAD each; more, and the target folders are listed. */
const HEAD_LIMIT = 32;

/**
 * Which of `names` exist already, and a way to ask about more (for "keep both" suffixes): a HEAD
 * per name for a few files, one flat listing per top-level folder of the drop for many.
 */
async function existingNames(backend: ObjectBackend, container: string, prefix: string, names: string[]): Promise<(name: string) => Promise<boolean>> {
  const headExists = async (name: string) =>
    backend.head(container, name).then(
      () => true,
      (err: { code?: string }) => {
        if (err.code === 'NoSuchKey' || err.code === 'NoSuchVersion' || err.code === 'DeleteMarker') return false;
        throw err;
      },
    );
  if (names.length <= HEAD_LIMIT) {
    const found = new Set<string>();
    await Promise.all(names.map(async (n) => (await headExists(n)) && found.add(n)));
    return async (n) => found.has(n) || (!names.includes(n) && headExists(n));
  }
  const tops = new Set(names.map((n) => {
    const rest = n.slice(prefix.length);
    const slash = rest.indexOf('/');
    return slash < 0 ? n : prefix + rest.slice(0, slash + 1);
  }));
  const existing = new Set<string>();
  const listed: string[] = [];
  for (const top of tops) {
    if (!top.endsWith('/')) {
      if (await headExists(top)) existing.add(top);
      continue;
    }
    listed.push(top);
    for await (const objects of objectsUnder(backend, container, top)) for (const o of objects) existing.add(o.name);
  }
  return async (n) => existing.has(n) || (!listed.some((top) => n.startsWith(top)) && !names.includes(n) && headExists(n));
}

export interface Batch {
  plan: UploadPlan;
  account: string;
  container: string;
  files: (PlannedFile & { name: string })[];
  exists: (name: string) => Promise<boolean>;
  conflicts: Set<string>;
  created: number;
}

export async function planBatch(backend: ObjectBackend, a: { batchId: string; account: string; container: string; prefix: string; files: PlannedFile[] }): Promise<Batch> {
  if (a.files.length === 0) throw new CofferError('InvalidArgument', 'Nothing to upload: no files were found');
  const prefix = a.prefix && !a.prefix.endsWith('/') ? `${a.prefix}/` : a.prefix;
  const files = a.files.map((f) => ({ ...f, name: prefix + f.relativePath.replace(/^\/+/, '') }));
  const names = files.map((f) => f.name);
  const exists = await existingNames(backend, a.container, prefix, names);
  const conflicts = new Set<string>();
  for (const n of names) if (await exists(n)) conflicts.add(n);
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  const plan: UploadPlan = {
    batchId: a.batchId,
    files: files.length,
    bytes,
    conflicts: { count: conflicts.size, sample: [...conflicts].slice(0, 5) },
    quota: await quotaProblem(backend, a.container, files.map((f) => f.size)),
  };
  return { plan, account: a.account, container: a.container, files, exists, conflicts, created: Date.now() };
}

/** The unit the store rounds each object up to, from the engine's own formula. */
const ROUNDING = roundUp4k(1);

type Used = { bytes: number | null; objects: number | null; quotaBytes?: number };

/**
 * The first quota the batch would break (replacements counted as new: the check errs on the side
 * of warning). Bytes are compared the way the store counts them: where it reports a quota figure
 * (the embedded store, Ceph RGW), each file rounded up to 4 KiB on top of that figure, or a batch
 * of small files passes here and is refused half-way; elsewhere the plain sizes.
 */
async function quotaProblem(backend: ObjectBackend, container: string, sizes: number[]): Promise<UploadPlan['quota']> {
  const info = await backend.accountInfo().catch(() => undefined);
  const checks: { scope: 'account' | 'container'; used: Used; max: { maxBytes: number | null; maxObjects: number | null } }[] = [];
  if (info) checks.push({ scope: 'account', used: info.usage, max: info.quota });
  const summary = (await backend.listContainers().catch(() => [])).find((c) => c.name === container);
  if (summary?.quota) checks.push({ scope: 'container', used: summary, max: summary.quota });
  const plainBytes = sizes.reduce((sum, n) => sum + n, 0);
  const countedBytes = sizes.reduce((sum, n) => sum + roundUp4k(n), 0);
  for (const c of checks) {
    const counted = c.used.quotaBytes !== undefined;
    const used = counted ? c.used.quotaBytes! : c.used.bytes;
    const adding = counted ? countedBytes : plainBytes;
    if (c.max.maxBytes !== null && used !== null && used + adding > c.max.maxBytes) {
      return { scope: c.scope, limit: 'bytes', used, max: c.max.maxBytes, adding, ...(counted ? { roundedTo: ROUNDING } : {}) };
    }
    if (c.max.maxObjects !== null && c.used.objects !== null && c.used.objects + sizes.length > c.max.maxObjects) {
      return { scope: c.scope, limit: 'objects', used: c.used.objects, max: c.max.maxObjects, adding: sizes.length };
    }
  }
  return null;
}

/** `photo.jpg` -> `photo (1).jpg`, `(2)`, ... : the first name not taken. */
async function freeName(name: string, taken: (n: string) => Promise<boolean>): Promise<string> {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  const cut = dot > slash + 1 ? dot : name.length;
  for (let i = 1; ; i++) {
    const candidate = `${name.slice(0, cut)} (${i})${name.slice(cut)}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/** The batch's files with their final names under the chosen policy; skipped ones left out. */
export async function resolveNames(batch: Batch, policy: ConflictPolicy): Promise<(PlannedFile & { name: string })[]> {
  if (policy === 'replace' || batch.conflicts.size === 0) return batch.files;
  const chosen = new Set<string>();
  const inBatch = new Set(batch.files.map((f) => f.name));
  const out: (PlannedFile & { name: string })[] = [];
  for (const f of batch.files) {
    if (!batch.conflicts.has(f.name)) {
      out.push(f);
      chosen.add(f.name);
    } else if (policy === 'keepBoth') {
      const name = await freeName(f.name, async (n) => chosen.has(n) || inBatch.has(n) || (await batch.exists(n)));
      chosen.add(name);
      out.push({ ...f, name });
    }
  }
  return out;
}
