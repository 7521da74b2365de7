import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Where files dragged out of the window are staged: inside the data directory, so the local store's blobs can be hard-linked. */
export const stagingRootOf = (dataDir: string) => join(dataDir, 'drag-staging');

/** Staged files live until the next start: a drop target may read them late. */
export function resetStaging(root: string): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
}

/** Characters no common file system accepts in a name (Windows is the strictest). */
const FORBIDDEN = /[<>:"\\|?*\u0000-\u001f]/g;

/** One path segment that is safe on every OS: never empty, never `.` or `..`. */
function safeSegment(segment: string): string {
  const cleaned = segment.replace(FORBIDDEN, '_').replace(/[. ]+$/, '');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

/** An object name relative to a folder as safe `/`-separated segments (the same rules as on disk, for zip entries). */
export function safeRelativePath(relativeName: string): string {
  const segments = relativeName.split('/').filter((s) => s !== '' && s !== '.');
  return segments.length === 0 ? '_' : segments.map(safeSegment).join('/');
}

/**
 * The local path for an object name relative to a folder: `/`-separated segments made safe, so
 * no name (`../../x`, `/etc/passwd`, `a//b`) reaches outside `folder`.
 */
export function localPathUnder(folder: string, relativeName: string): string {
  const segments = relativeName.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return join(folder, '_');
  return join(folder, ...segments.map(safeSegment));
}

/** The last segment of an object name (`a/b/c.txt` -> `c.txt`). */
export const leafOf = (name: string) => name.replace(/\/+$/, '').split('/').pop() ?? name;
