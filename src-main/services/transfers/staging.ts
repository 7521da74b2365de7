import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectBackend } from '../../backends/object-backend.js';
import type { ConnectionRegistry } from '../connections.js';
import type { Job } from './job.js';
import { partialPathOf } from './runners.js';

/**
 * A drag-out selection up to this size is fetched while the drag starts; larger ones go through
 * the queue with progress first. The local store is always immediate (a hard link costs nothing).
 */
export const STAGE_NOW_BYTES = 16 * 1024 * 1024;

/** Puts each object at its path: exported by the store itself where it can (no network), else downloaded. */
export async function stageNow(backend: ObjectBackend, container: string, targets: { name: string; path: string }[]): Promise<void> {
  for (const t of targets) {
    await mkdir(dirname(t.path), { recursive: true });
    if (backend.exportToFile && (await backend.exportToFile(container, t.name, t.path))) continue;
    const { body } = await backend.download(container, t.name);
    await pipeline(body, createWriteStream(t.path));
  }
}

/** What a cancelled job leaves: a resumable upload's parts on the server, a download's partial file. */
export async function discardLeftovers(job: Job, registry: ConnectionRegistry): Promise<void> {
  const token = job.resumeToken;
  job.resumeToken = null;
  if (job.spec.kind === 'download') {
    await rm(partialPathOf(job.spec.path), { force: true });
    return;
  }
  if (!token) return;
  const backend = registry.backend(job.item.account);
  await backend.discardUpload?.(job.item.container, job.spec.name, token).catch(() => undefined);
}
