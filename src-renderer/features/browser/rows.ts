// Folder entries as table rows: names relative to the folder, the folder's own marker object
// hidden, and sorting by column over what is loaded.
import type { FolderEntry } from '../../../src-shared/model/storage';
import type { SortColumn, SortDirection } from '../../stores/sort';

/** What a row listed with deleted objects shown says about the version it stands for. */
export interface RowVersion {
  name: string;
  id: string;
  deleteMarker: boolean;
  isLatest: boolean;
  /** The first row of an object with no current version: the one Undelete brings back. */
  deleted: boolean;
}

export interface Row {
  /** Selection key: the object name, the folder's prefix (ending in '/'), or a version's name and id. */
  key: string;
  kind: 'folder' | 'object' | 'version';
  /** Relative to the folder on screen. */
  label: string;
  size: number | null;
  type: string | null;
  modified: string | null;
  /** Only on rows of non-current versions and delete markers. */
  version?: RowVersion;
}

// A folder's content types are a handful repeated over every object, yet each parsed entry
// brings its own copy of the string: rows share one (the table stays small: cleared when full).
const sharedTypes = new Map<string, string>();
function sharedType(type: string | null): string | null {
  if (type === null) return null;
  const known = sharedTypes.get(type);
  if (known !== undefined) return known;
  if (sharedTypes.size >= 256) sharedTypes.clear();
  sharedTypes.set(type, type);
  return type;
}

/**
 * A row is built for every entry loaded (100,000 in a big folder) but shown for a screenful:
 * the kind lives on the class and the label is derived from the key when read, so neither is
 * stored per entry.
 */
class ObjectRow implements Row {
  constructor(
    readonly key: string,
    private readonly folderLength: number,
    readonly size: number,
    readonly type: string | null,
    readonly modified: string,
  ) {}

  get kind(): 'object' {
    return 'object';
  }

  get label(): string {
    return this.key.slice(this.folderLength);
  }
}

class FolderRow implements Row {
  constructor(
    readonly key: string,
    private readonly folderLength: number,
  ) {}

  get kind(): 'folder' {
    return 'folder';
  }

  get label(): string {
    return this.key.slice(this.folderLength).replace(/\/$/, '');
  }

  get size(): null {
    return null;
  }

  get type(): null {
    return null;
  }

  get modified(): null {
    return null;
  }
}

/** A non-current version or a delete marker (listed only with deleted objects shown). */
class VersionRow implements Row {
  readonly key: string;
  constructor(
    readonly version: RowVersion,
    private readonly folderLength: number,
    readonly size: number,
    readonly type: string | null,
    readonly modified: string,
  ) {
    // NUL is in no object name: the key cannot clash with an object's.
    this.key = `${version.name}\u0000${version.id}`;
  }

  get kind(): 'version' {
    return 'version';
  }

  get label(): string {
    return this.version.name.slice(this.folderLength);
  }
}

/**
 * `after`: the name the page before ended with, whose versions may go on here. A name whose
 * first listed entry is a version (not its current object) has no current version: deleted.
 */
export function toRows(entries: readonly FolderEntry[], folder: string, after?: string): Row[] {
  const rows: Row[] = [];
  let previous = after;
  for (const e of entries) {
    if (e.kind === 'folder') rows.push(new FolderRow(e.prefix, folder.length));
    else if (e.name === folder) {
      // The folder's own marker object is the folder itself.
    } else if (e.kind === 'object') rows.push(new ObjectRow(e.name, folder.length, e.size, sharedType(e.contentType), e.lastModified));
    else {
      const version = { name: e.name, id: e.versionId, deleteMarker: e.deleteMarker, isLatest: e.isLatest, deleted: e.name !== previous };
      rows.push(new VersionRow(version, folder.length, e.size, sharedType(e.contentType), e.lastModified));
    }
    previous = e.kind === 'folder' ? e.prefix : e.name;
  }
  return rows;
}

/** The rows a command on objects and folders takes: rows of versions are not objects. */
export function plainRows(rows: readonly Row[]): readonly Row[] {
  return rows.some((r) => r.kind === 'version') ? rows.filter((r) => r.kind !== 'version') : rows;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compare(column: SortColumn, a: Row, b: Row): number {
  switch (column) {
    case 'name':
      return byCodeUnit(a.key, b.key);
    case 'size':
      return (a.size ?? -1) - (b.size ?? -1);
    case 'type':
      return byCodeUnit(a.type ?? '', b.type ?? '');
    case 'modified':
      return byCodeUnit(a.modified ?? '', b.modified ?? '');
  }
}

/**
 * Name ascending keeps the server's order (pages append at the end as they stream in). Other
 * sorts keep folders before objects, ties broken by name, and only order what is loaded.
 */
export function sortRows(rows: readonly Row[], column: SortColumn, direction: SortDirection): readonly Row[] {
  if (column === 'name' && direction === 'asc') return rows;
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (column !== 'name' && a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
    return sign * compare(column, a, b) || byCodeUnit(a.key, b.key);
  });
}
