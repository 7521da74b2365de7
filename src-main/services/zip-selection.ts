import type { Readable } from 'node:stream';
import type { ObjectBackend } from '../backends/object-backend.js';
import { objectsUnder } from './objects-under.js';
import { leafOf, safeRelativePath } from './transfers/local-paths.js';

/** One file of a folder download as a zip: its path in the archive, and its bytes on demand. */
export interface ZipEntry {
  path: string;
  size: number;
  lastModified: Date;
  open(): Promise<Readable>;
}

export interface ZipSelection {
  container: string;
  names: readonly string[];
  prefixes: readonly string[];
}

/**
 * The files a selection downloads, laid out as the desktop app writes them to a folder: objects
 * by their leaf name, folders as folders of that name. Paths are made safe (no `..`, no absolute
 * path reaches an unzip), and a path taken twice gets a numbered name.
 */
export async function* zipEntries(backend: ObjectBackend, s: ZipSelection): AsyncGenerator<ZipEntry> {
  const taken = new Set<string>();
  const unique = (path: string) => {
    let candidate = path;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = numbered(path, n);
    taken.add(candidate.toLowerCase());
    return candidate;
  };
  const entry = (name: string, relative: string, size: number, lastModified: string): ZipEntry => ({
    path: unique(safeRelativePath(relative)),
    size,
    lastModified: new Date(lastModified),
    open: async () => (await backend.download(s.container, name)).body,
  });
  for (const name of s.names) {
    const details = await backend.head(s.container, name);
    yield entry(name, leafOf(name), details.size, details.lastModified);
  }
  for (const prefix of s.prefixes) {
    const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
    for await (const objects of objectsUnder(backend, s.container, base)) {
      // Zero-byte folder markers become folders by the files under them.
      for (const o of objects) if (!o.name.endsWith('/')) yield entry(o.name, `${leafOf(base)}/${o.name.slice(base.length)}`, o.size, o.lastModified);
    }
  }
}

function numbered(path: string, n: number): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? `${path.slice(0, dot)} (${n})${path.slice(dot)}` : `${path} (${n})`;
}
