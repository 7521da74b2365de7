import type { FolderEntry } from '../../src-shared/model/storage.js';
import type { ObjectBackend } from '../backends/object-backend.js';

export type ObjectEntry = Extract<FolderEntry, { kind: 'object' }>;

/** Every object under a prefix (a flat listing), a page at a time: bulk work goes page by page. */
export async function* objectsUnder(backend: ObjectBackend, container: string, prefix: string): AsyncGenerator<ObjectEntry[]> {
  for await (const page of backend.listFolder(container, { prefix, delimiter: '', pageSize: 1000 })) {
    yield page.entries.filter((e): e is ObjectEntry => e.kind === 'object');
  }
}
