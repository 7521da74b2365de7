// Folder entries as the rows the grid shows: labels relative to the folder, the folder's own
// marker object hidden, sorting by column over what is loaded.
import { describe, expect, it } from 'vitest';
import { sortRows, toRows, type Row } from '../../src-renderer/features/browser/rows.js';
import type { FolderEntry } from '../../src-shared/model/storage.js';

const object = (name: string, size: number, contentType: string | null = 'text/plain'): FolderEntry => ({ kind: 'object', name, size, etag: 'e', lastModified: `2026-01-0${size % 9 || 1}T00:00:00.000Z`, contentType });
const plain = (r: Row) => ({ key: r.key, kind: r.kind, label: r.label, size: r.size, type: r.type, modified: r.modified });

describe('toRows', () => {
  it('labels names relative to the folder, folders without their slash, and hides the folder marker', () => {
    const rows = toRows([object('docs/', 0), { kind: 'folder', prefix: 'docs/a/' }, object('docs/b.txt', 3, null), object('docs/c.md', 5, 'text/markdown')], 'docs/');
    expect(rows.map(plain)).toEqual([
      { key: 'docs/a/', kind: 'folder', label: 'a', size: null, type: null, modified: null },
      { key: 'docs/b.txt', kind: 'object', label: 'b.txt', size: 3, type: null, modified: '2026-01-03T00:00:00.000Z' },
      { key: 'docs/c.md', kind: 'object', label: 'c.md', size: 5, type: 'text/markdown', modified: '2026-01-05T00:00:00.000Z' },
    ]);
  });

  it('with deleted objects shown: versions follow their object; a name whose first entry is a version is deleted, on the page it starts or carried over', () => {
    const version = (name: string, id: string, deleteMarker: boolean, isLatest = false): FolderEntry => ({ kind: 'version', name, versionId: id, isLatest, deleteMarker, size: deleteMarker ? 0 : 4, etag: '', lastModified: '2026-01-01T00:00:00.000Z', contentType: null });
    const shown = (r: Row) => [r.kind, r.label, r.version ? `${r.version.id}${r.version.deleted ? ' deleted' : ''}` : ''];
    const first = toRows([object('d/a', 3), version('d/a', 'a1', false), version('d/b', 'b2', true, true), version('d/b', 'b1', false), version('d/c', 'c1', false)], 'd/');
    expect(first.map(shown)).toEqual([
      ['object', 'a', ''],
      ['version', 'a', 'a1'],
      ['version', 'b', 'b2 deleted'],
      ['version', 'b', 'b1'],
      // Swift: a name whose delete marker was deleted has versions but none current.
      ['version', 'c', 'c1 deleted'],
    ]);
    // Keys tell the rows of one name apart, and never equal an object's name.
    expect(new Set(first.map((r) => r.key)).size).toBe(5);
    expect(first[1]!.key).toBe('d/a\u0000a1');
    // The next page goes on with d/c's versions: not another deleted object.
    expect(toRows([version('d/c', 'c0', false), object('d/e', 1)], 'd/', 'd/c').map(shown)).toEqual([
      ['version', 'c', 'c0'],
      ['object', 'e', ''],
    ]);
  });

  it('at the top level, labels are the whole names', () => {
    expect(toRows([{ kind: 'folder', prefix: 'x/' }, object('y', 1)], '').map((r) => [r.label, r.kind])).toEqual([
      ['x', 'folder'],
      ['y', 'object'],
    ]);
  });
});

describe('sortRows', () => {
  const rows = toRows([{ kind: 'folder', prefix: 'f/' }, object('a', 7), object('b', 2), object('c', 7)], '');

  it("name ascending is the server's order, as given", () => {
    expect(sortRows(rows, 'name', 'asc')).toBe(rows);
  });

  it('other sorts keep folders first and break ties by name', () => {
    expect(sortRows(rows, 'size', 'asc').map((r) => r.key)).toEqual(['f/', 'b', 'a', 'c']);
    expect(sortRows(rows, 'size', 'desc').map((r) => r.key)).toEqual(['f/', 'a', 'c', 'b']);
  });
});
