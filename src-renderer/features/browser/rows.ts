// Folder entries as table rows: names relative to the folder, the folder's own marker object
// hidden, and sorting by column over what is loaded.
import type { FolderEntry } from '../../../src-shared/model/storage';
import type { SortColumn, SortDirection } from '../../stores/sort';

export interface Row {
  /** Selection key: the object name, or the folder's prefix (ending in '/'). */
  key: string;
  kind: 'folder' | 'object';
  /** Relative to the folder on screen. */
  label: string;
  size: number | null;
  type: string | null;
  modified: string | null;
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

export function toRows(entries: readonly FolderEntry[], folder: string): Row[] {
  const rows: Row[] = [];
  for (const e of entries) {
    if (e.kind === 'folder') rows.push(new FolderRow(e.prefix, folder.length));
    else if (e.name !== folder) rows.push(new ObjectRow(e.name, folder.length, e.size, sharedType(e.contentType), e.lastModified));
  }
  return rows;
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
