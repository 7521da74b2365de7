import type { FolderCount } from '../../src-shared/contract/browse.js';
import type { FolderEntry } from '../../src-shared/model/storage.js';
import type { ObjectBackend } from '../backends/object-backend.js';

export type ObjectEntry = Extract<FolderEntry, { kind: 'object' }>;

/** Every object under a prefix (a flat listing), a page at a time: bulk work goes page by page. */
export async function* objectsUnder(backend: ObjectBackend, container: string, prefix: string): AsyncGenerator<ObjectEntry[]> {
  for await (const page of backend.listFolder(container, { prefix, delimiter: '', pageSize: 1000 })) {
    yield page.entries.filter((e): e is ObjectEntry => e.kind === 'object');
  }
}

/** Objects and bytes under folders, counted page by page until `limit` objects (a confirmation needs no more). */
export async function countUnder(backend: ObjectBackend, container: string, prefixes: readonly string[], limit: number): Promise<FolderCount> {
  const count: FolderCount = { objects: 0, bytes: 0, complete: true };
  for (const prefix of prefixes) {
    for await (const page of objectsUnder(backend, container, prefix)) {
      for (const entry of page) {
        if (count.objects >= limit) return { ...count, complete: false };
        count.objects++;
        count.bytes += entry.size;
      }
    }
  }
  return count;
}
